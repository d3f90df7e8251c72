"""Export format 2 over real HTTP and Postgres: a workspace exported and imported into a fresh one exports the
same again (entities, aliases, relations and their evidence, memory ids, revisions, stale marks, facts,
threads, sessions, resources), and a relation question is answered in the copy as in the original."""

from __future__ import annotations

import uuid

import httpx
import psycopg

from shared.domain.roundtrip import remapped_id
from tests.helpers.documents import upload, wait_document
from tests.helpers.http import h, recall, remember
from tests.helpers.roundtrip import canonical, counts, export, import_, remap_table


def seed(http: httpx.Client, ws: str) -> dict:
    """4 entities (PR-12, Bob Stone, Ann Lee, INC-4) with typed relations, a revised memory, an association,
    a thread with messages, a session with working memory."""
    for text in ("The checkout service times out under load", "Checkout dashboards were updated"):
        remember(http, ws, text)
    pr = remember(
        http,
        ws,
        "Fix the flaky login redirect",
        metadata={"knowledge_work": {"subject": {"name": "PR-12", "type": "work_item"}, "reviewers": ["Bob Stone"],
                                     "author": "Ann Lee"}},
    )  # fmt: skip
    remember(
        http,
        ws,
        "Login outage after the redirect change",
        metadata={"knowledge_work": {"subject": {"name": "INC-4", "type": "incident"}, "owner": "Ann Lee"}},
    )
    bob = http.get("/v1/entities/resolve", params={"name": "Bob Stone"}, headers=h(ws)).json()["resolution"][
        "entity"
    ]
    r = http.post(f"/v1/entities/{bob['id']}/aliases", json={"aliases": ["Bobby"]}, headers=h(ws))
    assert r.status_code == 200, r.text
    edited = remember(http, ws, "Bob prefers tea", user_id="u_bob")
    r = http.put(f"/v1/memories/{edited['id']}", json={"content": "Bob prefers green tea"}, headers=h(ws))
    assert r.status_code == 200, r.text
    r = http.post(
        f"/v1/memories/{pr['id']}/associate",
        json={"target_id": edited["id"], "relationship": "related_to", "strength": 0.7},
        headers=h(ws),
    )
    assert r.status_code == 201, r.text
    r = http.post("/v1/threads", json={"id": "th_1", "user_id": "u_bob"}, headers=h(ws))
    assert r.status_code == 201, r.text
    r = http.post(
        "/v1/threads/th_1/messages",
        json={"messages": [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "hi"}]},
        headers=h(ws),
    )
    assert r.status_code == 201, r.text
    r = http.post("/v1/sessions", json={"user_id": "u_bob"}, headers=h(ws))
    assert r.status_code == 201, r.text
    sid = r.json()["session"]["id"]
    r = http.post(f"/v1/sessions/{sid}/memory", json={"key": "goal", "value": {"x": 1}}, headers=h(ws))
    assert r.status_code in (200, 201), r.text
    note = {"key": "style/tone", "title": "Tone", "content": "Be brief."}
    r = http.post(
        "/v1/prompt-notes",
        json=note,
        headers=h(ws, **{"Idempotency-Key": uuid.uuid4().hex, "If-None-Match": "*"}),
    )
    assert r.status_code == 201, r.text
    return pr


def test_round_trip_keeps_every_row_and_answers_the_relation_question(http, ws, database_url):
    pr = seed(http, ws)
    before = export(http, ws)
    assert before[0]["version"] == "2.0" and before[-1]["type"] == "end"
    kinds = counts(before)
    assert {"entity", "alias", "relation", "evidence", "revision", "association", "thread", "message",
            "session", "working_memory", "memory", "resource"} <= set(kinds), kinds  # fmt: skip
    assert kinds["entity"] == 4

    # The source still holds its ids: the copy gets derived ones, and says so.
    copy = f"ws_copy_{uuid.uuid4().hex[:10]}"
    r = import_(http, copy, before)
    assert r.status_code == 200, r.text
    assert r.json()["ids"] == "remapped" and r.json()["errors"] == 0
    after = export(http, copy)
    assert counts(after) == kinds
    assert canonical(after, copy, ids=remap_table(before, copy)) == canonical(before, ws)

    result = recall(http, copy, "Who reviewed PR-12?")
    top = result["memories"][0]
    assert "relational" in top["match_signals"]
    assert top["id"] == remapped_id(copy, pr["id"])

    # A workspace's own export imported into itself: every row is already there.
    r = import_(http, ws, before)
    assert r.status_code == 200, r.text
    assert r.json()["imported_by_kind"] == {} and r.json()["ids"] == "remapped"
    assert canonical(export(http, ws), ws) == canonical(before, ws)

    # With the source gone its ids are free: a restore keeps them, row for row.
    r = http.delete(f"/v1/workspaces/{ws}")
    assert r.status_code == 204, r.text
    restored = f"ws_restore_{uuid.uuid4().hex[:10]}"
    r = import_(http, restored, before)
    assert r.status_code == 200, r.text
    assert r.json()["ids"] == "kept"
    assert canonical(export(http, restored), restored) == canonical(before, ws)
    assert recall(http, restored, "Who reviewed PR-12?")["memories"][0]["id"] == pr["id"]

    # The same file again into the copy: everything is already there, nothing is written twice.
    r = import_(http, copy, before)
    assert r.status_code == 200, r.text
    assert r.json()["imported_by_kind"] == {}
    assert counts(export(http, copy)) == kinds
    with psycopg.connect(database_url) as conn:
        stale = conn.execute("SELECT count(*) FROM memories WHERE workspace_id = %s", (copy,)).fetchone()
    assert stale[0] == kinds["memory"]


