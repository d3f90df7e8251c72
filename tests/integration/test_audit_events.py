"""The audit trail: GET /v1/audit/events (newest first, paged) and /summary. Every write leaves one event in its
own transaction (a refused write leaves none); a key reads its tenant's events in its workspaces, the admin key
reads everything."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.secured import admin_client, bearer

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)


@pytest.fixture()
def admin(secured) -> Iterator[httpx.Client]:
    with admin_client(secured) as c:
        yield c


def key_for(admin: httpx.Client, workspace: str) -> tuple[str, httpx.Client]:
    r = admin.post(
        "/v1/admin/api-keys", json={"workspaces": [workspace], "tenant_id": f"t_{uuid.uuid4().hex[:10]}"}
    )
    assert r.status_code == 201, r.text
    headers = {**bearer(r.json()["key"]), "X-Workspace-ID": workspace}
    return r.json()["id"], httpx.Client(base_url=str(admin.base_url), headers=headers)


def events(client: httpx.Client, **params) -> list[dict]:
    r = client.get("/v1/audit/events", params=params)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["count"] == len(body["events"])
    return body["events"]


def test_writes_leave_events_naming_the_key_workspace_and_target(admin, ws):
    key_id, client = key_for(admin, ws)
    with client:
        memory = client.post("/v1/memories", json={"content": "the fire drill is on Thursday"}).json()[
            "memory"
        ]
        assert client.put(f"/v1/memories/{memory['id']}", json={"importance": 0.9}).status_code == 200
        assert client.delete(f"/v1/memories/{memory['id']}").status_code == 204
        found = events(client)
    assert [(e["event_type"], e["action"], e["resource_id"]) for e in found] == [
        ("memory", "delete", memory["id"]),
        ("memory", "update", memory["id"]),
        ("memory", "create", memory["id"]),
        ("api_key", "create", key_id),
    ]
    assert {e["workspace_id"] for e in found} == {ws}
    assert [e["user_id"] for e in found] == [key_id, key_id, key_id, "admin"]
    assert len({e["tenant_id"] for e in found}) == 1
    assert int(found[0]["id"]) > int(found[-1]["id"])  # newest first
    assert datetime.fromisoformat(found[0]["timestamp"]) > datetime.now(UTC) - timedelta(minutes=5)


def test_versioned_workspace_and_import_writes_are_audited(admin, ws):
    key_id, client = key_for(admin, ws)
    with client:
        memory = client.post("/v1/memories", json={"content": "badges renew in March"}).json()["memory"]
        headers = {"Idempotency-Key": f"op-{uuid.uuid4().hex}", "If-Match": memory["etag"]}
        deleted = client.post(f"/v1/memories/{memory['id']}/delete", headers=headers)
        assert deleted.status_code == 200
        # The retry writes nothing, so it records nothing.
        assert client.post(f"/v1/memories/{memory['id']}/delete", headers=headers).json()["replayed"] is True
        imported = client.post(
            f"/v1/workspaces/{ws}/import", json={"memories": [{"content": "the lobby opens at seven"}]}
        )
        assert imported.status_code == 200, imported.text
        assert client.put(f"/v1/workspaces/{ws}", json={"name": "Front desk"}).status_code == 200
        actions = [(e["event_type"], e["action"]) for e in events(client)]
    assert actions[:5] == [
        ("workspace", "update"),
        ("workspace", "import"),
        ("memory", "create"),
        ("memory", "delete"),
        ("memory", "create"),
    ]
    assert actions.count(("memory", "delete")) == 1


def test_a_refused_write_leaves_no_event(admin, ws):
    _, client = key_for(admin, ws)
    with client:
        memory = client.post("/v1/memories", json={"content": "the gym closes on Sundays"}).json()["memory"]
        before = events(client)
        stale = client.put(
            f"/v1/memories/{memory['id']}", json={"importance": 0.1}, headers={"If-Match": '"memory-9-x"'}
        )
        bad = client.post("/v1/memories", json={"content": ""})
        assert (stale.status_code, bad.status_code) == (412, 422)
        assert events(client) == before


def test_keys_see_only_their_own_workspaces_and_the_admin_sees_all(admin, ws, other_ws):
    _, mine = key_for(admin, ws)
    _, theirs = key_for(admin, other_ws)
    with mine, theirs:
        a = mine.post("/v1/memories", json={"content": "alpha launches in May"}).json()["memory"]
        b = theirs.post("/v1/memories", json={"content": "beta launches in June"}).json()["memory"]
        seen_by_mine = {e["resource_id"] for e in events(mine, limit=1000)}
        assert a["id"] in seen_by_mine and b["id"] not in seen_by_mine
        assert {e["workspace_id"] for e in events(mine, limit=1000)} == {ws}
        foreign = mine.get("/v1/audit/events", params={"workspace_id": other_ws})
        foreign_summary = mine.get("/v1/audit/events/summary", params={"workspace_id": other_ws})
        assert foreign.status_code == foreign_summary.status_code == 403
        assert mine.get("/v1/audit/events/summary").json() == {
            "summary": {"api_key": 1, "memory": 1},
            "total": 2,
        }
    both = {e["resource_id"] for e in events(admin, limit=1000)}
    assert {a["id"], b["id"]} <= both
    only_theirs = events(admin, workspace_id=other_ws, event_type="memory")
    assert [e["resource_id"] for e in only_theirs] == [b["id"]]


def test_pages_are_bounded_and_do_not_overlap(admin, ws):
    _, client = key_for(admin, ws)
    with client:
        for i in range(5):
            assert client.post("/v1/memories", json={"content": f"note number {i}"}).status_code == 201
        first = client.get("/v1/audit/events", params={"limit": 4}).json()
        assert first["count"] == 4 and first["next_page_token"]
        second = client.get(
            "/v1/audit/events", params={"limit": 4, "page_token": first["next_page_token"]}
        ).json()
        assert second["count"] == 2 and second["next_page_token"] is None  # 5 creates and the key's creation
        ids = [e["id"] for e in first["events"] + second["events"]]
        assert len(set(ids)) == 6 and ids == sorted(ids, key=int, reverse=True)
        future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        assert events(client, since=future) == []
        assert client.get("/v1/audit/events/summary", params={"since": future}).json() == {
            "summary": {},
            "total": 0,
        }


@pytest.mark.parametrize(
    "params",
    [
        {"limit": 0},
        {"limit": 1001},
        {"page_token": "abc"},
        {"since": "yesterday"},
        {"workspace_id": "bad id!"},
    ],
)
def test_bad_queries_are_refused(admin, params):
    r = admin.get("/v1/audit/events", params=params)
    assert 400 <= r.status_code < 500 and r.status_code != 404, r.text


def test_key_admin_is_audited(admin, ws):
    created = admin.post("/v1/admin/api-keys", json={"workspaces": [ws]})
    assert created.status_code == 201
    key_id = created.json()["id"]
    assert admin.delete(f"/v1/admin/api-keys/{key_id}").status_code == 204
    found = [e for e in events(admin, workspace_id=ws, event_type="api_key") if e["resource_id"] == key_id]
    assert [e["action"] for e in found] == ["revoke", "create"]
    assert admin.post("/v1/workspaces", json={"id": f"{ws}_new", "name": "new"}).status_code == 201
    assert admin.delete(f"/v1/workspaces/{ws}_new").status_code == 204
    trail = [e["action"] for e in events(admin, workspace_id=f"{ws}_new", event_type="workspace")]
    assert trail == ["delete", "create"]


def test_tokens_minted_revoked_and_deleted_are_audited_for_their_key(admin, ws):
    key_id, client = key_for(admin, ws)
    with client:
        minted = [client.post("/v1/tokens", json={"name": f"t{i}"}) for i in range(2)]
        assert [m.status_code for m in minted] == [201, 201]
        first, second = (m.json()["id"] for m in minted)
        assert client.post(f"/v1/tokens/{first}/revoke").status_code == 204
        assert client.delete(f"/v1/tokens/{second}").status_code == 204
        trail = [
            (e["action"], e["resource_type"], e["resource_id"], e["user_id"])
            for e in events(client, event_type="api_key")
        ]
    assert trail == [
        ("delete", "token", second, key_id),
        ("revoke", "token", first, key_id),
        ("create", "token", second, key_id),
        ("create", "token", first, key_id),
        ("create", "api_key", key_id, "admin"),
    ]
