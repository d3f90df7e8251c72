"""``MEMORYLAYER_METRICS_SERVICE=prometheus``: after a scripted workload over real HTTP (remember, recall, a 404,
an unknown path, a thread appended and decomposed) ``GET /metrics`` holds the series with the right labels and
counts, and no label value carries the tenant, workspace, user or memory text used. ``/metrics`` answers only
the local host or the admin key; with ``noop`` it is no route at all."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from shared.api.app import create_app
from shared.core import metrics
from shared.core.settings import Settings
from shared.local.server import serve_in_thread
from tests.secured import ADMIN, bearer, secured_settings

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture(scope="module")
def scraped(settings: Settings) -> Iterator[str]:
    """The base URL of an app with Prometheus metrics and its own services (its embedder is counted), behind
    a trusted proxy on loopback: ``X-Forwarded-For`` then names a non-local client."""
    metrics.install(metrics.NOOP)  # a fresh registry: counts below are this module's alone
    app = create_app(secured_settings(settings, metrics_service="prometheus", trusted_proxies="127.0.0.1"))
    try:
        with serve_in_thread(app) as url:
            yield url
    finally:
        app.state.services.close()
        metrics.install(metrics.NOOP)


def samples(text: str) -> Samples:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def scrape(url: str) -> tuple[str, Samples]:
    r = httpx.get(f"{url}/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return r.text, samples(r.text)


def test_the_workload_is_in_the_series_with_bounded_labels(scraped: str) -> None:
    suffix = uuid.uuid4().hex[:10]
    ws, tenant, user = f"ws_metrics_{suffix}", f"tenant_metrics_{suffix}", f"user_metrics_{suffix}"
    texts = [f"Dana's favourite tea is sencha {suffix}", f"The deploy window is Tuesday {suffix}"]
    made = httpx.post(
        f"{scraped}/v1/admin/api-keys", json={"workspaces": [ws], "tenant_id": tenant}, headers=bearer(ADMIN)
    )
    assert made.status_code == 201, made.text
    with httpx.Client(base_url=scraped, headers=bearer(made.json()["key"]), timeout=30) as api:
        for text in texts:
            r = api.post("/v1/memories", json={"content": text, "workspace_id": ws, "user_id": user})
            assert r.status_code == 201, r.text
        found = api.post("/v1/memories/recall", json={"query": f"tea {suffix}", "workspace_id": ws})
        assert found.status_code == 200 and found.json()["memories"], found.text
        assert api.get(f"/v1/memories/mem_{suffix}", params={"workspace_id": ws}).status_code == 404
        assert api.get(f"/v1/nothing-here/{ws}/{suffix}").status_code == 404
        # A method the HTTP parser takes but the API serves nowhere is counted under "other".
        assert api.request("PROPFIND", "/v1/memories").status_code == 405
        thread = api.post("/v1/threads", json={"user_id": user}, headers={"X-Workspace-ID": ws})
        assert thread.status_code == 201, thread.text
        thread_id = thread.json()["thread"]["id"]
        said = {"messages": [{"role": "user", "content": f"I moved to Lisbon {suffix}"}]}
        r = api.post(f"/v1/threads/{thread_id}/messages", json=said, headers={"X-Workspace-ID": ws})
        assert r.status_code == 201, r.text
        r = api.post(f"/v1/threads/{thread_id}/decompose", headers={"X-Workspace-ID": ws})
        assert r.status_code == 200, r.text

    text, found = scrape(scraped)
    assert value(found, "memorylayer_remember_total", outcome="completed") == 2
    assert value(found, "memorylayer_remember_latency_seconds_count", outcome="completed") == 2
    assert value(found, "memorylayer_recall_total", mode="default", outcome="completed") == 1
    assert value(found, "memorylayer_recall_latency_seconds_count", mode="default", outcome="completed") == 1
    http = "memorylayer_http_requests_total"
    assert value(found, http, method="POST", route="/v1/memories", status="201") == 2
    assert value(found, http, method="POST", route="/v1/memories/recall", status="200") == 1
    assert value(found, http, method="GET", route="/v1/memories/{memory_id}", status="404") == 1
    assert value(found, http, method="GET", route="unmatched", status="404") == 1
    assert sum(v for (name, pairs), v in found.items() if name == http and ("method", "other") in pairs) == 1
    assert value(found, http, method="POST", route="/v1/threads/{thread_id}/messages", status="201") == 1
    assert value(found, "memorylayer_http_request_duration_seconds_count", method="POST", route="/v1/memories",
                 status="201") == 2  # fmt: skip
    assert value(found, "memorylayer_jobs_total", kind="extraction", outcome="done") == 1
    # Two memories and a recall query embedded at least (extraction embeds what it writes too).
    assert value(found, "memorylayer_embedding_calls_total", modality="text", outcome="completed") >= 3
    assert value(found, "memorylayer_embedding_inputs_total", modality="text", outcome="completed") >= 3
    assert ("memorylayer_memories_total", ()) in found and ("memorylayer_sessions_active", ()) in found

    # No label value anywhere names the tenant, workspace, user or what was said.
    secrets = [ws, tenant, user, suffix, *texts, "sencha", "Lisbon"]
    labels = {v for _, pairs in found for _, v in pairs}
    assert [v for v in labels if any(s in v for s in secrets)] == []
    assert suffix not in text


def test_the_stored_rows_gauge_follows_the_table(scraped: str) -> None:
    """The gauge is the statistics collector's live-row count: it moves once the collector has flushed."""
    made = httpx.post(
        f"{scraped}/v1/admin/api-keys", json={"workspaces": ["ws_metrics_gauge"]}, headers=bearer(ADMIN)
    )
    key = made.json()["key"]
    before = value(scrape(scraped)[1], "memorylayer_memories_total")
    for i in range(3):
        r = httpx.post(f"{scraped}/v1/memories", json={"content": f"gauge row {i} {uuid.uuid4()}"},
                       headers={**bearer(key), "X-Workspace-ID": "ws_metrics_gauge"})  # fmt: skip
        assert r.status_code == 201, r.text
    deadline = time.monotonic() + 15
    while (now := value(scrape(scraped)[1], "memorylayer_memories_total")) < before + 3:
        assert time.monotonic() < deadline, f"memories_total stayed at {now} (was {before})"
        time.sleep(0.5)


def test_metrics_refuse_a_remote_client_without_the_admin_key(scraped: str) -> None:
    remote = {"X-Forwarded-For": "203.0.113.7"}
    r = httpx.get(f"{scraped}/metrics", headers=remote)
    assert r.status_code == 403
    assert r.json()["detail"]["code"] == "metrics_forbidden"
    tenant_key = httpx.post(
        f"{scraped}/v1/admin/api-keys", json={"workspaces": ["ws_metrics_remote"]}, headers=bearer(ADMIN)
    ).json()["key"]
    r = httpx.get(f"{scraped}/metrics", headers={**remote, **bearer(tenant_key)})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "metrics_forbidden"
    r = httpx.get(f"{scraped}/metrics", headers={**remote, **bearer(ADMIN)})
    assert r.status_code == 200 and "memorylayer_recall_total" in r.text


def test_with_noop_metrics_is_no_route(http: httpx.Client) -> None:
    """The session's app runs with the default (noop): /metrics is a 404 like any unknown path."""
    r = http.get("/metrics")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "route_not_found"
