"""POST /v1/representation/user over HTTP: a user's memories in the tenant's user space (newest first, with a
profile), never another user's or another tenant's; bad input is a 422."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.integration.test_tenant_walls import admin, new_key, secured, user_memory  # noqa: F401


@pytest.fixture()
def user() -> str:
    return f"u_{uuid.uuid4().hex[:10]}"


def memory_id(r: httpx.Response) -> str:
    assert r.status_code in (200, 201), r.text
    body = r.json()
    return body["id"] if "id" in body else body["memory"]["id"]


def represent(client: httpx.Client, **body) -> dict:
    r = client.post("/v1/representation/user", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_users_memories_make_their_representation(http: httpx.Client, ws: str, user: str):
    http.headers["X-Workspace-ID"] = ws
    ids = []
    for content, when in (
        ("Prefers green tea", "2026-01-01T00:00:00Z"),
        ("Lives in Lyon", "2026-02-01T00:00:00Z"),
    ):
        ids.append(memory_id(user_memory(http, content, user, event_time=when)))
    user_memory(http, "Someone else's secret", f"{user}_other")
    http.post("/v1/memories", json={"content": "A workspace fact", "user_id": user})  # not in the user space
    rep = represent(http, user_id=user)
    assert [o["content"] for o in rep["observations"]] == ["Lives in Lyon", "Prefers green tea"]
    assert {o["role"] for o in rep["observations"]} == {"self"}
    assert rep["profile"] == {
        "summary": "Lives in Lyon Prefers green tea",
        "source_memory_ids": [ids[1], ids[0]],
        "derived": False,
    }
    assert rep["derived_beliefs"] == [] and rep["provenance"]["truncated"] is False
    one = represent(http, user_id=user, limit=1, include_profile=False)
    assert len(one["observations"]) == 1 and one["profile"] is None and one["provenance"]["truncated"] is True
    profiled = memory_id(user_memory(http, "Tea lover from Lyon", user, subtype="profile"))
    assert represent(http, user_id=user)["profile"]["source_memory_ids"] == [profiled]


def test_no_user_and_bad_input(http: httpx.Client):
    empty = represent(http)
    assert (empty["user_id"], empty["observations"], empty["provenance"]["error"]) == ("", [], "no_user_id")
    for body in ({"user_id": ""}, {"user_id": "u", "limit": 0}, {"user_id": "u", "limit": 201}):
        assert http.post("/v1/representation/user", json=body).status_code == 422


def test_another_tenant_sees_nothing_of_a_user(admin, user):  # noqa: F811
    ws_a, ws_b = f"ws_{uuid.uuid4().hex[:8]}", f"ws_{uuid.uuid4().hex[:8]}"
    with (
        new_key(admin, ws_a, tenant=f"t_{uuid.uuid4().hex[:8]}") as a,
        new_key(admin, ws_b, tenant=f"t_{uuid.uuid4().hex[:8]}") as b,
        new_key(admin, ws_a, shared="none") as no_shared,
    ):
        assert user_memory(a, "Tenant A's user likes tea", user).status_code in (200, 201)
        assert [o["content"] for o in represent(a, user_id=user)["observations"]] == [
            "Tenant A's user likes tea"
        ]
        assert represent(b, user_id=user)["observations"] == []
        assert no_shared.post("/v1/representation/user", json={"user_id": user}).status_code == 403


def test_our_sdk_reads_a_user_representation(base_url: str, ws: str, user: str, http: httpx.Client):
    from memorylayer import SyncMemoryLayerClient

    user_memory(http, "Prefers oolong", user, headers={"X-Workspace-ID": ws})
    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        rep = client.get_user_representation(user)
    assert [o["content"] for o in rep["observations"]] == ["Prefers oolong"]
