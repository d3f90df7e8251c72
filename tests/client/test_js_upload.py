"""The TypeScript SDK's ``uploadFile`` against the whole local document stack as ``make dev`` runs it: uploads
land in moto's S3, the bucket's event goes to moto's SQS and the documents Lambda handler polls it. The node test
(client/memorylayer-js/test-stack/upload.test.mjs) sends a file over 4 MiB through the presigned route and a small
one through the API, and waits for their jobs."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from shared.app.bootstrap import process_services
from shared.app.services import Services
from shared.core.settings import Settings, get_settings
from shared.local.documents import document_bucket
from shared.local.server import serve_in_thread
from shared.local.sqs import SqsPoller, local_sqs
from tests.helpers.js_sdk import PACKAGE, build, clean_env, node, tap_counts, tap_failures


@pytest.fixture(scope="module")
def documents_url(app_url: str) -> Iterator[str]:
    from functions.documents.handler import handler
    from shared.api.app import create_app

    with local_sqs(name="documents", visibility_timeout_s=1) as queues, pytest.MonkeyPatch.context() as env:
        bucket = document_bucket(queues)
        for key, value in {
            "DATABASE_URL": app_url,
            "EMBEDDING_PROVIDER": "hash",
            "DOCUMENT_BUCKET": bucket,
            "DOCUMENT_QUEUE_URL": queues.queue_url,
            "SQS_ENDPOINT_URL": queues.endpoint_url,
            "S3_ENDPOINT_URL": queues.endpoint_url,
            "AUTH_MODE": "none",
        }.items():
            env.setenv(f"MEMORYLAYER_{key}", value)
        get_settings.cache_clear()
        process_services.cache_clear()
        services = Services.build(Settings())
        try:
            with (
                serve_in_thread(create_app(services.settings, services=services)) as url,
                SqsPoller(queues, handler),
            ):
                yield url
        finally:
            services.close()
            process_services("worker").close()
            process_services.cache_clear()
            get_settings.cache_clear()


def test_upload_file_takes_the_presigned_route_over_4_mib(documents_url: str) -> None:
    build()
    done = subprocess.run(
        [node(), "--test", "--test-reporter=tap", "test-stack/"],
        cwd=PACKAGE,
        env=clean_env(MEMORYLAYER_DOCUMENTS_URL=documents_url),
        capture_output=True,
        text=True,
        timeout=600,
    )
    counts = tap_counts(done.stdout)
    assert done.returncode == 0, (tap_failures(done.stdout) or done.stdout[-6000:]) + done.stderr[-2000:]
    assert counts.get("pass") == 2 and counts.get("fail") == 0 and counts.get("skipped") == 0, counts
