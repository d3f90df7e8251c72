"""A conversation turn's previous turn as text-search context (migration 0023, recall.sql ``listed``): an answer
that does not repeat the question's words is found through the question before it.

The context is kept by triggers on memories in the writing transaction, whatever writes: remember, batch and
import through the HTTP API (as the app role, behind the workspace wall), an edit, a delete or a restore of the
previous turn. It lives in ``memory_contexts``, never in the memory row: revisions, exports and the wire do not
change when a turn's context does.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import httpx
import psycopg
import pytest


def _turn(http: httpx.Client, ws: str, content: str, key: str | None = "chat") -> dict[str, Any]:
    body: dict[str, Any] = {"content": content}
    if key is not None:
        body["sequence_key"] = key
    r = http.post("/v1/memories", json=body, headers={"X-Workspace-ID": ws})
    assert r.status_code == 201, r.text
    return r.json()["memory"]


def _context(database_url: str, memory_id: str) -> set[str] | None:
    """The lexemes of a memory's context (None: it has none)."""
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT array(SELECT lexeme FROM unnest(tsv)) FROM memory_contexts WHERE memory_id = %s",
            (memory_id,),
        ).fetchone()
    return None if row is None else set(row[0])


def _stream(http: httpx.Client, ws: str, key: str = "chat") -> list[dict[str, Any]]:
    r = http.get("/v1/memories", params={"limit": 100}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200, r.text
    turns = [m for m in r.json()["memories"] if m.get("sequence_key") == key]
    return sorted(turns, key=lambda m: m["sequence_index"])


def test_remember_gives_each_turn_its_previous_turn_and_the_first_none(http, ws, database_url):
    # Given three turns remembered one at a time, and a memory outside any stream
    first = _turn(http, ws, "Gina: the lighthouse keeper retired")
    second = _turn(http, ws, "Jon: who polishes the lens now?")
    third = _turn(http, ws, "Gina: a volunteer from the harbour")
    loose = _turn(http, ws, "a note about ferries", key=None)
    # Then each turn's context is the turn before it; the session's first turn and the loose note have none
    assert _context(database_url, first["id"]) is None
    assert _context(database_url, second["id"]) == {"gina", "lighthous", "keeper", "retir"}
    assert _context(database_url, third["id"]) == {"jon", "polish", "len"}
    assert _context(database_url, loose["id"]) is None


def test_batch_turns_get_their_previous_turns_in_one_statement(http, ws, database_url):
    ops = [
        {"op": "create", "content": text, "sequence_key": "chat"}
        for text in ("alpha one", "beta two", "gamma")
    ]
    ops.append({"op": "create", "content": "delta elsewhere", "sequence_key": "other"})
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200 and r.json()["failed"] == 0, r.text
    turns = _stream(http, ws)
    assert [_context(database_url, t["id"]) for t in turns] == [None, {"alpha", "one"}, {"beta", "two"}]
    # Another stream of the same workspace is not a context: its first turn has none
    (other,) = _stream(http, ws, "other")
    assert _context(database_url, other["id"]) is None


def test_an_imported_stream_builds_its_contexts_in_the_new_workspace(http, ws, other_ws, database_url):
    for text in ("we adopted a puppy", "what breed is it?", "a small terrier"):
        _turn(http, ws, text)
    export = http.get(f"/v1/workspaces/{ws}/export")
    assert export.status_code == 200
    lines = [json.loads(line) for line in export.text.splitlines() if line]
    # The export carries no context (derived data, not part of a memory)
    assert not any("tsv" in key for p in lines if p["type"] == "memory" for key in p["data"])
    r = http.post(
        f"/v1/workspaces/{other_ws}/import",
        content=export.content,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 200 and r.json()["imported"] == 3, r.text
    copied = _stream(http, other_ws)
    assert [m["content"] for m in copied] == ["we adopted a puppy", "what breed is it?", "a small terrier"]
    assert [_context(database_url, m["id"]) for m in copied] == [None, {"adopt", "puppi"}, {"breed"}]


def test_an_edit_of_the_previous_turn_refreshes_the_next_without_touching_its_history(http, ws, database_url):
    h = {"X-Workspace-ID": ws}
    question = _turn(http, ws, "what is the wifi password?")
    answer = _turn(http, ws, "it is on the fridge")
    before = http.get(f"/v1/memories/{answer['id']}", headers=h).json()["memory"]
    export_before = _exported(http, ws, answer["id"])
    assert _context(database_url, answer["id"]) == {"wifi", "password"}
    # When the question is edited (a redaction, say)
    r = http.put(
        f"/v1/memories/{question['id']}", json={"content": "what is the guest network called?"}, headers=h
    )
    assert r.status_code == 200, r.text
    # Then the answer's context holds the new words and none of the old ones
    assert _context(database_url, answer["id"]) == {"guest", "network", "call"}
    # And the answer itself is untouched: same revision, no revision recorded, same wire form and export
    after = http.get(f"/v1/memories/{answer['id']}", headers=h).json()["memory"]
    assert after == before and after["revision"] == 1
    revisions = http.get(f"/v1/memories/{answer['id']}/revisions", headers=h).json()
    assert [r["revision"] for r in revisions["revisions"]] == [1]
    assert _exported(http, ws, answer["id"]) == export_before
    # The edited turn's own history has no context in its snapshots either
    edited = http.get(f"/v1/memories/{question['id']}/revisions", headers=h).json()["revisions"]
    assert len(edited) == 2 and not any("tsv" in key for r in edited for key in r["memory"])
    with psycopg.connect(database_url) as conn:
        snapshots = conn.execute(
            "SELECT snapshot FROM memory_revisions WHERE memory_id = ANY(%s)",
            ([question["id"], answer["id"]],),
        ).fetchall()
    assert snapshots and all(set(s[0]).isdisjoint({"context_tsv", "tsv", "embedding"}) for s in snapshots)


def _exported(http: httpx.Client, ws: str, memory_id: str) -> dict[str, Any]:
    export = http.get(f"/v1/workspaces/{ws}/export")
    lines = [json.loads(line) for line in export.text.splitlines() if line]
    return next(p["data"] for p in lines if p["type"] == "memory" and p["data"]["id"] == memory_id)


@pytest.mark.parametrize("hard", [False, True])
def test_a_deleted_turn_leaves_no_words_in_the_next(http, ws, database_url, hard):
    h = {"X-Workspace-ID": ws}
    first = _turn(http, ws, "we met in Lisbon")
    secret = _turn(http, ws, "my passport number is hidden")
    reply = _turn(http, ws, "noted")
    assert _context(database_url, reply["id"]) == {"passport", "number", "hidden"}
    r = http.delete(f"/v1/memories/{secret['id']}", params={"hard": str(hard).lower()}, headers=h)
    assert r.status_code == 204
    # The reply now follows the turn before the deleted one; the deleted turn keeps no context row
    assert _context(database_url, reply["id"]) == {"met", "lisbon"}
    assert _context(database_url, secret["id"]) is None
    assert _context(database_url, first["id"]) is None
    # Deleting the first turn too: the reply is now the first live turn, without a context
    assert http.delete(f"/v1/memories/{first['id']}", headers=h).status_code == 204
    assert _context(database_url, reply["id"]) is None


def test_another_workspace_or_stream_never_lends_its_words(http, ws, other_ws, database_url):
    # Given the same stream name in two workspaces, and a second stream in the first
    _turn(http, ws, "the vault code is 4471")
    _turn(http, ws, "zebra crossing", key="chat2")
    theirs = _turn(http, other_ws, "hello there")
    mine_next = _turn(http, ws, "thanks")
    mine_other = _turn(http, ws, "elephant", key="chat2")
    # Then each turn's context is only its own stream's previous turn in its own workspace
    assert _context(database_url, theirs["id"]) is None
    assert _context(database_url, mine_next["id"]) == {"vault", "code", "4471"}
    assert _context(database_url, mine_other["id"]) == {"zebra", "cross"}
    # And other_ws's recall never finds anything through ws's words
    r = http.post("/v1/memories/recall", json={"query": "vault code"}, headers={"X-Workspace-ID": other_ws})
    assert r.status_code == 200, r.text
    assert all(m["workspace_id"] == other_ws for m in r.json()["memories"])
    assert not any("keyword" in m["match_signals"] for m in r.json()["memories"])


def _answer(
    http: httpx.Client, ws: str, query: str, answer_id: str
) -> tuple[int | None, dict[str, Any] | None]:
    r = http.post("/v1/memories/recall", json={"query": query, "limit": 20}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200, r.text
    found = r.json()["memories"]
    for rank, m in enumerate(found):
        if m["id"] == answer_id:
            return rank, m
    return None, None


def test_an_answer_is_found_by_the_question_before_it(http, ws, services, monkeypatch):
    h = {"X-Workspace-ID": ws}
    # Given a chat where the answer repeats none of the question's words, among notes that share some of them
    _turn(http, ws, "Gina: how was the pottery workshop in Lisbon?")
    answer = _turn(http, ws, "Jon: wonderful, I made three bowls and a vase")
    _turn(http, ws, "Gina: lovely")
    notes = ("pottery workshop notes from the weekend", "Lisbon trams", "pottery glaze", "a bowl of soup")
    for text in notes:
        assert http.post("/v1/memories", json={"content": text}, headers=h).status_code == 201
    # When asked in the question's words
    rank, found = _answer(http, ws, "pottery workshop Lisbon", answer["id"])
    # Then the answer is a text match of its own, through its previous turn, right after the question and
    # above a note that holds two of the three words
    assert found is not None and "keyword" in found["match_signals"], found
    assert rank == 1
    # And with the context weighed 0 it is not: only the question's loan reaches it, below that note
    monkeypatch.setattr(
        services.recaller, "tuning", replace(services.recaller.tuning, context_text_weight=0.0)
    )
    rank0, found0 = _answer(http, ws, "pottery workshop Lisbon", answer["id"])
    assert found0 is not None and found0["match_signals"] == ["context"]
    assert rank0 == 2 and found0["relevance_score"] < found["relevance_score"]


def test_an_edit_racing_an_append_leaves_the_new_turn_the_edited_words(http, ws, database_url):
    """An append holds its workspace's context-event lock (migration 0008) to COMMIT, and an edit takes the same
    lock before its context refresh runs (the triggers fire in name order); the refresh then sees the appended
    turn. Were they not serialised, neither would see the other and the new turn would keep the old words."""
    h = {"X-Workspace-ID": ws}
    question = _turn(http, ws, "where is the spare key?")
    with psycopg.connect(database_url) as conn:
        columns = [
            r[0]
            for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'memories' "
                "AND is_generated = 'NEVER' ORDER BY ordinal_position"
            )
        ]
    fresh = {"id": "%(id)s", "content": "%(content)s", "sequence_index": "sequence_index + 1",
             "dedup_key": "md5(%(id)s)", "content_hash": "md5(%(id)s)"}  # fmt: skip
    select = ", ".join(fresh.get(c, c) for c in columns)
    append = psycopg.connect(database_url)
    try:
        # Given an append in flight (its stream's lock taken, its row inserted, not committed)
        append.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{ws}\x1fchat",))
        append.execute(
            f"INSERT INTO memories ({', '.join(columns)}) SELECT {select} FROM memories WHERE id = %(src)s",
            {"id": "mem_racing_answer", "content": "under the blue pot", "src": question["id"]},
        )
        # When the previous turn is edited meanwhile (its request waits on the append's lock)
        with (
            httpx.Client(base_url=str(http.base_url), timeout=30) as other,
            ThreadPoolExecutor(1) as pool,
        ):
            edit = pool.submit(
                other.put,
                f"/v1/memories/{question['id']}",
                json={"content": "where is the garage remote?"},
                headers=h,
            )
            time.sleep(1.0)
            assert not edit.done()  # waiting for the append's workspace lock
            append.commit()
            assert edit.result().status_code == 200
    finally:
        append.close()
    # Then the appended turn's context holds the edited words
    assert _context(database_url, "mem_racing_answer") == {"garag", "remot"}


def test_a_stream_made_by_one_bulk_update_gets_its_contexts(http, ws, database_url):
    """As bench.locomo.latency groups batch-written rows into sessions: one UPDATE over many rows, row-level
    refreshes, each seeing the statement's final state."""
    ops = [{"op": "create", "content": f"word{i} plain"} for i in range(6)]
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200 and r.json()["failed"] == 0
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "WITH o AS (SELECT id, (regexp_match(content, 'word(\\d)'))[1]::int AS n FROM memories "
            "WHERE workspace_id = %s) UPDATE memories m SET sequence_key = 's' || (o.n / 3), "
            "sequence_index = o.n %% 3 FROM o WHERE m.id = o.id",
            (ws,),
        )
        rows = conn.execute(
            "SELECT m.content, array(SELECT lexeme FROM unnest(c.tsv) ORDER BY 1) FROM memories m "
            "LEFT JOIN memory_contexts c ON c.memory_id = m.id WHERE m.workspace_id = %s ORDER BY m.content",
            (ws,),
        ).fetchall()
    assert [(content, lexemes) for content, lexemes in rows] == [
        ("word0 plain", []),
        ("word1 plain", ["plain", "word0"]),
        ("word2 plain", ["plain", "word1"]),
        ("word3 plain", []),
        ("word4 plain", ["plain", "word3"]),
        ("word5 plain", ["plain", "word4"]),
    ]
