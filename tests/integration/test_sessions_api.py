"""Sessions over HTTP: lifecycle, TTL enforced on read (controllable clock), sliding, working memory, commit,
briefing, cleanup and workspace isolation."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from tests.helpers.http import create, h


def parse(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def test_create_get_list_delete(http, ws):
    response = http.post(
        "/v1/sessions", json={"ttl_seconds": 600, "metadata": {"client": "t"}}, headers=h(ws)
    )
    assert response.status_code == 201
    body = response.json()
    assert body["briefing"] is None
    session = body["session"]
    assert re.fullmatch(r"sess_[0-9a-f]{32}", session["id"])
    assert (
        session["workspace_id"] == ws
        and session["context_id"] == "_default"
        and session["auto_commit"] is True
    )
    assert session["metadata"] == {"client": "t"} and session["expires_at"].endswith("Z")

    mine = create(http, ws, session_id=f"chat-{ws}")
    assert mine["id"] == f"chat-{ws}"

    got = http.get(f"/v1/sessions/{session['id']}", headers=h(ws)).json()
    assert got["session"] == session
    assert {k: got[k] for k in session} == session  # flat too, for SDK 0.2.1's Session(**data)

    listed = http.get("/v1/sessions", headers=h(ws)).json()
    assert listed["total_count"] == 2 and {s["id"] for s in listed["sessions"]} == {session["id"], mine["id"]}

    assert http.delete(f"/v1/sessions/{session['id']}", headers=h(ws)).status_code == 204
    assert http.get(f"/v1/sessions/{session['id']}", headers=h(ws)).status_code == 404
    assert http.delete(f"/v1/sessions/{session['id']}", headers=h(ws)).status_code == 404


def test_a_live_session_id_cannot_be_taken_twice(http, ws, other_ws):
    create(http, ws, session_id=f"dup-{ws}")
    again = http.post("/v1/sessions", json={"session_id": f"dup-{ws}"}, headers=h(ws))
    assert again.status_code == 409 and again.json()["detail"]["code"] == "session_exists"
    # Ids are unique per workspace: another workspace's id is not "taken" there.
    elsewhere = http.post("/v1/sessions", json={"session_id": f"dup-{ws}"}, headers=h(other_ws))
    assert elsewhere.status_code == 201
    bad = http.post("/v1/sessions", json={"session_id": "no spaces"}, headers=h(ws))
    assert bad.status_code == 422
    assert http.post("/v1/sessions", json={"ttl_seconds": 10}, headers=h(ws)).status_code == 422


def test_initial_working_memory_and_briefing(http, ws):
    http.post(
        "/v1/memories",
        json={"content": "We chose Postgres", "subtype": "decision", "tags": ["db"]},
        headers=h(ws),
    )
    body = http.post(
        "/v1/sessions",
        json={"working_memory": {"goal": "ship", "next_steps": ["test"]}, "briefing": True},
        headers=h(ws),
    ).json()
    sid = body["session"]["id"]
    assert http.get(f"/v1/sessions/{sid}/memory", headers=h(ws)).json() == {
        "goal": "ship",
        "next_steps": ["test"],
    }
    briefing = body["briefing"]
    assert briefing["workspace_summary"]["total_memories"] == 1
    assert briefing["workspace_summary"]["active_topics"] == ["db"]
    assert briefing["recent_activity"][0]["memories_created"] == 1
    assert briefing["recent_activity"][0]["key_decisions"] == ["We chose Postgres"]
    assert briefing["open_threads"][0]["topic"] == '["test"]'

    got = http.get("/v1/sessions/briefing", params={"lookback_minutes": 5}, headers=h(ws)).json()
    assert got["briefing"]["workspace_summary"] == got["workspace_summary"]  # wrapped and flat
    assert [m["content"] for m in got["memories"]] == ["We chose Postgres"]
    quiet = http.get("/v1/sessions/briefing", params={"include_memories": "false"}, headers=h(ws)).json()
    assert quiet["memories"] == []


def test_expired_session_is_gone_on_read(http, ws, clock):
    sid = create(http, ws, ttl_seconds=60)["id"]
    http.post(f"/v1/sessions/{sid}/memory", json={"key": "k", "value": 1}, headers=h(ws))
    clock.advance(59)
    assert http.get(f"/v1/sessions/{sid}", headers=h(ws)).status_code == 200
    clock.advance(2)
    for method, path in [
        ("GET", ""),
        ("GET", "/memory"),
        ("POST", "/commit"),
        ("POST", "/touch"),
        ("DELETE", ""),
    ]:
        response = http.request(method, f"/v1/sessions/{sid}{path}", headers=h(ws))
        assert response.status_code == 404, (method, path)
        assert response.json()["detail"]["code"] == "session_not_found"
    assert http.get("/v1/sessions", headers=h(ws)).json()["total_count"] == 0
    listed = http.get("/v1/sessions", params={"include_expired": "true"}, headers=h(ws)).json()
    assert [s["id"] for s in listed["sessions"]] == [sid]
    # X-Session-ID of an expired session resolves nothing and revives nothing.
    http.get("/v1/memories", headers={"X-Session-ID": sid})
    assert http.get(f"/v1/sessions/{sid}", headers=h(ws)).status_code == 404


def test_recreating_an_expired_id_retires_the_old_session(http, ws, clock):
    sid = f"again-{ws}"
    create(http, ws, session_id=sid, ttl_seconds=60, working_memory={"old": "value"})
    clock.advance(120)
    fresh = create(http, ws, session_id=sid)
    assert parse(fresh["expires_at"]) > clock.now
    assert http.get(f"/v1/sessions/{sid}/memory", headers=h(ws)).json() == {}
    # The old session auto-committed on the way out.
    contents = [m["content"] for m in http.get("/v1/memories", headers=h(ws)).json()["memories"]]
    assert contents == ["old: value"]


def test_touch_and_x_session_id_slide_the_ttl(http, ws, clock, settings):
    sid = create(http, ws, ttl_seconds=60)["id"]
    touched = http.post(f"/v1/sessions/{sid}/touch", params={"extend_seconds": 120}, headers=h(ws)).json()
    assert parse(touched["expires_at"]) == clock.now + timedelta(seconds=120)

    clock.advance(100)
    # Any request carrying X-Session-ID keeps the session alive, with or without a named workspace.
    http.get("/v1/memories", headers={"X-Session-ID": sid})
    expires = parse(http.get(f"/v1/sessions/{sid}", headers=h(ws)).json()["expires_at"])
    assert expires == clock.now + timedelta(seconds=settings.session_touch_ttl_s)
    clock.advance(60)
    http.get(f"/v1/sessions/{sid}/memory", headers=h(ws, **{"X-Session-ID": sid}))
    expires = parse(http.get(f"/v1/sessions/{sid}", headers=h(ws)).json()["expires_at"])
    assert expires == clock.now + timedelta(seconds=settings.session_touch_ttl_s)
    # Sliding never shortens a longer TTL.
    http.post(f"/v1/sessions/{sid}/touch", params={"extend_seconds": 86400}, headers=h(ws))
    http.get(f"/v1/sessions/{sid}", headers=h(ws, **{"X-Session-ID": sid}))
    expires = parse(http.get(f"/v1/sessions/{sid}", headers=h(ws)).json()["expires_at"])
    assert expires == clock.now + timedelta(seconds=86400)
    assert (
        http.post(f"/v1/sessions/{sid}/touch", params={"extend_seconds": 0}, headers=h(ws)).status_code == 422
    )


def test_session_workspace_is_the_fallback(http, ws):
    sid = create(http, ws)["id"]
    created = http.post("/v1/memories", json={"content": "via session"}, headers={"X-Session-ID": sid}).json()
    assert created["memory"]["workspace_id"] == ws


def test_working_memory_keys(http, ws, clock):
    sid = create(http, ws)["id"]
    response = http.post(
        f"/v1/sessions/{sid}/memory",
        json={"key": "file", "value": {"path": "a.py", "line": 4}},
        headers=h(ws),
    )
    assert response.status_code == 201
    one = response.json()
    assert one["key"] == "file" and one["value"] == {"path": "a.py", "line": 4} and one["ttl_seconds"] is None
    assert one["created_at"] == one["updated_at"]

    many = http.post(f"/v1/sessions/{sid}/memory", json={"items": {"a": 1, "b": "two"}}, headers=h(ws))
    assert many.status_code == 201 and [i["key"] for i in many.json()["items"]] == ["a", "b"]
    listed = http.post(
        f"/v1/sessions/{sid}/memory",
        json={"items": [{"key": "c", "value": None}, {"key": "d", "value": [1]}]},
        headers=h(ws),
    )
    assert listed.json()["total_count"] == 2

    get = lambda **p: http.get(f"/v1/sessions/{sid}/memory", params=p, headers=h(ws))  # noqa: E731
    assert get(key="a").json() == {"a": 1}
    assert get(key="a,b").json() == {"a": 1, "b": "two"}  # the SDK's CSV of several keys
    assert get(key="a,zzz").json() == {"a": 1}
    assert get(key="zzz").status_code == 404
    assert get().json() == {"file": {"path": "a.py", "line": 4}, "a": 1, "b": "two", "c": None, "d": [1]}

    clock.advance(5)
    updated = http.post(
        f"/v1/sessions/{sid}/memory", json={"key": "a", "value": 2, "ttl_seconds": 30}, headers=h(ws)
    ).json()
    assert updated["created_at"] == one["created_at"] and updated["updated_at"] != updated["created_at"]
    assert get(key="a").json() == {"a": 2}
    clock.advance(31)  # per-key TTL enforced: an expired key is invisible
    assert get(key="a").status_code == 404 and "a" not in get().json()

    for bad in ({"key": "", "value": 1}, {"value": 1}, {"key": "a", "items": {"b": 1}}, {"items": {}}):
        assert http.post(f"/v1/sessions/{sid}/memory", json=bad, headers=h(ws)).status_code == 422, bad


def test_commit_reports_real_counts_and_is_idempotent(http, ws):
    sid = create(http, ws, working_memory={"goal": "fix the redis timeout", "owner": "ana"})["id"]
    first = http.post(f"/v1/sessions/{sid}/commit", headers=h(ws)).json()
    assert first["session_id"] == sid
    assert (first["memories_extracted"], first["memories_created"], first["memories_deduplicated"]) == (
        2,
        2,
        0,
    )
    assert first["breakdown"] == {"added": 2, "noop": 0, "superseded": 0}
    assert isinstance(first["extraction_time_ms"], int)

    again = http.post(f"/v1/sessions/{sid}/commit", json={"min_importance": 0.5}, headers=h(ws)).json()
    assert (again["memories_extracted"], again["memories_created"], again["memories_deduplicated"]) == (
        2,
        0,
        2,
    )

    http.post(f"/v1/sessions/{sid}/memory", json={"key": "owner", "value": "bo"}, headers=h(ws))
    third = http.post(f"/v1/sessions/{sid}/commit", headers=h(ws)).json()
    assert (third["memories_created"], third["memories_deduplicated"]) == (1, 1)

    assert third["breakdown"]["superseded"] == 1
    # A key holds one value: the new one supersedes the old, which stays as history.
    memories = http.get("/v1/memories", headers=h(ws)).json()["memories"]
    assert sorted(m["content"] for m in memories) == ["goal: fix the redis timeout", "owner: bo"]
    history = http.post(
        "/v1/memories/recall",
        json={"query": "owner", "include_history": True, "min_relevance": 0},
        headers=h(ws),
    ).json()["memories"]
    old_owner = next(m for m in history if m["content"] == "owner: ana")
    assert old_owner["valid_to"] is not None and old_owner["superseded_by"]
    assert all(m["session_id"] == sid and m["metadata"]["session_id"] == sid for m in memories)
    assert {m["metadata"]["working_memory_key"] for m in memories} == {"goal", "owner"}
    assert http.get(f"/v1/sessions/{sid}", headers=h(ws)).json()["committed_at"] is not None
    found = http.post("/v1/memories/recall", json={"query": "redis timeout"}, headers=h(ws)).json()
    assert found["memories"][0]["content"] == "goal: fix the redis timeout"


def test_delete_commits_first_unless_auto_commit_is_off(http, ws):
    keep = create(http, ws, working_memory={"kept": "yes"})["id"]
    drop = create(http, ws, working_memory={"dropped": "yes"}, auto_commit=False)["id"]
    assert http.delete(f"/v1/sessions/{keep}", headers=h(ws)).status_code == 204
    assert http.delete(f"/v1/sessions/{drop}", headers=h(ws)).status_code == 204
    contents = [m["content"] for m in http.get("/v1/memories", headers=h(ws)).json()["memories"]]
    assert contents == ["kept: yes"]


def test_cleanup_commits_and_removes_expired_sessions(http, ws, services, clock):
    expiring = create(http, ws, ttl_seconds=60, working_memory={"note": "remember me"})["id"]
    living = create(http, ws, ttl_seconds=3600)["id"]
    http.post(
        f"/v1/sessions/{living}/memory", json={"key": "short", "value": 1, "ttl_seconds": 30}, headers=h(ws)
    )
    clock.advance(61)
    result = services.sessions.cleanup()
    assert result["sessions_expired"] >= 1 and result["sessions_committed"] >= 1
    assert result["working_keys_expired"] >= 1
    listed = http.get("/v1/sessions", params={"include_expired": "true"}, headers=h(ws)).json()
    assert [s["id"] for s in listed["sessions"]] == [living]
    assert expiring not in {s["id"] for s in listed["sessions"]}
    contents = [m["content"] for m in http.get("/v1/memories", headers=h(ws)).json()["memories"]]
    assert contents == ["note: remember me"]
    assert services.sessions.cleanup()["sessions_expired"] == 0  # nothing left to do


def test_another_workspace_cannot_see_a_session(http, ws, other_ws):
    sid = create(http, ws, working_memory={"secret": "s"})["id"]
    body = {"transcript_segment": "x", "content_hash": "0" * 64, "idempotency_key": "k"}
    for method, path, payload in [
        ("GET", "", None),
        ("DELETE", "", None),
        ("POST", "/touch", None),
        ("GET", "/memory", None),
        ("POST", "/memory", {"key": "a", "value": 1}),
        ("POST", "/commit", None),
        ("POST", "/checkpoints", body),
        ("GET", "/checkpoints/chk_x", None),
        ("POST", "/context-pack", {}),
    ]:
        response = http.request(method, f"/v1/sessions/{sid}{path}", json=payload, headers=h(other_ws))
        assert response.status_code == 404, (method, path, response.text)
    assert http.get("/v1/sessions", headers=h(other_ws)).json()["total_count"] == 0
    assert http.get(f"/v1/sessions/{sid}/memory", headers=h(ws)).json() == {"secret": "s"}
