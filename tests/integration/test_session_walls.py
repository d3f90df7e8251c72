"""Sessions and threads behind the tenant walls, with API keys on.

Lookup: ``X-Session-ID`` is resolved only inside the caller's workspaces and only after the key is known; a
foreign session id answers exactly as an unknown one (nothing slides, no workspace is named).
Ids: session and thread ids are unique per workspace, not across all tenants: another workspace's id can be
created again, its expiry does not hand the id over, and nothing answers "already exists" for it.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta

import httpx
import psycopg
import pytest

from tests.secured import admin_client


@pytest.fixture()
def admin(secured) -> Iterator[httpx.Client]:
    with admin_client(secured) as c:
        yield c


def key_client(url: str, admin: httpx.Client, *workspaces: str, access: str = "read_write") -> httpx.Client:
    r = admin.post("/v1/admin/api-keys", json={"workspaces": list(workspaces), "access": access})
    assert r.status_code == 201, r.text
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {r.json()['key']}"})


@pytest.fixture()
def tenants(secured, admin, ws, other_ws) -> Iterator[dict[str, httpx.Client]]:
    """A's read-write and read-only keys for ``ws``; B's key for ``other_ws``."""
    with (
        key_client(secured, admin, ws) as a,
        key_client(secured, admin, ws, access="read") as a_reader,
        key_client(secured, admin, other_ws) as b,
    ):
        yield {"a": a, "a_reader": a_reader, "b": b}


def create_session(client: httpx.Client, workspace: str, **body) -> dict:
    r = client.post("/v1/sessions", json=body, headers={"X-Workspace-ID": workspace})
    assert r.status_code == 201, r.text
    return r.json()["session"]


def expires_at(client: httpx.Client, workspace: str, session_id: str) -> str:
    r = client.get(f"/v1/sessions/{session_id}", headers={"X-Workspace-ID": workspace})
    assert r.status_code == 200, r.text
    return r.json()["session"]["expires_at"]


def masked(response: httpx.Response, session_id: str) -> tuple[int, str]:
    """Status and body with the id the caller sent blanked out, to compare two answers byte for byte."""
    return response.status_code, response.text.replace(session_id, "<id>")


# ---------------------------------------------------------------- item 3: X-Session-ID
def test_foreign_x_session_id_with_own_workspace_header_does_not_slide_the_session(tenants, ws, other_ws):
    b_session = create_session(tenants["b"], other_ws, ttl_seconds=60)
    before = expires_at(tenants["b"], other_ws, b_session["id"])

    r = tenants["a_reader"].get(
        "/v1/memories", headers={"X-Workspace-ID": ws, "X-Session-ID": b_session["id"]}
    )
    assert r.status_code == 200, r.text
    # A's read-only key for ws_a must not keep B's session alive (slide it by an hour).
    assert expires_at(tenants["b"], other_ws, b_session["id"]) == before


def test_foreign_x_session_id_answers_like_an_unknown_one(tenants, ws, other_ws):
    b_session = create_session(tenants["b"], other_ws, ttl_seconds=60)
    before = expires_at(tenants["b"], other_ws, b_session["id"])
    foreign, unknown = b_session["id"], f"sess_{uuid.uuid4().hex}"
    reader = tenants["a_reader"]

    # No workspace named: the header must not resolve to B's workspace (a 403 would name it).
    for path in ("/v1/memories", "/v1/sessions"):
        answers = [reader.get(path, headers={"X-Session-ID": sid}) for sid in (foreign, unknown)]
        assert answers[0].status_code == 200, answers[0].text
        assert masked(answers[0], foreign) == masked(answers[1], unknown)
        assert other_ws not in answers[0].text

    # The session routes: the same 404, with or without the header, with or without a workspace named.
    for headers in ({}, {"X-Workspace-ID": ws}):
        for extra in (lambda sid: {}, lambda sid: {"X-Session-ID": sid}):
            answers = [
                reader.get(f"/v1/sessions/{sid}", headers={**headers, **extra(sid)})
                for sid in (foreign, unknown)
            ]
            assert answers[0].status_code == 404, answers[0].text
            assert answers[0].json()["detail"]["code"] == "session_not_found"
            assert masked(answers[0], foreign) == masked(answers[1], unknown)
            assert other_ws not in answers[0].text

    assert expires_at(tenants["b"], other_ws, b_session["id"]) == before


def test_own_x_session_id_resolves_for_a_read_only_key_without_sliding(tenants, ws, settings, clock):
    sid = create_session(tenants["a"], ws, ttl_seconds=60)["id"]
    before = expires_at(tenants["a"], ws, sid)
    clock.advance(30)
    r = tenants["a_reader"].get("/v1/memories", headers={"X-Session-ID": sid})
    assert r.status_code == 200, r.text
    assert expires_at(tenants["a"], ws, sid) == before  # keeping a session alive is a write
    tenants["a"].get("/v1/memories", headers={"X-Session-ID": sid})
    expected = clock.now + timedelta(seconds=settings.session_touch_ttl_s)
    assert datetime.fromisoformat(expires_at(tenants["a"], ws, sid).replace("Z", "+00:00")) == expected


# ---------------------------------------------------------------- item 4: ids per workspace
def test_another_workspaces_session_id_can_be_created_again(tenants, ws, other_ws):
    sid = f"sess_b_1-{uuid.uuid4().hex[:8]}"
    create_session(tenants["b"], other_ws, session_id=sid, working_memory={"owner": "B"})
    # A's key must not get 409 "session ... already exists" for B's id.
    mine = create_session(tenants["a"], ws, session_id=sid, working_memory={"owner": "A"})
    assert mine["workspace_id"] == ws

    # Two sessions, one id: each workspace sees and changes only its own.
    a_memory = tenants["a"].get(f"/v1/sessions/{sid}/memory", headers={"X-Workspace-ID": ws})
    b_memory = tenants["b"].get(f"/v1/sessions/{sid}/memory", headers={"X-Workspace-ID": other_ws})
    assert a_memory.json() == {"owner": "A"} and b_memory.json() == {"owner": "B"}
    r = tenants["a"].post(f"/v1/sessions/{sid}/memory", json={"key": "step", "value": 2})
    assert r.status_code == 201, r.text
    assert tenants["b"].get(f"/v1/sessions/{sid}/memory").json() == {"owner": "B"}
    checkpoint = {
        "transcript_segment": "A's line",
        "content_hash": hashlib.sha256(b"A's line").hexdigest(),
        "source_kind": "test",
        "idempotency_key": "same-key",
    }
    assert tenants["a"].post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint).status_code == 201
    assert tenants["b"].post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint).status_code == 201
    assert tenants["a"].delete(f"/v1/sessions/{sid}").status_code == 204
    assert tenants["b"].get(f"/v1/sessions/{sid}/memory").json() == {"owner": "B"}
    assert tenants["a"].get(f"/v1/sessions/{sid}").status_code == 404


def test_an_expired_session_id_is_not_handed_to_another_workspace(tenants, ws, other_ws, clock):
    sid = f"sess_b_1-{uuid.uuid4().hex[:8]}"
    create_session(tenants["b"], other_ws, session_id=sid, ttl_seconds=60)
    clock.advance(120)
    create_session(tenants["a"], ws, session_id=sid)
    # B must not be locked out of its own id (409 "already exists", for A's session).
    again = tenants["b"].post("/v1/sessions", json={"session_id": sid})
    assert again.status_code == 201, again.text
    assert again.json()["session"]["workspace_id"] == other_ws
    assert tenants["a"].get(f"/v1/sessions/{sid}").json()["session"]["workspace_id"] == ws


def test_one_session_id_in_two_of_my_workspaces_needs_the_workspace_named(secured, admin, ws, other_ws):
    sid = f"sess_twice-{uuid.uuid4().hex[:8]}"
    with key_client(secured, admin, ws, other_ws) as both:
        create_session(both, ws, session_id=sid)
        create_session(both, other_ws, session_id=sid)
        r = both.get(f"/v1/sessions/{sid}")
        assert r.status_code == 409 and r.json()["detail"]["code"] == "session_ambiguous"
        r = both.get("/v1/memories", headers={"X-Session-ID": sid})
        assert r.status_code == 409 and r.json()["detail"]["code"] == "session_ambiguous"
        named = both.get(f"/v1/sessions/{sid}", headers={"X-Workspace-ID": other_ws})
        assert named.status_code == 200 and named.json()["session"]["workspace_id"] == other_ws


def test_another_workspaces_thread_id_can_be_created_again(tenants, ws, other_ws):
    thread_id = f"thread_b_1-{uuid.uuid4().hex[:8]}"
    b, a = tenants["b"], tenants["a"]
    assert b.post("/v1/threads", json={"id": thread_id, "title": "B"}).status_code == 201
    # A's key must not get 409 "thread ... already exists" for B's id.
    created = a.post("/v1/threads", json={"id": thread_id, "title": "A"})
    assert created.status_code == 201, created.text
    assert created.json()["thread"]["workspace_id"] == ws

    message = {"messages": [{"role": "user", "content": "I live in Paris", "id": "m1"}]}
    assert b.post(f"/v1/threads/{thread_id}/messages", json=message).status_code == 201
    message = {"messages": [{"role": "user", "content": "I live in Lyon", "id": "m1"}]}
    appended = a.post(f"/v1/threads/{thread_id}/messages", json=message)
    assert appended.status_code == 201, appended.text
    assert [m["message_index"] for m in appended.json()["messages"]] == [0]
    a.post(f"/v1/threads/{thread_id}/decompose")

    a_full = a.get(f"/v1/threads/{thread_id}/full").json()
    b_full = b.get(f"/v1/threads/{thread_id}/full").json()
    assert a_full["thread"]["title"] == "A" and b_full["thread"]["title"] == "B"
    assert [m["content"] for m in a_full["messages"]] == ["I live in Lyon"]
    assert [m["content"] for m in b_full["messages"]] == ["I live in Paris"]
    assert a_full["thread"]["message_count"] == 1 and b_full["thread"]["message_count"] == 1
    # The extraction worker marks progress on A's thread only (no queue here: B's job is still waiting).
    assert a_full["thread"]["last_decomposed_index"] == 1 and b_full["thread"]["last_decomposed_index"] == 0
    assert a.delete(f"/v1/threads/{thread_id}").status_code == 204
    assert b.get(f"/v1/threads/{thread_id}").status_code == 200


def test_client_chosen_ids_are_keyed_per_workspace_in_the_schema(database_url):
    """Migration 0012: the keys, and every foreign key that points at a session or a thread, carry the
    workspace, so no row can hang off another workspace's session or thread."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT conrelid::regclass::text, contype, "
            "  (SELECT array_agg(a.attname ORDER BY k.ord) FROM unnest(conkey) WITH ORDINALITY k(num, ord) "
            "   JOIN pg_attribute a ON a.attrelid = conrelid AND a.attnum = k.num) "
            "FROM pg_constraint WHERE contype IN ('p', 'f') AND confrelid IN (0, 'sessions'::regclass, "
            "'threads'::regclass) AND conrelid::regclass::text IN ('sessions', 'threads', 'working_memory', "
            "'session_checkpoints', 'thread_messages')"
        ).fetchall()
    keys = {(table, kind): columns for table, kind, columns in rows}
    assert keys[("sessions", "p")] == ["workspace_id", "id"]
    assert keys[("threads", "p")] == ["workspace_id", "id"]
    assert keys[("working_memory", "p")] == ["workspace_id", "session_id", "key"]
    for table, column in (
        ("working_memory", "session_id"),
        ("session_checkpoints", "session_id"),
        ("thread_messages", "thread_id"),
    ):
        assert keys[(table, "f")] == ["workspace_id", column], table
