"""The environment Lambda serves the context environment (/v1/context/*) from API Gateway v2 events, and no
context pack: a burst of sandbox calls cannot take the concurrency context packs are served with."""

from __future__ import annotations

from shared.core.settings import Settings, get_settings
from shared.core.tenants import DEFAULT_TENANT, user_space
from shared.db import rls, sandbox_leases
from shared.domain.context_env.executors import create_executor
from shared.domain.context_env.leases import TenantLeases
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
    assert status == 404 and body["detail"]["code"] == "route_not_found"  # no route here, not a domain 404


def test_sandbox_calls_through_lambda_wait_for_the_tenants_lease(
    load_handler, monkeypatch, http, ws, services
):
    """As deployed (context_executor=lambda): the async sandbox routes run under Mangum, take the tenant's lease
    in Postgres and drop it; with every lease of the tenant held elsewhere, the call is a 429 with Retry-After."""
    monkeypatch.setenv("MEMORYLAYER_CONTEXT_EXECUTOR", "lambda")
    monkeypatch.setenv("MEMORYLAYER_CONTEXT_SANDBOX_FUNCTION", "sandbox-not-invoked-here")
    monkeypatch.setenv("MEMORYLAYER_CONTEXT_SLOT_WAIT_S", "0.5")
    get_settings.cache_clear()
    fn = load_handler("functions.environment.handler")
    # The local executor (what the sandbox function runs), in process: no Lambda to invoke here.
    local = get_settings().model_copy(
        update={"context_executor": Settings.model_fields["context_executor"].default}
    )
    fn.app.state.services.sandboxes.executor = create_executor(local)
    sid = http.post("/v1/sessions", json={}, headers={"X-Workspace-ID": ws}).json()["session"]["id"]
    event = http_v2(
        "POST", "/v1/context/execute", body={"code": "x = 41 + 1\nx"}, headers={"X-Session-ID": sid}
    )
    space = user_space(DEFAULT_TENANT)  # auth none: the default tenant

    def live() -> int:
        with rls.visible(rls.EVERY), services.db.connection() as conn:
            return sandbox_leases.live(conn, space)

    elsewhere = TenantLeases(lambda: services.db, cap=3, ttl_s=60)
    with rls.visible(rls.EVERY):
        held = [elsewhere.take(space, "key_elsewhere") for _ in range(3)]
    assert all(held) and live() == 3
    status, body, headers = call(fn.handler, event)
    assert status == 429 and body["detail"]["code"] == "sandbox_tenant_busy", body
    assert {k.lower(): v for k, v in headers.items()}["retry-after"] == "1"
    with rls.visible(rls.EVERY):
        for lease in held:
            elsewhere.release(lease)  # type: ignore[arg-type]
    for _ in range(2):  # two invocations: the gate outlives one event loop's request
        status, body, _ = call(fn.handler, event)
        assert status == 200 and body["result"] == "42", body
    assert live() == 0
