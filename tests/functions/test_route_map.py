"""Each API Lambda builds exactly the routes API Gateway sends it, from one table
(shared/api/route_map.py) that infra/api.py routes by too; tests/infra/test_stack.py checks the synthesized
template against that table. Here: every route of the whole API, as a real HTTP API v2 event, reaches a handler
that serves it; no handler builds a route that API Gateway sends elsewhere; a first request analyses only its own
router's routes, and none after SnapStart's priming; the memory function's /openapi.json still describes it all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi import routing as fastapi_routing

from shared.api.app import build_routes, create_app
from shared.api.route_map import FUNCTIONS, gateway_routes
from tests.functions.events import LambdaContext, http_v2

HANDLERS = {name: f"functions.{name}.handler" for name in FUNCTIONS}
# Served by the local server only: the API's name at / and the Swagger/ReDoc pages (Lambda assets lack them).
LOCAL_ONLY = {"GET /", "GET /docs", "GET /redoc", "GET /docs/assets/{name}"}
ROUTER_404 = "route_not_found"  # the router's "no route matched"; domain 404s carry codes of their own


def _pattern(path: str) -> re.Pattern[str]:
    """An API Gateway route path as a regex: ``{name}`` is one segment, ``{proxy+}`` the rest (the console's
    ``/console/`` page is served through ``/console/{proxy+}``, so the rest may be empty)."""
    parts = []
    for segment in path.strip("/").split("/"):
        if segment.endswith("+}"):
            parts.append(".*")
        elif segment.startswith("{"):
            parts.append("[^/]+")
        else:
            parts.append(re.escape(segment))
    return re.compile("^/" + "/".join(parts) + "$")


def gateway_target(method: str, path: str) -> str | None:
    """The function API Gateway invokes for ``method path``: the most specific matching route (no greedy
    variable beats a greedy one, then more literal segments, then an exact method beats ANY)."""
    candidates = []
    for route_path, route_method, function in gateway_routes():
        if route_method in ("ANY", method) and _pattern(route_path).match(path):
            segments = route_path.strip("/").split("/")
            literal = sum(not s.startswith("{") for s in segments)
            candidates.append(("+}" in route_path, -literal, route_method == "ANY", function))
    return min(candidates)[3] if candidates else None


def routes_of(app: FastAPI) -> Iterator[tuple[str, str]]:
    """(method, path) of every API route ``app`` builds, included routers and all."""
    for route in app.router.routes:
        contexts = getattr(route, "effective_route_contexts", None)
        for context in contexts() if contexts else [route]:
            for method in sorted(getattr(context, "methods", None) or ()):
                if method != "HEAD" and getattr(context, "path", "") != "/openapi.json":
                    yield method, context.path


def concrete(path: str) -> str:
    """A request path for a route path: every parameter filled with a made-up id."""
    return re.sub(r"\{(\w+)\}", lambda m: f"{m.group(1)}_route_map", path)


def call(handler, method: str, path: str, ws: str) -> tuple[int, object]:
    headers = {"X-Workspace-ID": ws, "X-Session-ID": "sess_route_map"}
    body = {} if method in ("POST", "PUT", "PATCH") else None
    out = handler(http_v2(method, path, body=body, headers=headers), LambdaContext())
    try:
        parsed = json.loads(out.get("body") or "null")
    except ValueError:
        parsed = out.get("body")
    return out["statusCode"], parsed


def test_every_route_of_the_api_reaches_a_function_that_serves_it(load_handler, settings, ws):
    # Given every route of the whole API (the local server builds them all) and the gateway's route table
    everything = sorted(set(routes_of(create_app(settings))))
    targets = {f"{m} {p}": gateway_target(m, concrete(p)) for m, p in everything}
    # Then only the local server's own pages are routed nowhere
    assert {key for key, target in targets.items() if target is None} <= LOCAL_ONLY
    assert "GET /v1/sessions/{session_id}" in targets and targets["POST /v1/ingest/email"] == "memory"

    # When each routed one arrives at its function as an API Gateway v2 event
    handlers = {name: load_handler(module).handler for name, module in HANDLERS.items()}
    unserved = []
    for key, target in targets.items():
        if target is None:
            continue
        method, path = key.split(" ", 1)
        status, body = call(handlers[target], method, concrete(path), ws)
        # Then a route matched: whatever it answers (422 for an empty body, a domain 404 for a made-up id), it is
        # neither FastAPI's "no route" 404 nor a 405
        if (status == 404 and (body.get("detail") or {}).get("code") == ROUTER_404) or status == 405:
            unserved.append((key, target, status))
    assert not unserved, unserved


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_a_function_builds_only_the_routes_api_gateway_sends_it(load_handler, name):
    # Given the function's app, as its handler builds it
    app = load_handler(HANDLERS[name]).app
    built = sorted(set(routes_of(app)))
    # Then API Gateway sends every one of its routes to this function, and nothing it builds goes elsewhere
    # (but the health router's GET / and, where fastapi-offline is installed as here, the /docs pages, which no
    # deployed request reaches)
    targets = {(m, p): gateway_target(m, concrete(p)) for m, p in built}
    elsewhere = [(m, p, t) for (m, p), t in targets.items() if t != name and f"{m} {p}" not in LOCAL_ONLY]
    assert built and not elsewhere, elsewhere
    # And it serves every route the table gives it: each gateway route of the function reaches one of its routes
    for path, method, function in gateway_routes():
        if function == name and path != "/openapi.json":
            probe = _pattern(path)
            assert any(probe.match(concrete(p)) and method in ("ANY", m) for m, p in built), (
                f"{method} {path} reaches {name}, which builds no route for it"
            )


def test_a_first_request_analyses_only_its_own_routers_routes(load_handler, ws, monkeypatch):
    # Given a fresh memory function, counting the routes FastAPI analyses
    analysed: list[str] = []
    original = fastapi_routing._EffectiveRouteContext.from_api_route.__func__  # type: ignore[attr-defined]

    def counting(cls, *, original_route, include_context):
        analysed.append(original_route.path)
        return original(cls, original_route=original_route, include_context=include_context)

    monkeypatch.setattr(fastapi_routing._EffectiveRouteContext, "from_api_route", classmethod(counting))
    module = load_handler(HANDLERS["memory"])

    # When the first request is for a job (the threads router, listed after memories)
    status, _ = call(module.handler, "GET", "/v1/jobs/job_route_map", ws)
    assert status == 404
    # Then only the threads router's routes were analysed, not the routers tried before it
    threads = {
        route.path for route in __import__("shared.api.routes.threads", fromlist=["router"]).router.routes
    }
    assert analysed and set(analysed) == threads

    # And once SnapStart's hook has analysed everything, a request analyses nothing more
    first = len(analysed)
    analysed.clear()
    total = build_routes(module.app)
    assert total == first + len(analysed) and len(analysed) > first
    analysed.clear()
    call(module.handler, "GET", "/health", ws)
    call(module.handler, "POST", "/v1/memories/recall", ws)
    assert analysed == []


def test_the_memory_functions_openapi_describes_the_whole_api(load_handler, settings):
    # Given the memory function, which builds only its own routers but serves /openapi.json
    module = load_handler(HANDLERS["memory"])
    out = module.handler(http_v2("GET", "/openapi.json"), LambdaContext())
    assert out["statusCode"] == 200
    served = json.loads(out["body"])
    # Then the document is the whole API's, the sessions and context functions' operations included
    whole = create_app(settings).openapi()
    assert served["paths"] == whole["paths"] and served["components"] == whole["components"]
    assert (
        "/v1/sessions/{session_id}/context-pack" in served["paths"]
        and "/v1/context/execute" in served["paths"]
    )
