"""Per-tenant usage to bill from (GET /v1/admin/usage): a scripted workload by two tenants over real HTTP, then the
report holds exactly that workload per tenant, operation kind and outcome; a replayed Idempotency-Key is billed
once; failures are counted apart; only the admin key reads it, as JSON or CSV."""

from __future__ import annotations

import csv
import io
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from shared.db import usage as usage_repo
from shared.domain.usage import Period
from tests.secured import admin_client, bearer

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=400)


@pytest.fixture()
def admin(secured) -> Iterator[httpx.Client]:
    with admin_client(secured) as c:
        yield c


def tenant_client(admin: httpx.Client) -> tuple[str, httpx.Client]:
    """A key of a new tenant for a new workspace, and a client that sends it."""
    tenant, workspace = f"t_{uuid.uuid4().hex[:10]}", f"ws_{uuid.uuid4().hex[:10]}"
    r = admin.post("/v1/admin/api-keys", json={"workspaces": [workspace], "tenant_id": tenant})
    assert r.status_code == 201, r.text
    headers = {**bearer(r.json()["key"]), "X-Workspace-ID": workspace}
    return tenant, httpx.Client(base_url=str(admin.base_url), headers=headers)


def period() -> dict[str, str]:
    now = datetime.now(UTC)
    return {"since": (now - timedelta(hours=1)).isoformat(), "until": (now + timedelta(hours=1)).isoformat()}


def report(admin: httpx.Client, tenant: str, **params: str) -> dict:
    r = admin.get("/v1/admin/usage", params={"tenant_id": tenant, **period(), **params})
    assert r.status_code == 200, r.text
    return r.json()


def totals(hours: list[dict]) -> dict[tuple[str, str], tuple[int, int]]:
    """(kind, outcome) → (requests, units), summed over the hours (a run may straddle an hour)."""
    requests: Counter[tuple[str, str]] = Counter()
    units: Counter[tuple[str, str]] = Counter()
    for row in hours:
        requests[(row["kind"], row["outcome"])] += row["requests"]
        units[(row["kind"], row["outcome"])] += row["units"]
    return {key: (requests[key], units[key]) for key in requests}


