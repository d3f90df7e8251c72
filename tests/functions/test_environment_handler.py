"""The environment Lambda serves the context environment (/v1/context/*) from API Gateway v2 events, and no
context pack: a burst of sandbox calls cannot take the concurrency context packs are served with."""

from __future__ import annotations

from tests.functions.events import http_v2
from tests.functions.test_memory_handler import call


def test_context_environment_through_lambda_and_nothing_else(load_handler, http, ws):
    fn = load_handler("functions.environment.handler").handler
    hdr = {"X-Workspace-ID": ws}
    sid = http.post("/v1/sessions", json={"working_memory": {"goal": "analyse"}}, headers=hdr).json()[
        "session"
    ]["id"]

    # The status route reads the row only (no sandbox yet): served here, as over HTTP
    status, body, _ = call(fn, http_v2("GET", "/v1/context/status", headers={**hdr, "X-Session-ID": sid}))
    assert status == 200 and body["exists"] is False
    assert body == http.get("/v1/context/status", headers={**hdr, "X-Session-ID": sid}).json()
    status, body, _ = call(fn, http_v2("GET", "/v1/context/status", headers=hdr))
    assert status == 400 and body["detail"]["code"] == "missing_session_id"

    # Context packs are the context function's
    status, body, _ = call(fn, http_v2("POST", f"/v1/sessions/{sid}/context-pack", body={}, headers=hdr))
    assert status == 404 and body == {"detail": "Not Found"}
