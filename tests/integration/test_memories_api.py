"""The /v1 memory routes over real HTTP, against real Postgres + pgvector."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from tests.helpers.http import remember


def test_remember_returns_the_reference_shape(http, ws):
    r = http.post(
        "/v1/memories",
        json={
            "content": "  Alice prefers dark mode  ",
            "tags": ["UI", "ui", " prefs "],
            "importance": 0.8,
            "metadata": {"source": "chat"},
            "event_time": "2024-05-01T10:00:00Z",
        },
        headers={"X-Workspace-ID": ws},
    )
    assert r.status_code == 201
    body = r.json()
    memory = body["memory"]
    assert body["replayed"] is False
    assert memory["id"].startswith("mem_") and len(memory["id"]) == 20
    assert memory["workspace_id"] == ws and memory["tenant_id"] == "_default"
    assert memory["content"] == "Alice prefers dark mode"
    assert memory["tags"] == ["UI", "ui", "prefs"]  # case kept; exact duplicates only removed
    assert memory["type"] in ("episodic", "semantic", "procedural", "working")
    assert "embedding" not in memory  # ~3 KB of floats nobody asked for: only on request
    assert memory["embedding_model"] == "hash-384@384"
    assert memory["event_time"] == "2024-05-01T10:00:00Z"
    assert memory["created_at"].endswith("Z")
    assert r.headers["ETag"] == memory["etag"]
    assert memory["etag"].startswith('"memory-1-')


def test_get_update_delete_lifecycle(http, ws):
    memory = remember(http, ws, "The deploy runs on Fridays")
    h = {"X-Workspace-ID": ws}
    got = http.get(f"/v1/memories/{memory['id']}", headers=h)
    assert got.status_code == 200 and got.json()["memory"]["content"] == "The deploy runs on Fridays"
    assert "embedding" not in got.json()["memory"]

    updated = http.put(
        f"/v1/memories/{memory['id']}",
        json={"content": "The deploy runs on Mondays", "importance": 0.9},
        headers=h,
    )
    assert updated.status_code == 200
    assert updated.json()["memory"]["content"] == "The deploy runs on Mondays"
    assert updated.json()["memory"]["revision"] == 2
    assert updated.headers["ETag"] != memory["etag"]

    # The new content is what recall finds now.
    found = http.post("/v1/memories/recall", json={"query": "deploy mondays"}, headers=h).json()
    assert found["memories"][0]["id"] == memory["id"]

    assert http.delete(f"/v1/memories/{memory['id']}", headers=h).status_code == 204
    assert http.get(f"/v1/memories/{memory['id']}", headers=h).status_code == 404
    assert http.delete(f"/v1/memories/{memory['id']}", headers=h).status_code == 404
    deleted = http.get(f"/v1/memories/{memory['id']}", params={"include_deleted": True}, headers=h)
    assert deleted.status_code == 200 and deleted.json()["memory"]["deleted_at"] is not None
    # Never a stale read: the forgotten memory is gone from recall immediately.
    found = http.post("/v1/memories/recall", json={"query": "deploy mondays"}, headers=h).json()
    assert found["memories"] == []


def test_hard_delete_removes_row_and_history(http, ws):
    memory = remember(http, ws, "temporary secret note")
    h = {"X-Workspace-ID": ws}
    assert http.delete(f"/v1/memories/{memory['id']}", params={"hard": True}, headers=h).status_code == 204
    assert (
        http.get(f"/v1/memories/{memory['id']}", params={"include_deleted": True}, headers=h).status_code
        == 404
    )
    assert http.get(f"/v1/memories/{memory['id']}/revisions", headers=h).status_code == 404


def test_revisions_record_every_write(http, ws):
    memory = remember(http, ws, "version one")
    h = {"X-Workspace-ID": ws}
    http.put(f"/v1/memories/{memory['id']}", json={"content": "version two"}, headers=h)
    http.delete(f"/v1/memories/{memory['id']}", headers=h)
    revs = http.get(f"/v1/memories/{memory['id']}/revisions", headers=h).json()["revisions"]
    # Newest first, as the reference and our other versioned families list them.
    assert [r["action"] for r in revs] == ["delete", "replace", "create"]
    assert [r["memory"]["content"] for r in revs] == ["version two", "version two", "version one"]
    page = http.get(f"/v1/memories/{memory['id']}/revisions", params={"limit": 2}, headers=h).json()
    assert [r["revision"] for r in page["revisions"]] == [3, 2] and page["next_page_token"] == "2"
    rest = http.get(f"/v1/memories/{memory['id']}/revisions", params={"page_token": "2"}, headers=h).json()
    assert [r["action"] for r in rest["revisions"]] == ["create"] and rest["next_page_token"] is None


def test_creation_is_revision_one_before_and_after_the_first_change(http, ws):
    h = {"X-Workspace-ID": ws}
    r = http.post(
        "/v1/memories/batch", json={"operations": [{"op": "create", "content": "draft one"}]}, headers=h
    )
    memory_id = r.json()["results"][0]["memory_id"]
    # Never changed: the live row is revision 1 (nothing is written for it at creation).
    revs = http.get(f"/v1/memories/{memory_id}/revisions", headers=h).json()["revisions"]
    assert [(r["revision"], r["action"], r["memory"]["content"]) for r in revs] == [
        (1, "create", "draft one")
    ]
    # The first change keeps the creation as it was.
    http.put(f"/v1/memories/{memory_id}", json={"content": "draft two"}, headers=h)
    revs = http.get(f"/v1/memories/{memory_id}/revisions", headers=h).json()["revisions"]
    assert [(r["revision"], r["action"], r["memory"]["content"]) for r in revs] == [
        (2, "replace", "draft two"),
        (1, "create", "draft one"),
    ]
    assert [
        r["revision"]
        for r in http.get(
            f"/v1/memories/{memory_id}/revisions", params={"page_token": "2"}, headers=h
        ).json()["revisions"]
    ] == [1]
    # Another workspace sees no history of it.
    other = http.get(f"/v1/memories/{memory_id}/revisions", headers={"X-Workspace-ID": ws + "_other"})
    assert other.status_code == 404


def test_if_match_guards_updates(http, ws):
    memory = remember(http, ws, "guarded content")
    h = {"X-Workspace-ID": ws}
    stale = http.put(
        f"/v1/memories/{memory['id']}", json={"content": "x"}, headers={**h, "If-Match": '"nope"'}
    )
    assert stale.status_code == 412
    assert (
        http.get(f"/v1/memories/{memory['id']}", headers=h).json()["memory"]["content"] == "guarded content"
    )
    ok = http.put(
        f"/v1/memories/{memory['id']}", json={"content": "y"}, headers={**h, "If-Match": memory["etag"]}
    )
    assert ok.status_code == 200


class TestDedup:
    def test_identical_content_and_tags_returns_the_existing_memory(self, http, ws):
        first = remember(http, ws, "Hello, my name is Bob.", tags=["chat:alice"])
        again = remember(http, ws, "Hello, my name is Bob.", tags=["chat:alice"])
        assert again["id"] == first["id"]

    def test_same_content_other_tags_is_a_separate_memory(self, http, ws):
        # The reference server (memorylayer-server 0.2.0) returned Alice's memory for Bob's chat.
        alice = remember(http, ws, "Hello, my name is Bob.", tags=["llamaindex_chat_key:alice"])
        bob = remember(http, ws, "Hello, my name is Bob.", tags=["llamaindex_chat_key:bob"])
        assert alice["id"] != bob["id"]
        found = http.post(
            "/v1/memories/recall",
            json={"query": "chat", "tags": ["llamaindex_chat_key:bob"], "min_relevance": 0},
            headers={"X-Workspace-ID": ws},
        )
        assert [m["id"] for m in found.json()["memories"]] == [bob["id"]]

    def test_repeated_message_in_one_chat_is_kept(self, http, ws):
        # The reference server kept one: "ok" from the user, then "ok" from the assistant, must both survive.
        tags = ["llamaindex_chat_key:c"]
        first = remember(http, ws, "ok", tags=tags, metadata={"message_index": 0, "role": "user"})
        second = remember(http, ws, "ok", tags=tags, metadata={"message_index": 1, "role": "assistant"})
        assert first["id"] != second["id"]

    def test_same_content_in_another_workspace_is_separate(self, http, ws, other_ws):
        assert remember(http, ws, "shared words")["id"] != remember(http, other_ws, "shared words")["id"]


def test_idempotency_key_replays_the_first_result(http, ws):
    h = {"X-Workspace-ID": ws, "Idempotency-Key": "req-1"}
    first = http.post("/v1/memories", json={"content": "exactly once"}, headers=h)
    second = http.post("/v1/memories", json={"content": "exactly once"}, headers=h)
    assert first.status_code == second.status_code == 201
    assert second.json()["replayed"] is True
    assert second.json()["memory"]["id"] == first.json()["memory"]["id"]
    reused = http.post("/v1/memories", json={"content": "something else"}, headers=h)
    assert reused.status_code == 409 and reused.json()["detail"]["code"] == "idempotency_key_reused"


def test_logical_key_needs_conditional_headers(http, ws):
    h = {"X-Workspace-ID": ws}
    r = http.post("/v1/memories", json={"content": "profile", "logical_key": "user/profile"}, headers=h)
    assert r.status_code == 412
    cond = {**h, "Idempotency-Key": "k1", "If-None-Match": "*"}
    assert (
        http.post(
            "/v1/memories", json={"content": "profile", "logical_key": "user/profile"}, headers=cond
        ).status_code
        == 201
    )
    other = {**h, "Idempotency-Key": "k2", "If-None-Match": "*"}
    taken = http.post(
        "/v1/memories", json={"content": "profile 2", "logical_key": "user/profile"}, headers=other
    )
    assert taken.status_code == 412


def test_list_is_newest_first_and_filters(http, ws):
    a = remember(http, ws, "first note", tags=["a"], type="semantic")
    b = remember(http, ws, "second note", tags=["B"], type="episodic")
    h = {"X-Workspace-ID": ws}
    listed = http.get("/v1/memories", headers=h).json()
    assert [m["id"] for m in listed["memories"]] == [b["id"], a["id"]] and listed["total_count"] == 2
    assert [m["id"] for m in http.get("/v1/memories", params={"tag": "b"}, headers=h).json()["memories"]] == [
        b["id"]
    ]
    assert [
        m["id"] for m in http.get("/v1/memories", params={"type": "semantic"}, headers=h).json()["memories"]
    ] == [a["id"]]
    page = http.get("/v1/memories", params={"limit": 1, "offset": 1}, headers=h).json()
    assert [m["id"] for m in page["memories"]] == [a["id"]]


def test_sequence_key_assigns_indices_in_the_database(http, ws):
    h = {"X-Workspace-ID": ws}
    ids = []
    for text in ("hi", "hello", "hi"):
        r = http.post("/v1/memories", json={"content": text, "sequence_key": "Chat"}, headers=h)
        assert r.status_code == 201, r.text
        ids.append(r.json()["memory"])
    assert [m["sequence_index"] for m in ids] == [0, 1, 2]
    assert [m["metadata"]["message_index"] for m in ids] == [0, 1, 2]
    http.post("/v1/memories", json={"content": "other case", "sequence_key": "chat"}, headers=h)
    stream = http.get("/v1/memories", params={"sequence_key": "Chat"}, headers=h).json()["memories"]
    assert [m["content"] for m in stream] == ["hi", "hello", "hi"]
    assert http.get("/v1/memories/sequence-keys", headers=h).json() == {"keys": ["Chat", "chat"]}
    # Deleting the last frees its index; an explicit index that is taken is a conflict.
    http.delete(f"/v1/memories/{ids[2]['id']}", headers=h)
    nxt = http.post("/v1/memories", json={"content": "again", "sequence_key": "Chat"}, headers=h).json()[
        "memory"
    ]
    assert nxt["sequence_index"] == 2
    taken = http.post(
        "/v1/memories",
        json={"content": "clash", "sequence_key": "Chat", "metadata": {"message_index": 0}},
        headers=h,
    )
    assert taken.status_code == 409


def test_batch_runs_each_operation_and_reports_each(http, ws):
    h = {"X-Workspace-ID": ws}
    existing = remember(http, ws, "to be updated")
    doomed = remember(http, ws, "to be deleted")
    r = http.post(
        "/v1/memories/batch",
        json={
            "operations": [
                {"op": "create", "content": "batch one", "tags": ["b"]},
                {"op": "create", "content": "batch two"},
                {"op": "create", "content": "batch one", "tags": ["b"]},
                {"op": "update", "memory_id": existing["id"], "importance": 0.9},
                {"op": "delete", "memory_id": doomed["id"]},
                {"op": "delete", "memory_id": "mem_doesnotexist00"},
            ]
        },
        headers=h,
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["total_operations"] == 6 and body["successful"] == 5 and body["failed"] == 1
    results = body["results"]
    assert [x["status"] for x in results] == ["success"] * 5 + ["error"]
    assert results[0]["memory_id"] == results[2]["memory_id"]  # deduplicated inside the batch
    assert http.get(f"/v1/memories/{existing['id']}", headers=h).json()["memory"]["importance"] == 0.9
    assert http.get(f"/v1/memories/{doomed['id']}", headers=h).status_code == 404


def test_decay_lowers_importance(http, ws):
    memory = remember(http, ws, "fading fact", importance=0.5)
    r = http.post(
        f"/v1/memories/{memory['id']}/decay", json={"decay_rate": 0.2}, headers={"X-Workspace-ID": ws}
    )
    assert r.status_code == 200 and r.json()["memory"]["importance"] == pytest.approx(0.3)


class TestAssociations:
    def test_create_list_update_delete(self, http, ws):
        h = {"X-Workspace-ID": ws}
        problem = remember(http, ws, "login times out")
        fix = remember(http, ws, "raise the redis pool size")
        r = http.post(
            f"/v1/memories/{fix['id']}/associate",
            json={"target_id": problem["id"], "relationship": "solves", "strength": 0.9},
            headers=h,
        )
        assert r.status_code == 201, r.text
        edge = r.json()["association"]
        assert r.json()["id"] == edge["id"] and edge["id"].startswith("assoc_")
        again = http.post(
            f"/v1/memories/{fix['id']}/associate",
            json={"target_id": problem["id"], "relationship": "solves"},
            headers=h,
        )
        assert again.json()["association"]["id"] == edge["id"]  # idempotent

        out = http.get(
            f"/v1/memories/{fix['id']}/associations", params={"direction": "outgoing"}, headers=h
        ).json()
        assert [a["id"] for a in out["associations"]] == [edge["id"]]
        assert (
            http.get(
                f"/v1/memories/{fix['id']}/associations", params={"direction": "incoming"}, headers=h
            ).json()["associations"]
            == []
        )
        filtered = http.get(
            f"/v1/memories/{problem['id']}/associations", params={"relationships": "SOLVES"}, headers=h
        ).json()
        assert filtered["total_count"] == 1  # the reference uppercased the filter and never matched

        assert (
            http.patch(
                f"/v1/memories/{fix['id']}/associations/{edge['id']}", json={"strength": 0.3}, headers=h
            ).status_code
            == 204
        )
        listed = http.get(f"/v1/memories/{fix['id']}/associations", headers=h).json()["associations"]
        assert listed[0]["strength"] == pytest.approx(0.3)
        assert (
            http.delete(f"/v1/memories/{fix['id']}/associations/{edge['id']}", headers=h).status_code == 204
        )
        assert (
            http.delete(f"/v1/memories/{fix['id']}/associations/{edge['id']}", headers=h).status_code == 404
        )

    @pytest.mark.parametrize("relationship", ["SOLVES", "fixes", "Related_To", ""])
    def test_unknown_relationship_is_400(self, http, ws, relationship):
        a, b = remember(http, ws, "alpha thing"), remember(http, ws, "beta thing")
        r = http.post(
            f"/v1/memories/{a['id']}/associate",
            json={"target_id": b["id"], "relationship": relationship},
            headers={"X-Workspace-ID": ws},
        )
        assert r.status_code == 400 and r.json()["detail"]["code"] == "unknown_relationship"
        assert (
            http.get(f"/v1/memories/{a['id']}/associations", headers={"X-Workspace-ID": ws}).json()[
                "total_count"
            ]
            == 0
        )

    def test_self_link_is_400(self, http, ws):
        a = remember(http, ws, "lonely")
        r = http.post(
            f"/v1/memories/{a['id']}/associate",
            json={"target_id": a["id"], "relationship": "causes"},
            headers={"X-Workspace-ID": ws},
        )
        assert r.status_code == 400

    def test_traverse_follows_paths(self, http, ws):
        h = {"X-Workspace-ID": ws}
        a, b, c = (remember(http, ws, t) for t in ("cause event", "middle event", "final effect"))
        http.post(
            f"/v1/memories/{a['id']}/associate",
            json={"target_id": b["id"], "relationship": "causes"},
            headers=h,
        )
        http.post(
            f"/v1/memories/{b['id']}/associate",
            json={"target_id": c["id"], "relationship": "leads_to", "strength": 0.8},
            headers=h,
        )
        r = http.post(
            f"/v1/memories/{a['id']}/traverse", json={"max_depth": 2, "direction": "outgoing"}, headers=h
        )
        body = r.json()
        assert r.status_code == 200
        assert sorted(p["nodes"] for p in body["paths"]) == [[a["id"], b["id"]], [a["id"], b["id"], c["id"]]]
        assert body["unique_nodes"] == [a["id"], b["id"], c["id"]]  # ids, as the reference gives them
        deep = next(p for p in body["paths"] if p["depth"] == 2)
        assert deep["total_strength"] == pytest.approx(0.5 * 0.8)
        only = http.post(
            f"/v1/memories/{a['id']}/traverse", json={"relationship_types": ["leads_to"]}, headers=h
        )
        assert only.json()["total_paths"] == 0


class TestWorkspaces:
    def test_crud(self, http, ws):
        r = http.post("/v1/workspaces", json={"id": ws, "name": "Project", "tags": ["knowledge"]})
        assert (
            r.status_code == 201
            and r.json()["workspace"]["name"] == "Project"
            and r.json()["name"] == "Project"
        )
        assert http.post("/v1/workspaces", json={"id": ws, "name": "again"}).status_code == 409
        assert http.get(f"/v1/workspaces/{ws}").json()["workspace"]["tags"] == ["knowledge"]
        assert (
            http.put(f"/v1/workspaces/{ws}", json={"name": "Renamed"}).json()["workspace"]["name"]
            == "Renamed"
        )
        tagged = http.get("/v1/workspaces", params={"tags": ["knowledge"]}).json()["workspaces"]
        assert ws in [w["id"] for w in tagged]
        listing = http.get("/v1/workspaces").json()["workspaces"]
        assert {"_default", "_global", "_global_user"} <= {w["id"] for w in listing}
        # Every one dated, the reserved ones too before their first use (the official SDK requires it).
        assert all(datetime.fromisoformat(w["created_at"]) <= datetime.now(UTC) for w in listing)
        assert all(w["updated_at"] for w in listing)
        schema = http.get(f"/v1/workspaces/{ws}/schema").json()
        assert len(schema["relationship_types"]) == 85
        assert http.delete(f"/v1/workspaces/{ws}").status_code == 204
        assert http.get(f"/v1/workspaces/{ws}").status_code == 404

    def test_generated_id_and_contexts(self, http):
        r = http.post("/v1/workspaces", json={"name": "Generated"})
        wid = r.json()["workspace"]["id"]
        assert wid.startswith("ws_")
        ctx = http.post(f"/v1/workspaces/{wid}/contexts", json={"id": "alpha", "name": "Alpha"})
        assert ctx.status_code == 201
        assert [c["id"] for c in http.get(f"/v1/workspaces/{wid}/contexts").json()["contexts"]] == ["alpha"]
        assert http.delete(f"/v1/workspaces/{wid}/contexts/alpha").status_code == 204
        assert http.delete(f"/v1/workspaces/{wid}/contexts/alpha").status_code == 404

    def test_delete_cascades_memories(self, http, ws):
        memory = remember(http, ws, "goes with the workspace")
        assert http.delete(f"/v1/workspaces/{ws}").status_code == 204
        assert http.get(f"/v1/memories/{memory['id']}").status_code == 404

    def test_export_then_import_round_trip(self, http, ws, other_ws):
        h = {"X-Workspace-ID": ws}
        a = remember(http, ws, "exported one", tags=["x"], metadata={"k": 1})
        b = remember(http, ws, "exported two")
        http.post(
            f"/v1/memories/{a['id']}/associate",
            json={"target_id": b["id"], "relationship": "supports"},
            headers=h,
        )
        r = http.get(f"/v1/workspaces/{ws}/export")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
        lines = [line for line in r.text.splitlines() if line]
        parsed = [json.loads(line) for line in lines]
        assert parsed[0]["type"] == "header" and parsed[0]["total_memories"] == 2
        assert [p["type"] for p in parsed[1:]] == ["memory", "memory", "association", "end"]  # format 2
        data = {
            "memories": [p["data"] for p in parsed if p["type"] == "memory"],
            "associations": [p["data"] for p in parsed if p["type"] == "association"],
        }
        imported = http.post(f"/v1/workspaces/{other_ws}/import", json={"data": data}).json()
        assert (
            imported["imported"] == 2 and imported["errors"] == 0 and imported["associations_imported"] == 1
        )
        again = http.post(f"/v1/workspaces/{other_ws}/import", json={"data": data}).json()
        assert again["imported"] == 0 and again["skipped_duplicates"] == 2
        copied = http.get("/v1/memories", headers={"X-Workspace-ID": other_ws}).json()["memories"]
        assert sorted(m["content"] for m in copied) == ["exported one", "exported two"]
        ndjson = http.post(
            f"/v1/workspaces/{ws}_copy/import",
            content=r.content,
            headers={"Content-Type": "application/x-ndjson"},
        ).json()
        assert ndjson["imported"] == 2

    def test_import_restores_history_only_among_its_own_memories(self, http, ws, other_ws):
        """A bad timestamp fails its item alone, and a reference outside the import (here another workspace's
        memory) is dropped, never followed."""
        elsewhere = remember(http, other_ws, "someone else's fact")
        data = {
            "memories": [
                {"id": "a", "content": "broken history", "valid_to": "not a date"},
                {"id": "b", "content": "old value", "superseded_by": "c", "valid_to": "2026-01-02T00:00:00Z"},
                {"id": "c", "content": "new value", "created_at": "2025-12-31T08:00:00Z"},
                {"id": "d", "content": "points outside", "superseded_by": elsewhere["id"], "stale_by": "zzz"},
            ]
        }
        out = http.post(f"/v1/workspaces/{ws}/import", json={"data": data}).json()
        assert out["imported"] == 3 and out["errors"] == 1 and out["details"][0]["index"] == 0
        lines = [json.loads(line) for line in http.get(f"/v1/workspaces/{ws}/export").text.splitlines()]
        rows = {m["data"]["content"]: m["data"] for m in lines if m["type"] == "memory"}
        assert "broken history" not in rows
        assert rows["old value"]["superseded_by"] == rows["new value"]["id"]
        assert rows["old value"]["valid_to"] == "2026-01-02T00:00:00Z"
        assert rows["new value"]["created_at"] == "2025-12-31T08:00:00Z"
        assert rows["points outside"]["superseded_by"] is None and "stale_by" not in rows["points outside"]
        # Only the live value is recalled by default.
        found = http.post(
            "/v1/memories/recall", json={"query": "value"}, headers={"X-Workspace-ID": ws}
        ).json()["memories"]
        assert [m["content"] for m in found if m["content"].endswith("value")] == ["new value"]

    def test_export_of_missing_workspace_is_404(self, http):
        assert http.get("/v1/workspaces/ws_never_made/export").status_code == 404


def test_health_and_openapi(http):
    assert http.get("/health").json() == {"status": "healthy"}
    ready = http.get("/health/ready").json()
    assert ready["status"] == "ready" and ready["services"]["database"] == "connected"
    assert http.get("/").json()["name"] == "MemoryLayer.ai"
    spec = http.get("/openapi.json").json()
    assert "/v1/memories/recall" in spec["paths"]
