"""The sessions Lambda answers API Gateway v2 events for every /v1/sessions route (and only those); the
cleanup Lambda expires sessions on its schedule."""

from __future__ import annotations

import hashlib
import importlib
from datetime import UTC, datetime, timedelta

from shared.app.bootstrap import process_services
from tests.functions.events import LambdaContext, http_v2
from tests.functions.test_memory_handler import call


def test_every_session_route_through_lambda(load_handler, http, ws):
    fn = load_handler("functions.sessions.handler").handler
    hdr = {"X-Workspace-ID": ws}
    status, body, _ = call(
        fn, http_v2("POST", "/v1/sessions", body={"working_memory": {"goal": "ship"}}, headers=hdr)
    )
    assert status == 201 and body["session"]["workspace_id"] == ws
    sid = body["session"]["id"]
    # The same session over HTTP, field for field.
    status, got, _ = call(fn, http_v2("GET", f"/v1/sessions/{sid}", headers=hdr))
    assert status == 200 and got == http.get(f"/v1/sessions/{sid}", headers=hdr).json()

    status, listed, _ = call(fn, http_v2("GET", "/v1/sessions", headers=hdr))
    assert status == 200 and [s["id"] for s in listed["sessions"]] == [sid]
    status, briefing, _ = call(
        fn, http_v2("GET", "/v1/sessions/briefing", query={"lookback_minutes": "5"}, headers=hdr)
    )
    assert status == 200 and "workspace_summary" in briefing and "briefing" in briefing

    status, item, _ = call(
        fn,
        http_v2(
            "POST",
            f"/v1/sessions/{sid}/memory",
            body={"key": "a", "value": [1]},
            headers=hdr,
            base64_body=True,
        ),
    )
    assert status == 201 and item["key"] == "a"
    status, values, _ = call(
        fn, http_v2("GET", f"/v1/sessions/{sid}/memory", query={"key": "a,goal"}, headers=hdr)
    )
    assert status == 200 and values == {"a": [1], "goal": "ship"}

    status, touched, _ = call(
        fn, http_v2("POST", f"/v1/sessions/{sid}/touch", query={"extend_seconds": "600"}, headers=hdr)
    )
    assert status == 200 and touched["expires_at"].endswith("Z")

    segment = "a line\nanother line"
    chk_body = {
        "transcript_segment": segment,
        "content_hash": hashlib.sha256(segment.encode()).hexdigest(),
        "idempotency_key": "lambda-1",
    }
    status, chk, _ = call(fn, http_v2("POST", f"/v1/sessions/{sid}/checkpoints", body=chk_body, headers=hdr))
    assert status == 201 and chk["index_status"] == "complete"
    status, replay, _ = call(
        fn, http_v2("POST", f"/v1/sessions/{sid}/checkpoints", body=chk_body, headers=hdr)
    )
    assert status == 201 and replay == chk
    status, again, _ = call(fn, http_v2("GET", f"/v1/sessions/{sid}/checkpoints/{chk['id']}", headers=hdr))
    assert status == 200 and again == chk

    status, commit, _ = call(fn, http_v2("POST", f"/v1/sessions/{sid}/commit", headers=hdr))
    assert status == 200 and commit["memories_created"] == 2

    # Context packs are the context function's: not served here.
    status, _, _ = call(fn, http_v2("POST", f"/v1/sessions/{sid}/context-pack", body={}, headers=hdr))
    assert status in (404, 405)

    status, _, _ = call(fn, http_v2("DELETE", f"/v1/sessions/{sid}", headers=hdr))
    assert status == 204
    status, missing, _ = call(fn, http_v2("GET", f"/v1/sessions/{sid}", headers=hdr))
    assert status == 404 and missing["detail"]["code"] == "session_not_found"
    # /health is the memory function's (shared/api/route_map.py): not built here.
    status, body, _ = call(fn, http_v2("GET", "/health"))
    assert status == 404


def test_bad_input_through_lambda(load_handler, ws):
    fn = load_handler("functions.sessions.handler").handler
    status, body, _ = call(
        fn, http_v2("POST", "/v1/sessions", body={"ttl_seconds": 5}, headers={"X-Workspace-ID": ws})
    )
    assert status == 422 and body["detail"]


def test_cleanup_lambda_commits_and_removes_expired_sessions(lambda_env, http, ws):
    module = importlib.reload(importlib.import_module("functions.cleanup.handler"))
    process_services.cache_clear()  # a cold start: built from this test's environment
    try:
        sid = http.post(
            "/v1/sessions",
            json={"ttl_seconds": 60, "working_memory": {"k": "v"}},
            headers={"X-Workspace-ID": ws},
        ).json()["session"]["id"]
        later = datetime.now(UTC) + timedelta(seconds=61)
        process_services("cleanup").sessions.clock = lambda: later
        scheduled = {
            "version": "0",
            "id": "e1",
            "detail-type": "Scheduled Event",
            "source": "aws.events",
            "account": "123456789012",
            "time": "2026-11-29T16:00:00Z",
            "region": "us-east-1",
            "resources": ["arn:aws:events:us-east-1:123456789012:rule/memorylayer-session-cleanup"],
            "detail": {},
        }
        result = module.handler(scheduled, LambdaContext(function_name="memorylayer-cleanup"))
        assert result["sessions_expired"] >= 1 and result["sessions_committed"] >= 1
        listed = http.get(
            "/v1/sessions", params={"include_expired": "true"}, headers={"X-Workspace-ID": ws}
        ).json()
        assert sid not in [s["id"] for s in listed["sessions"]]
        memories = http.get("/v1/memories", headers={"X-Workspace-ID": ws}).json()["memories"]
        assert [m["content"] for m in memories] == ["k: v"]
    finally:
        process_services("cleanup").close()
        process_services.cache_clear()
