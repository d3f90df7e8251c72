"""/v1/sessions/{sid}/context-pack and /context-delta: what a model should know now, and what changed since.

Served by their own Lambda (functions/context); the other session routes are in sessions.py.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from shared.api.deps import CallerDep, ServicesDep
from shared.sessions.models import ContextDeltaRequest, ContextPackRequest

router = APIRouter(prefix="/v1/sessions", tags=["context"])


@router.post("/{session_id}/context-pack")
def context_pack(
    session_id: str, caller: CallerDep, svc: ServicesDep, body: ContextPackRequest | None = None
) -> dict[str, Any]:
    return svc.context.pack(caller.lookup_scope(), session_id, body or ContextPackRequest())


@router.post("/{session_id}/context-delta")
def context_delta(
    session_id: str, body: ContextDeltaRequest, caller: CallerDep, svc: ServicesDep
) -> dict[str, Any]:
    return svc.context.delta(caller.lookup_scope(), session_id, body)