def test_a_scripted_workload_of_two_tenants_is_reported_exactly(admin):
    tenant_a, a = tenant_client(admin)
    tenant_b, b = tenant_client(admin)
    texts_a = ["the office closes at six", "parking is on level two"]
    with a, b:
        ids = []
        for text in texts_a:  # write/ok ×2, a unit each
            r = a.post("/v1/memories", json={"content": text})
            assert r.status_code == 201, r.text
            ids.append(r.json()["memory"]["id"])
        assert a.post("/v1/memories/recall", json={"query": "parking"}).status_code == 200  # recall: 3 units
        assert a.get(f"/v1/memories/{ids[0]}").status_code == 200  # read/ok
        retried = {"Idempotency-Key": f"op-{uuid.uuid4().hex}"}
        first = a.post("/v1/memories", json={"content": "badges renew in March"}, headers=retried)
        again = a.post("/v1/memories", json={"content": "badges renew in March"}, headers=retried)
        assert first.status_code == 201 and again.json()["replayed"] is True  # write/ok, write/replayed
        etag = a.get(f"/v1/memories/{ids[1]}").json()["memory"]["etag"]  # read/ok
        condition = {"Idempotency-Key": f"op-{uuid.uuid4().hex}", "If-Match": etag}
        assert a.post(f"/v1/memories/{ids[1]}/delete", headers=condition).status_code == 200
        assert a.post(f"/v1/memories/{ids[1]}/delete", headers=condition).json()["replayed"] is True
        assert a.get("/v1/memories/mem_does_not_exist").status_code == 404  # read/client_error
        assert a.post("/v1/memories", json={"importance": 0.5}).status_code == 422  # write/client_error

        assert b.post("/v1/memories", json={"content": "the lobby opens at seven"}).status_code == 201
        workspace_b = b.headers["X-Workspace-ID"]
        imported = b.post(
            f"/v1/workspaces/{workspace_b}/import",
            json={"memories": [{"content": "deliveries go to gate B"}]},
        )
        assert imported.status_code == 200, imported.text  # upload/ok: 5 units (+1 per 64 KiB)
        refused = b.get("/v1/admin/usage")  # a tenant key: 403, and billed as a refused admin call
        assert refused.status_code == 403
        assert refused.json()["detail"]["code"] == "admin_required"

    got_a, got_b = report(admin, tenant_a), report(admin, tenant_b)
    assert totals(got_a["hours"]) == {
        ("write", "ok"): (4, 4),  # two memories, the first of the retried write, the conditional delete
        ("write", "replayed"): (2, 2),  # their retries: answered from the store, not billed again
        ("recall", "ok"): (1, 3),
        ("read", "ok"): (2, 2),
        ("read", "client_error"): (1, 1),
        ("write", "client_error"): (1, 1),
    }
    assert totals(got_b["hours"]) == {
        ("write", "ok"): (1, 1),
        ("upload", "ok"): (1, 5),
        ("admin", "client_error"): (1, 1),
    }
    assert {row["tenant_id"] for row in got_a["hours"]} == {tenant_a}
    assert got_a["truncated"] is False and got_a["tenant_id"] == tenant_a
    # What each stores now: A's two live memories (one was deleted), B's two.
    live_a = [texts_a[0], "badges renew in March"]
    assert got_a["stored"] == [
        {"tenant_id": tenant_a, "memories": 2, "bytes": sum(len(t.encode()) for t in live_a)}
    ]
    live_b = ["the lobby opens at seven", "deliveries go to gate B"]
    assert got_b["stored"] == [
        {"tenant_id": tenant_b, "memories": 2, "bytes": sum(len(t.encode()) for t in live_b)}
    ]
    # The admin key's own calls (the keys made above) are kept apart, under a name no tenant can have.
    operator = totals(report(admin, ":admin")["hours"])
    assert operator[("admin", "ok")][0] >= 2


def test_csv_and_json_agree(admin):
    tenant, client = tenant_client(admin)
    with client:
        assert client.post("/v1/memories", json={"content": "the canteen serves soup"}).status_code == 201
        assert client.get("/v1/memories/mem_missing").status_code == 404
    as_json = report(admin, tenant)["hours"]
    r = admin.get("/v1/admin/usage", params={"tenant_id": tenant, "format": "csv", **period()})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert len(rows) == len(as_json) == 2
    numbers = ("requests", "units", "document_pages", "sandbox_ms", "generation_tokens", "embedding_tokens")
    for line, item in zip(rows, as_json, strict=True):
        assert datetime.fromisoformat(line["hour"]) == datetime.fromisoformat(item["hour"])
        assert (line["tenant_id"], line["kind"], line["outcome"]) == (
            item["tenant_id"],
            item["kind"],
            item["outcome"],
        )
        assert {n: int(line[n]) for n in numbers} == {n: item[n] for n in numbers}


def test_the_report_is_bounded_and_bad_parameters_are_refused_with_a_code(admin, services):
    now = datetime.now(UTC)
    too_long = {"since": (now - timedelta(days=400)).isoformat(), "until": now.isoformat()}
    r = admin.get("/v1/admin/usage", params=too_long)
    assert r.status_code == 400 and r.json()["detail"]["code"] == "usage_period_too_long"
    backwards = {"since": now.isoformat(), "until": (now - timedelta(hours=2)).isoformat()}
    r = admin.get("/v1/admin/usage", params=backwards)
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_period"
    r = admin.get("/v1/admin/usage", params={"until": "0001-01-01T00:00:00"})  # a day earlier is no date
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_period"
    r = admin.get("/v1/admin/usage", params={"tenant_id": "not a tenant"})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_tenant_id"
    r = admin.get("/v1/admin/usage", params={"format": "xml"})
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "literal_error"
    r = admin.get("/v1/admin/usage", params={"since": "yesterday"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "since"]

    # The row cap: one tenant with more hourly rows than a report holds says it was cut.
    tenant = f"t_{uuid.uuid4().hex[:10]}"
    start = now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=5)
    with services.db.connection() as conn:
        for hour in range(5):
            usage_repo.add(conn, tenant, "read", "ok", requests=1, units=1, at=start + timedelta(hours=hour))
    capped = type(services.usage)(services.db, max_rows=3)
    got = capped.report(tenant, Period.of(start, now))
    assert got["truncated"] is True and [r["hour"] for r in got["hours"]] == [
        start + timedelta(hours=h) for h in range(3)
    ]
    whole = report(admin, tenant, since=start.isoformat(), until=now.isoformat())
    assert whole["truncated"] is False and sum(row["requests"] for row in whole["hours"]) == 5


