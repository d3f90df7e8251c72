"""The memory Lambda answers API Gateway v2 events exactly as the HTTP server answers requests."""

from __future__ import annotations

import json

from tests.functions.events import LambdaContext, http_v2


def call(handler, event) -> tuple[int, dict | None, dict]:
    out = handler(event, LambdaContext())
    body = json.loads(out["body"]) if out.get("body") else None
    return out["statusCode"], body, out.get("headers", {})


def test_v2_event_gets_the_same_answer_as_http(load_handler, http, ws):
    module = load_handler("functions.memory.handler")
    status, body, headers = call(
        module.handler,
        http_v2(
            "POST",
            "/v1/memories",
            body={"content": "lambda remembers", "tags": ["l"]},
            headers={"X-Workspace-ID": ws},
        ),
    )
    assert status == 201 and body["memory"]["content"] == "lambda remembers"
    assert headers["etag"] == body["memory"]["etag"]
    memory_id = body["memory"]["id"]

    # The same memory through the HTTP server, field for field (the embedding only on create).
    over_http = http.get(f"/v1/memories/{memory_id}", headers={"X-Workspace-ID": ws}).json()
    status, via_lambda, _ = call(
        module.handler, http_v2("GET", f"/v1/memories/{memory_id}", headers={"X-Workspace-ID": ws})
    )
    assert status == 200 and via_lambda == over_http

    status, found, _ = call(
        module.handler,
        http_v2(
            "POST",
            "/v1/memories/recall",
            body={"query": "lambda"},
            headers={"X-Workspace-ID": ws},
            base64_body=True,
        ),
    )
    assert status == 200 and [m["id"] for m in found["memories"]] == [memory_id]

    status, listed, _ = call(
        module.handler, http_v2("GET", "/v1/memories", query={"limit": "5"}, headers={"X-Workspace-ID": ws})
    )
    assert status == 200 and listed["total_count"] == 1

    status, body, _ = call(
        module.handler, http_v2("DELETE", f"/v1/memories/{memory_id}", headers={"X-Workspace-ID": ws})
    )
    assert status == 204
    assert http.get(f"/v1/memories/{memory_id}", headers={"X-Workspace-ID": ws}).status_code == 404


def test_bad_input_and_health_through_lambda(load_handler):
    module = load_handler("functions.memory.handler")
    status, body, _ = call(module.handler, http_v2("POST", "/v1/memories", body="{broken"))
    assert status == 422 and body["detail"]
    status, body, _ = call(module.handler, http_v2("GET", "/health"))
    assert status == 200 and body == {"status": "healthy"}
    status, body, _ = call(module.handler, http_v2("GET", "/health/ready"))
    assert status == 200 and body["services"]["database"] == "connected"


def test_warm_invocations_reuse_one_pool(load_handler, ws):
    """A warm container serves later invocations on the pool and connection its first one opened."""
    module = load_handler("functions.memory.handler")

    def remember(i: int) -> None:
        status, _, _ = call(
            module.handler,
            http_v2("POST", "/v1/memories", body={"content": f"warm {i}"}, headers={"X-Workspace-ID": ws}),
        )
        assert status == 201

    remember(0)
    pool = module.app.state.services.get().db.pool
    after_first = pool.get_stats()
    remember(1)
    remember(2)
    after_third = pool.get_stats()
    assert module.app.state.services.get().db.pool is pool
    # Both counters are cumulative: more borrowed connections, no new ones opened.
    assert after_third["requests_num"] >= after_first["requests_num"] + 2
    assert after_third["connections_num"] == after_first["connections_num"]


def test_console_through_lambda(load_handler, ws):
    """API Gateway routes /console to this function (infra/api.py): the page and its API answer events."""
    module = load_handler("functions.memory.handler")
    out = module.handler(http_v2("GET", "/console/"), LambdaContext())
    assert out["statusCode"] == 200 and out["headers"]["content-type"].startswith("text/html")
    assert (
        "MemoryLayer console" in out["body"]
        and "script-src 'self'" in out["headers"]["content-security-policy"]
    )
    status, body, _ = call(module.handler, http_v2("GET", "/console/api/whoami"))
    assert status == 200 and body["can_write"] is True
    status, body, _ = call(
        module.handler, http_v2("GET", "/console/api/jobs", headers={"X-Workspace-ID": ws})
    )
    assert status == 200 and body == {"jobs": [], "workspace_id": ws}
