"""/v1/context/*: the context environment's per-session sandboxes, keyed by ``X-Session-ID``.

Wire-compatible with SDK 0.2.1's ``context_*`` methods; errors are real HTTP statuses (docs/context-environment.md
lists where that differs from the reference). Caller code runs in the isolated executor, never here.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from shared.api.deps import CallerDep, ServicesDep
from shared.sandbox.models import ExecuteRequest, InjectRequest, LoadRequest, QueryRequest, RlmRequest

router = APIRouter(prefix="/v1/context", tags=["context environment"])


@router.post("/execute")
def execute(body: ExecuteRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return svc.sandboxes.execute(caller, body)


@router.post("/inspect")
def inspect(
    caller: CallerDep,
    svc: ServicesDep,
    variable: Annotated[str | None, Query(max_length=128)] = None,
    preview_chars: Annotated[int, Query(ge=0, le=1000)] = 200,
) -> dict[str, Any]:
    return svc.sandboxes.inspect(caller, variable, preview_chars)


@router.post("/load")
def load(body: LoadRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return svc.sandboxes.load(caller, body)


@router.post("/inject")
def inject(body: InjectRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return svc.sandboxes.inject(caller, body)


@router.post("/query")
def query(body: QueryRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return svc.sandboxes.query(caller, body)


@router.post("/rlm")
def rlm(body: RlmRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return svc.sandboxes.rlm(caller, body)


@router.get("/status")
def status(caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return svc.sandboxes.status(caller)


@router.post("/checkpoint", status_code=204)
def checkpoint(caller: CallerDep, svc: ServicesDep) -> Response:
    svc.sandboxes.checkpoint(caller)
    return Response(status_code=204)


@router.delete("/cleanup", status_code=204)
def cleanup(caller: CallerDep, svc: ServicesDep) -> Response:
    svc.sandboxes.cleanup(caller)
    return Response(status_code=204)
