"""The serverless document path end to end, as ``make dev`` runs it: uploads land in moto's S3, the bucket's
object-created event goes to moto's SQS, and the document Lambda handler (polled as Lambda's event source would)
parses, chunks and writes. Presigned uploads for large files, the DLQ for a refused file, idempotent reruns."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import boto3
import httpx
import pytest

from shared.app.bootstrap import process_services
from shared.app.services import Services
from shared.core.settings import Settings, get_settings
from shared.db import rls, usage
from shared.local.documents import document_bucket
from shared.local.server import serve_in_thread
from shared.local.sqs import LocalQueues, SqsPoller, lambda_event, local_sqs
from tests.helpers.documents import pdf, slow_pdf, upload, wait_document, wait_job
from tests.helpers.http import h

TEXT = b"The lighthouse keeper logs the weather at dawn.\n\nStorms come from the west in autumn.\n"


@pytest.fixture(scope="module")
def stack(app_url: str) -> Iterator[tuple[str, LocalQueues, Services]]:
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
        from functions.documents.handler import handler

        try:
            with (
                serve_in_thread(create_app(services.settings, services=services)) as url,
                SqsPoller(queues, handler),
            ):
                yield url, queues, services
        finally:
            services.close()
            process_services("worker").close()
            process_services.cache_clear()
            get_settings.cache_clear()


@pytest.fixture()
def api(stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack[0], timeout=30) as client:
        yield client


def _s3(queues: LocalQueues):
    return boto3.client("s3", endpoint_url=queues.endpoint_url, region_name="us-east-1")


def _storage_key(services: Services, ws: str, document_id: str) -> str:
    with rls.visible((ws,)), services.db.connection() as conn:
        row = conn.execute(
            "SELECT storage_key FROM documents WHERE id = %s AND workspace_id = %s", (document_id, ws)
        ).fetchone()
    assert row is not None
    return str(row["storage_key"])


def _presigned(api: httpx.Client, ws: str, filename: str, data: bytes) -> dict:
    r = api.post("/v1/documents/uploads", headers=h(ws), json={"filename": filename})
    assert r.status_code == 201, r.text
    grant = r.json()
    assert grant["document"]["status"] == "pending" and grant["max_bytes"] > 0
    sent = httpx.post(grant["upload_url"], data=grant["fields"], files={"file": (filename, data)})
    assert sent.status_code in (200, 201, 204), sent.text
    return grant


def test_upload_through_the_api_runs_from_the_bucket_event(api: httpx.Client, stack, ws: str) -> None:
    _, queues, services = stack
    r = upload(api, ws, "log.txt", TEXT)
    assert r.status_code == 202, r.text
    doc = wait_document(api, ws, r.json()["document"]["id"])
    assert doc["status"] == "completed" and doc["page_count"] == 1 and doc["memory_ids"]
    key = _storage_key(services, ws, doc["id"])
    assert key.startswith(f"documents/{ws}/{doc['id']}/")
    assert _s3(queues).get_object(Bucket="memorylayer-documents", Key=key)["Body"].read() == TEXT

    # Delete removes the object too.
    assert api.delete(f"/v1/documents/{doc['id']}", headers=h(ws)).status_code == 200
    with pytest.raises(_s3(queues).exceptions.NoSuchKey):
        _s3(queues).get_object(Bucket="memorylayer-documents", Key=key)


def _pages_billed(services: Services) -> int:
    """Document pages billed to the default tenant (auth is off here) in the hours around now."""
    now = datetime.now(UTC)
    with services.db.connection() as conn:
        rows = usage.hours(
            conn,
            tenant_id="_default",
            since=now - timedelta(hours=2),
            until=now + timedelta(hours=1),
            limit=10_000,
        )
    return sum(row["document_pages"] for row in rows if row["kind"] == "document")


def test_a_redelivered_event_changes_nothing(api: httpx.Client, stack, ws: str) -> None:
    _, queues, services = stack
    billed = _pages_billed(services)
    doc = wait_document(api, ws, upload(api, ws, "again.txt", TEXT + b"Once more.").json()["document"]["id"])
    key = _storage_key(services, ws, doc["id"])
    from functions.documents.handler import handler
    from shared.local.lambda_context import LambdaContext

    body = json.dumps({"Records": [{"eventSource": "aws:s3", "eventName": "ObjectCreated:Put",
                                    "s3": {"object": {"key": key}}}]})  # fmt: skip
    message = {"MessageId": str(uuid.uuid4()), "ReceiptHandle": "r", "Body": body}
    out = handler(lambda_event(queues, [message]), LambdaContext.for_function("memorylayer-documents"))
    assert out == {"batchItemFailures": []}
    # And a reprocess through the queue resolves every chunk to the memory already written.
    r = api.post(f"/v1/documents/{doc['id']}/reprocess", headers=h(ws))
    job = wait_job(api, ws, r.json()["id"])
    assert job["status"] == "completed" and job["total_memories_created"] == 0
    again = api.get(f"/v1/documents/{doc['id']}", headers=h(ws)).json()
    assert sorted(again["memory_ids"]) == sorted(doc["memory_ids"])
    with rls.visible((ws,)), services.db.connection() as conn:
        n = conn.execute(
            "SELECT count(*) AS n FROM memories WHERE workspace_id = %s AND deleted_at IS NULL", (ws,)
        ).fetchone()["n"]
    assert n == len(doc["memory_ids"])
    # Its page is billed when the upload's job completes and again for the reprocess (parsed again), never for
    # the redelivered event.
    assert _pages_billed(services) - billed == 2 * doc["page_count"] == 2


def test_presigned_upload_for_a_large_file(api: httpx.Client, stack, ws: str) -> None:
    data = pdf([[f"Page {i} tells of the harbour in chapter {i}."] for i in range(12)])
    grant = _presigned(api, ws, "book.pdf", data)
    doc = wait_document(api, ws, grant["document"]["id"])
    assert doc["status"] == "completed" and doc["page_count"] == 12 and doc["size_bytes"] == len(data)
    assert not doc["content_hash"].startswith("pending:")
    job = wait_job(api, ws, grant["job"]["id"])
    assert job["status"] == "completed" and job["total_memories_created"] == len(doc["memory_ids"])

    # The same bytes again: the earlier document stands, the new one is gone.
    second = _presigned(api, ws, "copy.pdf", data)
    dup = wait_job(api, ws, second["job"]["id"])
    assert dup["metadata"] == {"deduplicated": True, "original_document_id": doc["id"]}
    assert api.get(f"/v1/documents/{second['document']['id']}", headers=h(ws)).status_code == 404


def test_a_refused_file_fails_its_job_with_a_reason_and_lands_in_the_dlq(
    api: httpx.Client, stack, ws: str
) -> None:
    _, queues, _ = stack
    grant = _presigned(api, ws, "broken.pdf", b"%PDF-1.4\n1 0 obj <<< not a pdf at all")
    job = wait_job(api, ws, grant["job"]["id"])
    assert job["status"] == "failed"
    assert job["errors"][-1]["code"] == "corrupt_document" and job["errors"][-1]["final"] is True
    doc = api.get(f"/v1/documents/{grant['document']['id']}", headers=h(ws)).json()
    assert doc["status"] == "failed" and "cannot be read" in doc["error_message"]
    deadline = time.monotonic() + 30
    keys: list[str] = []
    while time.monotonic() < deadline and not any(grant["document"]["id"] in k for k in keys):
        got = queues.client.receive_message(
            QueueUrl=queues.dlq_url, MaxNumberOfMessages=10, WaitTimeSeconds=1
        )
        for m in got.get("Messages", []):
            keys += [r["s3"]["object"]["key"] for r in json.loads(m["Body"]).get("Records", [])]
    assert any(grant["document"]["id"] in k for k in keys), keys


def test_a_file_over_the_parse_budget_fails_its_job_with_that_code(api: httpx.Client, stack, ws: str) -> None:
    # A presigned upload is first parsed by the documents function: its page of 400,000 text operators is over
    # the per-page cap there too, and the job fails at once, the function unharmed.
    grant = _presigned(api, ws, "report.pdf", slow_pdf())
    job = wait_job(api, ws, grant["job"]["id"], timeout_s=60)
    assert job["status"] == "failed"
    assert (
        job["errors"][-1]["code"] == "document_parse_budget_exceeded" and job["errors"][-1]["final"] is True
    )
    doc = api.get(f"/v1/documents/{grant['document']['id']}", headers=h(ws)).json()
    assert doc["status"] == "failed" and "too much work" in doc["error_message"]
    ok = upload(api, ws, "after.txt", TEXT + b"\nAnd the gulls circle the harbour.\n", "text/plain")
    assert (
        ok.status_code == 202 and wait_document(api, ws, ok.json()["document"]["id"])["status"] == "completed"
    )


def test_the_sdk_uploads_a_20_mb_pdf_in_one_call(stack, ws: str, tmp_path) -> None:
    """``upload_file`` with a path over the API's cap: the presigned route, the bytes to the bucket, the job
    waited for; a small file takes the direct route. Sync and async clients are one source."""
    from memorylayer import SyncMemoryLayerClient

    url, _, services = stack
    big = tmp_path / "annual-report.pdf"
    big.write_bytes(pdf([["The harbour opens at six.", "Ferries leave hourly."]], padding=20 * 1024 * 1024))
    assert big.stat().st_size > services.settings.max_request_bytes
    with SyncMemoryLayerClient(url, workspace_id=ws) as client:
        doc, job = client.upload_file(big, wait=True, timeout=120)
        assert job.status == "completed", job.errors
        assert doc.status == "completed" and doc.filename == "annual-report.pdf" and doc.memory_ids
        assert doc.size_bytes == big.stat().st_size
        hits = client.recall("when do the ferries leave?", min_relevance=0).memories
        assert any("Ferries leave hourly" in m.content for m in hits)

        small, small_job = client.upload_file(TEXT, "log.txt", wait=True)
        assert small_job.status == "completed" and small.memory_ids
        assert client.list_documents()[1] == 2


def test_the_docs_curl_example_of_the_presigned_route_runs(stack, ws: str, tmp_path) -> None:
    url, _, _ = stack
    docs = (Path(__file__).resolve().parents[2] / "docs" / "documents.md").read_text()
    block = re.search(r"With curl .*?```bash\n(.*?)```", docs, re.S)
    assert block is not None and shutil.which("jq") and shutil.which("curl")
    script = "set -euo pipefail\n" + "\n".join(line.strip() for line in block.group(1).splitlines())
    script = script.replace("localhost:61001", url).replace("X-Workspace-ID: demo", f"X-Workspace-ID: {ws}")
    (tmp_path / "annual-report.pdf").write_bytes(pdf([["The lighthouse has a red lamp."]]))
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    with httpx.Client(base_url=url, timeout=30) as api:
        (doc,) = api.get("/v1/documents", headers=h(ws)).json()["documents"]
        assert wait_document(api, ws, doc["id"])["status"] == "completed"