def test_the_sdk_and_the_cli_read_the_same_report(admin, secured, capsys):
    from memorylayer import AuthorizationError, SyncMemoryLayerClient, UsageReport

    from shared.cli import main
    from tests.secured import ADMIN

    tenant, client = tenant_client(admin)
    with client:
        assert (
            client.post("/v1/memories", json={"content": "the roof is closed in winter"}).status_code == 201
        )
        key = client.headers["Authorization"].removeprefix("Bearer ")
    window = period()
    with SyncMemoryLayerClient(secured, api_key=ADMIN) as sdk:
        got = sdk.get_usage(tenant_id=tenant, **window)
        as_csv = sdk.get_usage_csv(tenant_id=tenant, **window)
    assert isinstance(got, UsageReport) and [(h.kind, h.outcome, h.requests) for h in got.hours] == [
        ("write", "ok", 1)
    ]
    assert got.stored[0].memories == 1

    base = ["usage", "--url", secured, "--api-key", ADMIN, "--tenant", tenant, "--since", window["since"]]
    assert main([*base, "--until", window["until"]]) == 0
    assert capsys.readouterr().out == as_csv
    assert main([*base, "--until", window["until"], "--format", "json"]) == 0
    printed = UsageReport.model_validate_json(capsys.readouterr().out)
    assert [(h.kind, h.outcome, h.requests) for h in printed.hours] == [("write", "ok", 1)]
    # A tenant key is refused: by the SDK as by the CLI (one line, exit 1).
    with SyncMemoryLayerClient(secured, api_key=key) as tenant_sdk, pytest.raises(AuthorizationError):
        tenant_sdk.get_usage()
    assert main(["usage", "--url", secured, "--api-key", key]) == 1
    assert "admin_required" in capsys.readouterr().err


def test_sandbox_time_is_billed_to_the_request_that_ran_it(admin):
    tenant, client = tenant_client(admin)
    with client:
        session = client.post("/v1/sessions", json={})
        assert session.status_code in (200, 201), session.text
        headers = {"X-Session-ID": session.json()["session"]["id"]}
        ran = client.post(
            "/v1/context/execute", json={"code": "total = sum(range(300_000))"}, headers=headers
        )
        assert ran.status_code == 200, ran.text
    rows = {(r["kind"], r["outcome"]): r for r in report(admin, tenant)["hours"]}
    assert set(rows) == {("write", "ok"), ("sandbox", "ok")}
    sandbox = rows[("sandbox", "ok")]
    assert (sandbox["requests"], sandbox["units"]) == (1, 10)  # the limiter's weight of an execution
    assert sandbox["sandbox_ms"] >= 1 and rows[("write", "ok")]["sandbox_ms"] == 0


def test_a_resource_familys_replayed_create_is_billed_once(admin):
    tenant, client = tenant_client(admin)
    note = {"key": "style/tone", "title": "Tone", "content": "Be brief."}
    conditions = {"Idempotency-Key": uuid.uuid4().hex, "If-None-Match": "*"}
    with client:
        assert client.post("/v1/prompt-notes", json=note, headers=conditions).status_code == 201
        again = client.post("/v1/prompt-notes", json=note, headers=conditions)
        assert again.status_code in (200, 201) and again.json()["replayed"] is True
    assert totals(report(admin, tenant)["hours"]) == {("write", "ok"): (1, 1), ("write", "replayed"): (1, 1)}
