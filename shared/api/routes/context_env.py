"""/v1/context/*: the context environment's per-session sandboxes, keyed by ``X-Session-ID``.

Wire-compatible with SDK 0.2.1's ``context_*`` methods; errors are real HTTP statuses (docs/context-environment.md
lists where that differs from the reference). Caller code runs in the isolated executor, never here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response

from shared.api import schemas
from shared.api.deps import Caller, CallerDep, ServicesDep
from shared.app.services import tenant_leases
from shared.domain.context_env.gate import SandboxGate
from shared.domain.context_env.requests import (
    ExecuteRequest,
    InjectRequest,
    LoadRequest,
    QueryRequest,
    RlmRequest,
)

router = APIRouter(prefix="/v1/context", tags=["context environment"])


async def sandbox_gate(request: Request) -> SandboxGate:
    """This app's gate, made by its first sandbox call (async: no threadpool hop, and no race on the loop)."""
    state = request.app.state
    if getattr(state, "sandbox_gate", None) is None:
        settings = state.settings
        state.sandbox_gate = SandboxGate.from_settings(settings, tenant_leases(settings, state.services.get))
    return state.sandbox_gate


GateDep = Annotated[SandboxGate, Depends(sandbox_gate)]


async def through_gate(
    gate: SandboxGate, caller: Caller, work: Callable[..., dict[str, Any]], *args: Any
) -> Any:
    """The routes that run the executor: wait for a slot on the event loop (bounded), then run the sync service
    call in the gate's own threads, never in FastAPI's shared pool."""
    principal = caller.principal
    # The per-key cap is the key's budget: a token counts against the key it was minted from.
    key = principal.budget_id or ("admin" if principal.admin else "open")
    return await gate.run(caller.tenant_id, key, work, caller, *args, space=principal.user_space)


@router.post("/execute", response_model=schemas.ExecuteResult)
async def execute(body: ExecuteRequest, caller: CallerDep, svc: ServicesDep, gate: GateDep) -> dict[str, Any]:
    """Run Python in the session's sandbox, in a confined process with no network, keys or files; variables
    persist between calls (functions, classes and modules do not: `not_persisted`). An exception raised by the
    code is a 200 with `error` and `error_code: execution_error`; refused code, time, memory and output limits
    are 422, a state over the cap 413. `llm_query(prompt)` in the code asks the configured LLM."""
    return await through_gate(gate, caller, svc.sandboxes.execute, body)


@router.post("/inspect", response_model=schemas.SandboxState | schemas.SandboxVariableDetail)
def inspect(
    caller: CallerDep,
    svc: ServicesDep,
    variable: Annotated[
        str | None,
        Query(max_length=128, description="One variable to describe (default: every variable)."),
    ] = None,
    preview_chars: Annotated[
        int, Query(ge=0, le=1000, description="Cut each preview to this many characters (0–1000).")
    ] = 200,
) -> dict[str, Any]:
    """The sandbox's variables with their type, a preview and their size, read from the stored summary: no code
    runs and no sandbox is created (none yet: no variables). With `variable`, that one only (404
    `variable_not_found` if absent). Read-only keys may call it."""
    return svc.sandboxes.inspect(caller, variable, preview_chars)


@router.post("/load", response_model=schemas.LoadResult)
async def load(body: LoadRequest, caller: CallerDep, svc: ServicesDep, gate: GateDep) -> dict[str, Any]:
    """Recall memories in the session's workspace, with the caller's `types`, `tags`, `min_relevance` and
    `user_id` filters, and store them in variable `var` as a list of plain dicts (`id`, `content`, `type`,
    `importance`, `tags`, `created_at`, and `metadata`/`abstract`/`embedding` when present), ready for code in
    /execute."""
    return await through_gate(gate, caller, svc.sandboxes.load, body)


@router.post("/inject", response_model=schemas.InjectResult)
async def inject(body: InjectRequest, caller: CallerDep, svc: ServicesDep, gate: GateDep) -> dict[str, Any]:
    """Set variable `key` to a JSON value (with `parse_json`, a string of JSON parsed first; 400 `invalid_json`
    if it is not)."""
    return await through_gate(gate, caller, svc.sandboxes.inject, body)


@router.post("/query", response_model=schemas.QueryResult)
async def query(body: QueryRequest, caller: CallerDep, svc: ServicesDep, gate: GateDep) -> dict[str, Any]:
    """Ask the configured LLM `prompt` about the named variables (rendered by the sandbox, within
    `max_context_chars`); `result_var` also stores the answer. 403 `generation_not_allowed` without an LLM or
    under the deterministic policy."""
    return await through_gate(gate, caller, svc.sandboxes.query, body)


@router.post("/rlm", response_model=schemas.RlmResult)
async def rlm(body: RlmRequest, caller: CallerDep, svc: ServicesDep, gate: GateDep) -> dict[str, Any]:
    """A recursive-language-model loop: optionally load memories for `memory_query` into `_memories`, then let
    the LLM write code, run it in the sandbox like any caller code, and judge the output, until the code sets
    `_goal_achieved`, the LLM says ACHIEVED or FAILED, or the iteration, time or LLM-call ceiling is reached.
    403 `generation_not_allowed` without an LLM."""
    return await through_gate(gate, caller, svc.sandboxes.rlm, body)


@router.get("/status", response_model=schemas.SandboxStatus)
def status(caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """Whether the session has a sandbox, its variables, size and limits. Reads the row only: never creates a
    sandbox or runs code. Read-only keys may call it."""
    return svc.sandboxes.status(caller)


@router.post("/checkpoint", status_code=204)
def checkpoint(caller: CallerDep, svc: ServicesDep) -> Response:
    """Mark the sandbox's state checkpointed and record a `sandbox_checkpoint` context event, which the
    session's /context-delta shows in `sandbox_changes` (the state itself is always durable: it lives in
    Postgres). A session without a sandbox: nothing to do, still 204."""
    svc.sandboxes.checkpoint(caller)
    return Response(status_code=204)


@router.delete("/cleanup", status_code=204)
def cleanup(caller: CallerDep, svc: ServicesDep) -> Response:
    """Delete the session's sandbox and its variables now (deleting or expiring the session does it too)."""
    svc.sandboxes.cleanup(caller)
    return Response(status_code=204)