def test_more_rows_than_a_page_round_trip(http, ws):
    """Past one export page (500 rows) and many embedding batches: keyset paging and batching lose nothing."""
    for start in range(0, 620, 100):
        ops = [
            {"op": "create", "content": f"paged note {i} of the ledger"}
            for i in range(start, min(start + 100, 620))
        ]
        r = http.post("/v1/memories/batch", json={"operations": ops}, headers=h(ws))
        assert r.status_code == 200 and r.json()["successful"] == len(ops), r.text
    before = export(http, ws)
    assert counts(before)["memory"] == 620
    copy = f"ws_copy_{uuid.uuid4().hex[:10]}"
    r = import_(http, copy, before)
    assert r.status_code == 200 and r.json()["imported"] == 620, r.text
    assert canonical(export(http, copy), copy, ids=remap_table(before, copy)) == canonical(before, ws)


def test_extracted_facts_keep_their_history_and_provenance_and_erase_follows_them(api):
    """Facts extracted from a thread (a move supersedes the old address) round-trip with their provenance and
    history; erasing the thread's user removes them from the copy too, derived facts included."""
    from tests.helpers.threads import append, new_thread, wait_job

    user = f"u_{uuid.uuid4().hex[:8]}"
    thread = new_thread(api, user_id=user)
    wait_job(api, append(api, thread, ("user", "My name is Dana and I live in Paris"))["job_id"])
    wait_job(api, append(api, thread, ("user", "Big news: I moved to Berlin last month"))["job_id"])
    ws = api.headers["X-Workspace-ID"]
    before = export(api, ws)
    memories = [line["data"] | line["row"] for line in before if line["type"] == "memory"]
    paris = next(m for m in memories if m["content"] == "User lives in Paris")
    assert paris["valid_to"] and paris["superseded_by"] and paris["source_thread_id"] == thread

    copy = f"ws_copy_{uuid.uuid4().hex[:10]}"
    r = import_(api, copy, before)
    assert r.status_code == 200, r.text
    assert canonical(export(api, copy), copy, ids=remap_table(before, copy)) == canonical(before, ws)

    erased = api.post(f"/v1/users/{user}/erase").json()
    assert erased["counts"]["memories"] >= 2 * 2 and erased["counts"]["threads"] == 2, (
        erased
    )  # source and copy
    for workspace in (ws, copy):
        left = counts(export(api, workspace))
        assert "memory" not in left and "thread" not in left and "message" not in left, left


def test_a_forgotten_memory_leaves_forgotten(http, ws):
    """A soft-deleted memory is exported with its deletion (it can still be restored) and stays out of the copy's
    recall and listings."""
    kept = remember(http, ws, "The kettle is in the second cupboard")
    gone = remember(http, ws, "The old kettle was thrown away")
    assert http.delete(f"/v1/memories/{gone['id']}", headers=h(ws)).status_code in (200, 204)
    before = export(http, ws)
    [line] = [line for line in before if line["type"] == "memory" and line["data"]["id"] == gone["id"]]
    assert (line["data"] | line["row"])["deleted_at"]
    http.delete(f"/v1/workspaces/{ws}")
    restored = f"ws_restore_{uuid.uuid4().hex[:10]}"
    assert import_(http, restored, before).json()["ids"] == "kept"
    assert http.get(f"/v1/memories/{gone['id']}", headers=h(restored)).status_code == 404
    assert http.get(f"/v1/memories/{kept['id']}", headers=h(restored)).status_code == 200
    listed = http.get("/v1/memories", headers=h(restored)).json()["memories"]
    assert [m["id"] for m in listed] == [kept["id"]]


def test_documents_and_contradictions_round_trip(http, ws):
    """A document's metadata and pages, the memories derived from it, and a resolved and an open contradiction
    arrive in the copy naming the copy's memories."""
    r = upload(http, ws, "notes.md", b"# Notes\n\nThe tomatoes need water every morning.\n", "text/markdown")
    assert r.status_code == 202, r.text
    doc = wait_document(http, ws, r.json()["document"]["id"])
    assert doc["status"] == "completed" and doc["memory_ids"], doc
    for text in (
        "Dana lives in Paris",
        "Dana does not live in Paris",
        "Ravi works at Acme",
        "Ravi works at Initech",
    ):
        remember(http, ws, text, user_id="u_dana")
    r = http.post(f"/v1/workspaces/{ws}/contradictions/scan", json={}, headers=h(ws))
    assert r.status_code == 200, r.text
    found = http.get(f"/v1/workspaces/{ws}/contradictions", headers=h(ws)).json()["contradictions"]
    assert len(found) >= 2, found
    r = http.post(
        f"/v1/contradictions/{found[0]['id']}/resolve", json={"resolution": "keep_both"}, headers=h(ws)
    )
    assert r.status_code == 200, r.text

    before = export(http, ws)
    kinds = counts(before)
    assert kinds["document"] == 1 and kinds["document_page"] == 1 and kinds["contradiction"] == len(found)
    copy = f"ws_copy_{uuid.uuid4().hex[:10]}"
    r = import_(http, copy, before)
    assert r.status_code == 200, r.text
    assert r.json()["ids"] == "remapped" and r.json()["errors"] == 0
    after = export(http, copy)
    assert counts(after) == kinds
    assert canonical(after, copy, ids=remap_table(before, copy)) == canonical(before, ws)
    copied = http.get(f"/v1/documents/{remapped_id(copy, doc['id'])}", headers=h(copy)).json()
    assert copied["memory_ids"] == [remapped_id(copy, m) for m in doc["memory_ids"]]
    still_open = http.get(f"/v1/workspaces/{copy}/contradictions", headers=h(copy)).json()["contradictions"]
    assert len(still_open) == len(found) - 1
