"""The reference's conditional memory writes: POST /v1/memories/{id}/delete and /restore, PUT /{id}/semantic.
Each names its operation (Idempotency-Key) and the revision it expects (If-Match); a soft-deleted memory is out
of recall and listings until restored; every write is a revision of the memory's history."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.secured import admin_client, bearer, new_key

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=100)


def op() -> str:
    return f"op-{uuid.uuid4().hex[:12]}"


def remember(http: httpx.Client, ws: str, content: str) -> dict:
    r = http.post("/v1/memories", json={"content": content, "workspace_id": ws})
    assert r.status_code == 201, r.text
    return r.json()["memory"]


def conditional(etag: str, key: str | None = None) -> dict[str, str]:
    return {"Idempotency-Key": key or op(), "If-Match": etag}


def listed(http: httpx.Client, ws: str) -> set[str]:
    r = http.get("/v1/memories", params={"workspace_id": ws})
    assert r.status_code == 200, r.text
    return {m["id"] for m in r.json()["memories"]}


def recalled(http: httpx.Client, ws: str, query: str) -> set[str]:
    r = http.post("/v1/memories/recall", json={"query": query, "workspace_id": ws, "limit": 20})
    assert r.status_code == 200, r.text
    return {m["id"] for m in r.json()["memories"]}


def current(http: httpx.Client, memory_id: str) -> dict:
    r = http.get(f"/v1/memories/{memory_id}", params={"include_deleted": "true"})
    assert r.status_code == 200, r.text
    return r.json()["memory"]


def test_delete_hides_the_memory_until_restore_brings_it_back(http, ws):
    memory = remember(http, ws, "the quarterly report goes to finance on Fridays")
    assert memory["id"] in recalled(http, ws, "quarterly report finance")

    deleted = http.post(f"/v1/memories/{memory['id']}/delete", headers=conditional(memory["etag"]))
    assert deleted.status_code == 200, deleted.text
    body = deleted.json()
    assert body["replayed"] is False
    assert body["memory"]["deleted_at"] is not None and body["memory"]["revision"] == 2
    assert deleted.headers["ETag"] == body["memory"]["etag"] != memory["etag"]
    assert http.get(f"/v1/memories/{memory['id']}").status_code == 404
    assert memory["id"] not in listed(http, ws)
    assert memory["id"] not in recalled(http, ws, "quarterly report finance")

    restored = http.post(f"/v1/memories/{memory['id']}/restore", headers=conditional(body["memory"]["etag"]))
    assert restored.status_code == 200, restored.text
    assert restored.json()["memory"]["deleted_at"] is None
    assert restored.json()["memory"]["revision"] == 3
    assert memory["id"] in listed(http, ws)
    assert memory["id"] in recalled(http, ws, "quarterly report finance")

    history = http.get(f"/v1/memories/{memory['id']}/revisions").json()["revisions"]
    assert [r["action"] for r in history] == ["restore", "delete", "create"]


def test_a_retry_answers_the_first_result_and_a_reused_key_conflicts(http, ws):
    memory = remember(http, ws, "the office plants are watered on Mondays")
    key = op()
    first = http.post(f"/v1/memories/{memory['id']}/delete", headers=conditional(memory["etag"], key))
    again = http.post(f"/v1/memories/{memory['id']}/delete", headers=conditional(memory["etag"], key))
    assert first.status_code == again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["memory"]["revision"] == first.json()["memory"]["revision"] == 2
    assert again.json()["memory"]["etag"] == first.json()["memory"]["etag"]
    # The same key for another request (a restore) is a conflict, and restores nothing.
    reused = http.post(
        f"/v1/memories/{memory['id']}/restore", headers=conditional(first.json()["memory"]["etag"], key)
    )
    assert reused.status_code == 409
    assert reused.json()["detail"]["code"] == "idempotency_key_reused"
    assert current(http, memory["id"])["deleted_at"] is not None
    history = http.get(f"/v1/memories/{memory['id']}/revisions").json()["revisions"]
    assert [(r["action"], r["operation_id"]) for r in history] == [("delete", key), ("create", None)]


def test_preconditions_refuse_and_change_nothing(http, ws):
    memory = remember(http, ws, "the printer on floor two needs toner")
    path = f"/v1/memories/{memory['id']}"
    missing_key = http.post(f"{path}/delete", headers={"If-Match": memory["etag"]})
    missing_match = http.post(f"{path}/delete", headers={"Idempotency-Key": op()})
    stale = http.post(f"{path}/delete", headers=conditional('"memory-1-stale"'))
    not_deleted = http.post(f"{path}/restore", headers=conditional(memory["etag"]))
    assert (missing_key.status_code, missing_key.json()["detail"]["code"]) == (
        428,
        "idempotency_key_required",
    )
    assert (missing_match.status_code, missing_match.json()["detail"]["code"]) == (428, "if_match_required")
    assert stale.status_code == 412
    assert (not_deleted.status_code, not_deleted.json()["detail"]["code"]) == (409, "memory_not_deleted")
    too_long = http.post(f"{path}/delete", headers=conditional(memory["etag"], "k" * 201))
    assert too_long.status_code == 400
    after = current(http, memory["id"])
    assert after["deleted_at"] is None and after["revision"] == 1

    gone = http.post(f"{path}/delete", headers=conditional(memory["etag"]))
    twice = http.post(f"{path}/delete", headers=conditional(gone.json()["memory"]["etag"]))
    assert twice.status_code == 404  # already deleted, as the reference answers


def test_restore_of_a_hard_deleted_or_unknown_memory_is_404(http, ws):
    memory = remember(http, ws, "the badge reader at the east door is broken")
    assert http.delete(f"/v1/memories/{memory['id']}", params={"hard": "true"}).status_code == 204
    hard = http.post(f"/v1/memories/{memory['id']}/restore", headers=conditional(memory["etag"]))
    unknown = http.post("/v1/memories/mem_0000000000000000/restore", headers=conditional(memory["etag"]))
    assert (hard.status_code, hard.json()["detail"]["code"]) == (404, "memory_not_found")
    assert unknown.status_code == 404


def test_restore_refuses_a_second_live_copy(http, ws):
    memory = remember(http, ws, "lunch is served at noon in the atrium")
    deleted = http.post(f"/v1/memories/{memory['id']}/delete", headers=conditional(memory["etag"]))
    twin = remember(http, ws, "lunch is served at noon in the atrium")
    assert twin["id"] != memory["id"]
    clash = http.post(
        f"/v1/memories/{memory['id']}/restore", headers=conditional(deleted.json()["memory"]["etag"])
    )
    assert (clash.status_code, clash.json()["detail"]["code"]) == (409, "duplicate_memory")
    assert current(http, memory["id"])["deleted_at"] is not None


def test_semantic_replace_embeds_the_new_content_and_records_a_revision(http, ws):
    memory = remember(http, ws, "the team standup is at nine in room blue")
    replaced = http.put(
        f"/v1/memories/{memory['id']}/semantic",
        json={
            "content": "the team standup moved to ten in room green",
            "type": "procedural",
            "tags": ["Meetings"],
        },
        headers=conditional(memory["etag"]),
    )
    assert replaced.status_code == 200, replaced.text
    new = replaced.json()["memory"]
    assert (new["content"], new["type"], new["revision"]) == (
        "the team standup moved to ten in room green",
        "procedural",
        2,
    )
    assert new["tags"] == ["Meetings"] and new["pinned"] is False and new["subtype"] is None
    assert replaced.headers["ETag"] == new["etag"]
    assert memory["id"] in recalled(http, ws, "standup room green")
    history = http.get(f"/v1/memories/{memory['id']}/revisions").json()["revisions"]
    assert [r["memory"]["content"] for r in history] == [new["content"], memory["content"]]
    assert [r["action"] for r in history] == ["replace", "create"]


def test_semantic_replace_refuses_bad_input_and_deleted_memories(http, ws):
    memory = remember(http, ws, "the parking garage closes at eight")
    path = f"/v1/memories/{memory['id']}/semantic"
    no_type = http.put(path, json={"content": "closes at nine"}, headers=conditional(memory["etag"]))
    blank = http.put(path, json={"content": "   ", "type": "semantic"}, headers=conditional(memory["etag"]))
    bad_type = http.put(path, json={"content": "x", "type": "gossip"}, headers=conditional(memory["etag"]))
    assert no_type.status_code == blank.status_code == bad_type.status_code == 422
    assert current(http, memory["id"])["content"] == "the parking garage closes at eight"

    deleted = http.post(f"/v1/memories/{memory['id']}/delete", headers=conditional(memory["etag"]))
    late = http.put(
        path,
        json={"content": "closes at nine", "type": "semantic"},
        headers=conditional(deleted.json()["memory"]["etag"]),
    )
    assert late.status_code == 404


def test_another_workspace_key_cannot_delete_restore_or_replace(secured, ws, other_ws):
    with (
        httpx.Client(base_url=secured, headers=bearer(new_key(secured, ws))) as mine,
        httpx.Client(base_url=secured, headers=bearer(new_key(secured, other_ws))) as theirs,
        admin_client(secured),
    ):
        memory = remember(mine, ws, "the vault code is kept by the night manager")
        path = f"/v1/memories/{memory['id']}"
        attempts = [
            theirs.post(f"{path}/delete", headers=conditional(memory["etag"])),
            theirs.post(f"{path}/restore", headers=conditional(memory["etag"])),
            theirs.put(
                f"{path}/semantic",
                json={"content": "x", "type": "semantic"},
                headers=conditional(memory["etag"]),
            ),
        ]
        assert [a.status_code for a in attempts] == [404, 404, 404]
        named = theirs.post(
            f"{path}/delete", params={"workspace_id": ws}, headers=conditional(memory["etag"])
        )
        assert named.status_code == 403
        after = current(mine, memory["id"])
        assert (after["deleted_at"], after["revision"], after["content"]) == (None, 1, memory["content"])
