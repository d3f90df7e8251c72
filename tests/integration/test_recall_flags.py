"""Recall skips the neighbour-turn join and the association walk in workspaces that hold no stream and no
association: flags on the workspace row (migration 0018) that the write itself sets, in its own transaction.
The first stream or association is used by the very next recall, never after a cache expires."""

from __future__ import annotations

import psycopg
import pytest


def _flags(database_url: str, ws: str) -> tuple[bool, bool]:
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT has_streams, has_associations FROM workspaces WHERE id = %s", (ws,)
        ).fetchone()
    assert row is not None
    return row[0], row[1]


def _recall(http, ws: str, query: str) -> list[dict]:
    r = http.post("/v1/memories/recall", json={"query": query, "limit": 10}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200, r.text
    return r.json()["memories"]


def test_a_first_stream_turn_is_used_by_the_next_recall(http, ws, database_url):
    h = {"X-Workspace-ID": ws}
    assert http.post("/v1/memories", json={"content": "lighthouse keeper logs"}, headers=h).status_code == 201
    assert _flags(database_url, ws) == (False, False)
    for text in ("what do you do at the lighthouse?", "I polish the big brass lens every evening"):
        r = http.post("/v1/memories", json={"content": text, "sequence_key": "chat"}, headers=h)
        assert r.status_code == 201
    assert _flags(database_url, ws) == (True, False)
    found = _recall(http, ws, "lighthouse")
    reply = next(m for m in found if m["content"].startswith("I polish"))
    assert "context" in reply["match_signals"]  # lent by the question before it


def test_batch_writes_and_updates_set_the_stream_flag(http, ws, other_ws, database_url):
    ops = [{"op": "create", "content": f"turn {i}", "sequence_key": "s"} for i in range(3)]
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200 and r.json()["failed"] == 0
    assert _flags(database_url, ws)[0] is True
    # A stream made by an UPDATE (as bench.locomo.latency groups rows into sessions) sets it too.
    r = http.post("/v1/memories", json={"content": "plain"}, headers={"X-Workspace-ID": other_ws})
    assert r.status_code == 201
    assert _flags(database_url, other_ws)[0] is False
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "UPDATE memories SET sequence_key = 'late', sequence_index = 0 WHERE workspace_id = %s",
            (other_ws,),
        )
    assert _flags(database_url, other_ws)[0] is True


@pytest.mark.parametrize("walk", [True, False])
def test_a_first_association_is_walked_by_the_next_recall(http, ws, database_url, walk):
    h = {"X-Workspace-ID": ws}
    seed = http.post("/v1/memories", json={"content": "the ferry timetable changed"}, headers=h).json()
    other = http.post("/v1/memories", json={"content": "harbour parking permit"}, headers=h).json()
    seed_id, other_id = seed["memory"]["id"], other["memory"]["id"]
    assert _flags(database_url, ws) == (False, False)
    assert all("association" not in m["match_signals"] for m in _recall(http, ws, "ferry timetable"))
    if walk:
        r = http.post(
            f"/v1/memories/{seed_id}/associate",
            json={"target_id": other_id, "relationship": "related_to", "strength": 0.9},
            headers=h,
        )
        assert r.status_code in (200, 201), r.text
        assert _flags(database_url, ws) == (False, True)
    found = {m["id"]: m["match_signals"] for m in _recall(http, ws, "ferry timetable")}
    assert (found.get(other_id) == ["association"]) is walk
