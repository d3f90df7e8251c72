"""A database that wakes up: the stand-in proxy in paused mode holds new connections for its resume time, as
an Aurora Serverless v2 writer at 0 ACU does. Requests during a resume wait and succeed, or get a 503
``database_resuming`` with Retry-After when the resume outlasts their wait; the cleanup and extraction
handlers wait it out instead of failing (each failure would be a Lambda error, and an alarm).

The resume times here are seconds, scaled down with the waits: the point is the order (connect wait <
resume < resume wait, or resume wait < resume), not Aurora's 15-30 s.
"""

from __future__ import annotations

import importlib
import json
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from psycopg.conninfo import conninfo_to_dict

from shared.api.app import create_app
from shared.app.bootstrap import process_services
from shared.app.services import Services
from shared.core.settings import Settings, get_settings
from shared.db.pool import RECENTLY_RETURNED_S
from shared.local.rds_proxy import RdsProxyStandIn
from shared.local.server import serve_in_thread
from tests.conftest import APP_ROLE
from tests.functions.events import LambdaContext

# Short enough that a fresh connection through an awake proxy is never mistaken for a held one, long
# enough that a paused one always is.
CONNECT_WAIT_S = 1.0


@pytest.fixture()
def proxy(superuser_url: str, owner_url: str) -> Iterator[RdsProxyStandIn]:
    """A stand-in proxy of this test's own (TLS verify-full, as in AWS), awake until the test pauses it."""
    with RdsProxyStandIn(superuser_url, tls=True) as stand_in:
        yield stand_in


def app_dsn(proxy: RdsProxyStandIn, superuser_url: str) -> str:
    return proxy.dsn(APP_ROLE, str(conninfo_to_dict(superuser_url).get("dbname") or "postgres"))


@contextmanager
def serve(proxy: RdsProxyStandIn, superuser_url: str, *, resume_wait_s: float) -> Iterator[httpx.Client]:
    """The app over HTTP through ``proxy``, waiting up to ``resume_wait_s`` for a resume."""
    settings = Settings(
        database_url=app_dsn(proxy, superuser_url),
        embedding_provider="hash",
        auth_mode="none",
        db_connect_timeout_s=CONNECT_WAIT_S,
        db_resume_timeout_s=resume_wait_s,
    )
    services = Services.build(settings)
    try:
        with (
            serve_in_thread(create_app(settings, services=services)) as url,
            httpx.Client(base_url=url, timeout=60) as client,
        ):
            yield client
    finally:
        services.close()


def pause(proxy: RdsProxyStandIn, resume_s: float | None = None) -> None:
    """Pause, then let the pool's connections age past the window in which it lends one back unchecked:
    Aurora pauses only after minutes without connections, so a request never meets one it just used."""
    proxy.pause(resume_s)
    time.sleep(RECENTLY_RETURNED_S)


def wait_until_awake(proxy: RdsProxyStandIn, limit_s: float = 30.0) -> None:
    deadline = time.monotonic() + limit_s
    while proxy.paused and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not proxy.paused


def test_a_request_during_a_resume_waits_and_succeeds(proxy: RdsProxyStandIn, superuser_url: str, ws: str):
    with serve(proxy, superuser_url, resume_wait_s=20.0) as api:
        requests_across_two_pauses(proxy, api, {"X-Workspace-ID": ws})


def requests_across_two_pauses(proxy: RdsProxyStandIn, api: httpx.Client, headers: dict[str, str]) -> None:
    created = api.post("/v1/memories", json={"content": "before the pause"}, headers=headers)
    assert created.status_code == 201, created.text
    memory_id = created.json()["memory"]["id"]

    # Longer than the connect wait, shorter than the resume wait: the request waits it out.
    pause(proxy, resume_s=3 * CONNECT_WAIT_S)
    got = api.get(f"/v1/memories/{memory_id}", headers=headers)
    assert got.status_code == 200, got.text
    assert got.json()["memory"]["content"] == "before the pause"
    assert proxy.resumes == 1

    # Paused again (the pool's connections ended with the pause): a write waits out the second resume.
    pause(proxy)
    again = api.post("/v1/memories", json={"content": "after the second pause"}, headers=headers)
    assert again.status_code == 201, again.text
    assert proxy.resumes == 2


