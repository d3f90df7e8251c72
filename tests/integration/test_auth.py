"""API keys: 401 without a valid key, 403 outside its workspaces or access, admin routes for the admin only."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.secured import admin_client

pytestmark = pytest.mark.secured(rate_limit_per_s=5.0, rate_limit_burst=20)


@pytest.fixture()
def admin(secured) -> Iterator[httpx.Client]:
    with admin_client(secured) as c:
        yield c


def new_key(admin: httpx.Client, *workspaces: str, **fields) -> dict:
    r = admin.post("/v1/admin/api-keys", json={"workspaces": list(workspaces), **fields})
    assert r.status_code == 201, r.text
    return r.json()


def client(url: str, key: str | None) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"} if key else {})


def test_missing_and_wrong_keys_are_401_health_stays_open(secured):
    with client(secured, None) as anon:
        assert anon.get("/health").status_code == 200
        r = anon.post("/v1/memories/recall", json={"query": "x"})
        assert r.status_code == 401 and r.json()["detail"]["code"] == "missing_api_key"
        assert anon.get("/v1/workspaces").status_code == 401
    with client(secured, "mlk_000000000000_nope") as wrong:
        assert wrong.get("/v1/memories").status_code == 401
    with httpx.Client(base_url=secured, headers={"Authorization": "not-even-bearer"}) as raw:
        assert raw.get("/v1/memories").status_code == 401


def test_a_key_works_in_its_workspace_only(secured, admin, ws, other_ws):
    mine = new_key(admin, ws)
    assert mine["key"].startswith("mlk_") and mine["workspaces"] == [ws]
    theirs = new_key(admin, other_ws)
    with client(secured, theirs["key"]) as b:
        their_memory = b.post("/v1/memories", json={"content": "B only"}).json()["memory"]
        assert their_memory["workspace_id"] == other_ws  # a one-workspace key defaults to it
    with client(secured, mine["key"]) as a:
        created = a.post("/v1/memories", json={"content": "A's note"}, headers={"X-Workspace-ID": ws})
        assert created.status_code == 201
        # Naming another workspace by header, query or body is 403 ...
        assert a.get("/v1/memories", headers={"X-Workspace-ID": other_ws}).status_code == 403
        assert a.get("/v1/memories", params={"workspace_id": other_ws}).status_code == 403
        assert a.post("/v1/memories", json={"content": "x", "workspace_id": other_ws}).status_code == 403
        assert a.get(f"/v1/workspaces/{other_ws}").status_code == 403
        assert a.get(f"/v1/workspaces/{other_ws}/export").status_code == 403
        # ... and another workspace's id is simply not there.
        assert a.get(f"/v1/memories/{their_memory['id']}").status_code == 404
        assert a.delete(f"/v1/memories/{their_memory['id']}").status_code == 404
        assert [w["id"] for w in a.get("/v1/workspaces").json()["workspaces"]] == [ws]
        found = a.post("/v1/memories/recall", json={"query": "B only note", "min_relevance": 0}).json()[
            "memories"
        ]
        assert [m["content"] for m in found] == ["A's note"]
        # A workspace key on admin routes is 403.
        assert a.get("/v1/admin/api-keys").status_code == 403
        assert a.post("/v1/admin/api-keys", json={"workspaces": [ws]}).status_code == 403


def test_read_only_keys_can_search_but_not_write(secured, admin, ws):
    writer = new_key(admin, ws)
    reader = new_key(admin, ws, access="read")
    with client(secured, writer["key"]) as w:
        memory = w.post("/v1/memories", json={"content": "readable fact"}).json()["memory"]
    with client(secured, reader["key"]) as r:
        assert (
            r.post("/v1/memories/recall", json={"query": "readable fact"}).json()["memories"][0]["id"]
            == memory["id"]
        )
        assert r.get(f"/v1/memories/{memory['id']}").status_code == 200
        denied = r.post("/v1/memories", json={"content": "nope"})
        assert denied.status_code == 403 and denied.json()["detail"]["code"] == "read_only_key"
        assert r.delete(f"/v1/memories/{memory['id']}").status_code == 403
        assert r.put(f"/v1/memories/{memory['id']}", json={"content": "changed"}).status_code == 403
    with client(secured, writer["key"]) as w:
        assert w.get(f"/v1/memories/{memory['id']}").json()["memory"]["content"] == "readable fact"


def test_expired_and_revoked_keys_are_401(secured, admin, ws):
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    expired = new_key(admin, ws, expires_at=past)
    with client(secured, expired["key"]) as c:
        r = c.get("/v1/memories")
        assert r.status_code == 401 and r.json()["detail"]["code"] == "api_key_expired"
    live = new_key(admin, ws)
    with client(secured, live["key"]) as c:
        assert c.get("/v1/memories").status_code == 200
        assert admin.delete(f"/v1/admin/api-keys/{live['id']}").status_code == 204
        r = c.get("/v1/memories")
        assert r.status_code == 401 and r.json()["detail"]["code"] == "api_key_revoked"
    listed = admin.get("/v1/admin/api-keys").json()["api_keys"]
    assert any(k["id"] == live["id"] and k["revoked_at"] for k in listed)
    assert all("key" not in k for k in listed)


def test_keys_are_stored_as_prefix_and_hash(admin, services, ws):
    created = new_key(admin, ws)
    with services.db.connection() as conn:
        row = conn.execute("SELECT * FROM api_keys WHERE id = %s", (created["id"],)).fetchone()
    assert created["key"] not in str(row) and row["prefix"] in created["key"]


def test_bad_key_requests_are_4xx(admin):
    assert admin.post("/v1/admin/api-keys", json={"workspaces": []}).status_code == 422
    assert admin.post("/v1/admin/api-keys", json={"workspaces": ["bad id!"]}).status_code == 400
    assert admin.post("/v1/admin/api-keys", json={"workspaces": ["w"], "access": "root"}).status_code == 422
    assert admin.delete("/v1/admin/api-keys/key_doesnotexist").status_code == 404


def test_rate_limit_answers_429_with_retry_after(secured, admin, ws):
    key = new_key(admin, ws)
    statuses = []
    with client(secured, key["key"]) as c:
        for _ in range(40):
            r = c.get("/v1/memories")
            statuses.append(r.status_code)
            if r.status_code == 429:
                assert int(r.headers["Retry-After"]) >= 1
                assert r.json()["detail"]["code"] == "rate_limited"
                break
    assert 429 in statuses and statuses.count(200) >= 20


def test_cli_creates_a_key(app_url, secured, ws):
    env = {**os.environ, "MEMORYLAYER_DATABASE_URL": app_url}
    out = subprocess.run(
        [sys.executable, "-m", "shared.cli", "keys", "create", "--workspace", ws, "--access", "read"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    key = next(line.split()[-1] for line in out.stdout.splitlines() if line.startswith("key:"))
    with client(secured, key) as c:
        assert c.get("/v1/memories", headers={"X-Workspace-ID": ws}).status_code == 200
        assert c.post("/v1/memories", json={"content": "x"}).status_code == 403
