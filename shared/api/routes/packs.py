"""/v1/sessions/{sid}/context-pack and /context-delta: what a model should know now, and what changed since.

Served by their own Lambda (functions/context); the other session routes are in sessions.py.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.params import SessionIdPath
from shared.domain.context_env.summary import viewer_of
from shared.domain.sessions.requests import ContextDeltaRequest, ContextPackRequest

router = APIRouter(prefix="/v1/sessions", tags=["context"])


@router.post("/{session_id}/context-pack", response_model=schemas.ContextPack)
def context_pack(
    session_id: SessionIdPath, caller: CallerDep, svc: ServicesDep, body: ContextPackRequest | None = None
) -> dict[str, Any]:
    """What a model should know now, rendered within `budget_tokens`: directives, working memory,
    contradictions, topic matches, recent activity, checkpoints. Deterministic, no LLM. The returned
    `cursor` asks /context-delta for what changed since."""
    return svc.context.pack(
        caller.lookup_scope(), session_id, body or ContextPackRequest(), viewer=viewer_of(caller.principal)
    )


@router.post("/{session_id}/context-delta", response_model=schemas.ContextDelta)
def context_delta(
    session_id: SessionIdPath, body: ContextDeltaRequest, caller: CallerDep, svc: ServicesDep
) -> dict[str, Any]:
    """What changed since `cursor` (memories, working memory, checkpoints, context-environment checkpoints in
    `sandbox_changes`; deletes as tombstones), in order and
    within `budget_tokens`, with the next cursor. An expired cursor is a 409 `cursor_expired`: take a new pack."""
    return svc.context.delta(caller.lookup_scope(), session_id, body, viewer=viewer_of(caller.principal))