def test_a_resume_that_outlasts_the_wait_is_a_503_with_retry_after(
    proxy: RdsProxyStandIn, superuser_url: str, ws: str
):
    with serve(proxy, superuser_url, resume_wait_s=2 * CONNECT_WAIT_S) as api:
        refused_then_served(proxy, api, {"X-Workspace-ID": ws})


def refused_then_served(proxy: RdsProxyStandIn, api: httpx.Client, headers: dict[str, str]) -> None:
    pause(proxy, resume_s=6 * CONNECT_WAIT_S)
    refused = api.post("/v1/memories", json={"content": "while resuming"}, headers=headers)
    assert refused.status_code == 503, refused.text
    assert refused.json()["detail"]["code"] == "database_resuming"
    assert int(refused.headers["Retry-After"]) >= 1

    # The resume went on without the request: once it is over, the same request succeeds.
    wait_until_awake(proxy)
    retried = api.post("/v1/memories", json={"content": "while resuming"}, headers=headers)
    assert retried.status_code == 201, retried.text
    assert proxy.resumes == 1


@pytest.fixture()
def background_env(
    proxy: RdsProxyStandIn, superuser_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A deployed background function's environment, through ``proxy``, with the default resume wait."""
    for key, value in {
        "DATABASE_URL": app_dsn(proxy, superuser_url),
        "EMBEDDING_PROVIDER": "hash",
        "AUTH_MODE": "none",
        "DB_CONNECT_TIMEOUT_S": str(CONNECT_WAIT_S),
    }.items():
        monkeypatch.setenv(f"MEMORYLAYER_{key}", value)
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "MemoryLayer")
    get_settings.cache_clear()
    process_services.cache_clear()  # a cold start: built from this environment
    yield
    for purpose in ("cleanup", "worker"):
        process_services(purpose).close()
    process_services.cache_clear()
    get_settings.cache_clear()


def test_the_cleanup_run_waits_out_a_resume(proxy: RdsProxyStandIn, background_env: None):
    module = importlib.reload(importlib.import_module("functions.cleanup.handler"))
    pause(proxy, resume_s=3 * CONNECT_WAIT_S)
    # A scheduled run that finds the database paused finishes (no Lambda error, so no error alarm).
    result = module.handler(
        {"source": "aws.events", "detail-type": "Scheduled Event", "detail": {}},
        LambdaContext(function_name="memorylayer-cleanup"),
    )
    assert {"sessions_expired", "jobs_requeued", "rate_windows_purged"} <= set(result)
    assert proxy.resumes == 1


def test_the_extraction_worker_waits_out_a_resume(
    proxy: RdsProxyStandIn, background_env: None, http: httpx.Client, ws: str
):
    headers = {"X-Workspace-ID": ws}
    thread = http.post("/v1/threads", json={"user_id": "dana"}, headers=headers).json()["thread"]["id"]
    job_id = http.post(
        f"/v1/threads/{thread}/messages",
        json={"messages": [{"role": "user", "content": "Hi, my name is Dana and I live in Paris"}]},
        headers=headers,
    ).json()["job_id"]

    module = importlib.reload(importlib.import_module("functions.extraction.handler"))
    pause(proxy, resume_s=3 * CONNECT_WAIT_S)
    body = json.dumps({"job_id": job_id})
    event = {
        "Records": [
            {
                "messageId": str(uuid.uuid4()),
                "receiptHandle": "handle",
                "body": body,
                "attributes": {"ApproximateReceiveCount": "1"},
                "messageAttributes": {},
                "md5OfBody": "",
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:memorylayer-extraction",
                "awsRegion": "us-east-1",
            }
        ]
    }
    # No failed record: SQS would otherwise redeliver it, and count the receive towards the DLQ.
    response = module.handler(event, LambdaContext(function_name="memorylayer-extraction"))
    assert response["batchItemFailures"] == []
    assert proxy.resumes == 1
    assert http.get(f"/v1/jobs/{job_id}", headers=headers).json()["job"]["status"] == "done"
