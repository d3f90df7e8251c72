"""The context Lambda serves context packs and deltas from API Gateway v2 events, and nothing else."""

from __future__ import annotations

from tests.functions.events import http_v2
from tests.functions.test_memory_handler import call


def test_pack_and_delta_through_lambda(load_handler, http, ws):
    fn = load_handler("functions.context.handler").handler
    hdr = {"X-Workspace-ID": ws}
    http.post("/v1/memories", json={"content": "Always cite sources", "subtype": "directive"}, headers=hdr)
    sid = http.post("/v1/sessions", json={"working_memory": {"goal": "write docs"}}, headers=hdr).json()[
        "session"
    ]["id"]

    status, pack, _ = call(
        fn, http_v2("POST", f"/v1/sessions/{sid}/context-pack", body={"budget_tokens": 64}, headers=hdr)
    )
    assert status == 200
    assert pack["rendered"] == "## Directives\n- Always cite sources\n## Working Memory\n- goal: write docs"
    over_http = http.post(f"/v1/sessions/{sid}/context-pack", json={"budget_tokens": 64}, headers=hdr).json()
    assert over_http == pack

    created = http.post("/v1/memories", json={"content": "new fact"}, headers=hdr).json()["memory"]["id"]
    status, delta, _ = call(
        fn,
        http_v2(
            "POST",
            f"/v1/sessions/{sid}/context-delta",
            body={"cursor": pack["cursor"]},
            headers=hdr,
            base64_body=True,
        ),
    )
    assert status == 200 and [i["id"] for i in delta["items"]] == [created] and delta["has_more"] is False

    status, bad, _ = call(
        fn, http_v2("POST", f"/v1/sessions/{sid}/context-delta", body={"cursor": "nope"}, headers=hdr)
    )
    assert status == 400 and bad["detail"]["code"] == "invalid_cursor"
    status, _, _ = call(fn, http_v2("POST", "/v1/sessions/sess_missing/context-pack", body={}, headers=hdr))
    assert status == 404

    # Session CRUD is the sessions function's: not served here.
    status, _, _ = call(fn, http_v2("GET", f"/v1/sessions/{sid}", headers=hdr))
    assert status in (404, 405)
    # Nor /health: API Gateway sends it to the memory function (shared/api/route_map.py).
    status, _, _ = call(fn, http_v2("GET", "/health"))
    assert status == 404


def test_the_context_environment_is_not_served_here(load_handler, ws):
    # /v1/context/* waits on the sandbox function: API Gateway sends it to the environment function
    fn = load_handler("functions.context.handler").handler
    status, body, _ = call(fn, http_v2("GET", "/v1/context/status", headers={"X-Session-ID": "sess_x"}))
    assert status == 404 and body["detail"]["code"] == "route_not_found"  # no route here, not a domain 404
