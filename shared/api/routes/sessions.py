"""/v1/sessions: sessions, briefing, working memory, commit, touch, checkpoints (context packs: context.py).

Every read enforces the session's TTL: an expired session is a 404 even before cleanup removes it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from shared.api.deps import CallerDep, ServicesDep
from shared.memories import serialize
from shared.sessions.models import CheckpointCreate, CommitOptions, SessionCreate, WorkingMemorySet
from shared.sessions.serialize import checkpoint_out, session_out, working_out

router = APIRouter(prefix="/v1/sessions", tags=["sessions"])


@router.post("", status_code=201)
def create_session(body: SessionCreate, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    workspace_id = caller.workspace(body.workspace_id)
    row, _working = svc.sessions.create(workspace_id, body, tenant_id=caller.tenant_id)
    briefing = None
    if body.briefing:
        options = body.briefing_options or {}
        lookback = int(options.get("lookback_minutes") or 60 * int(options.get("lookback_hours") or 1))
        briefing = svc.sessions.briefing(
            workspace_id, lookback_minutes=lookback, limit=int(options.get("limit", 10))
        )
    session = session_out(row)
    # Flat too: the sync SDK 0.2.1 builds `Session(**data)` from the top level (the async one unwraps).
    return {"session": session, "briefing": briefing, **session}


@router.get("")
def list_sessions(
    caller: CallerDep, svc: ServicesDep, context_id: str | None = None, include_expired: bool = False
) -> dict[str, Any]:
    rows = svc.sessions.list(caller.workspace(), context_id=context_id, include_expired=include_expired)
    return {"sessions": [session_out(r) for r in rows], "total_count": len(rows)}


@router.get("/briefing")
def briefing(
    caller: CallerDep,
    svc: ServicesDep,
    lookback_minutes: Annotated[int, Query(ge=1, le=60 * 24 * 365)] = 60,
    detail_level: Annotated[str, Query(pattern="^(abstract|overview|full)$")] = "abstract",
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    include_memories: bool = True,
    include_contradictions: bool = True,
) -> dict[str, Any]:
    body = svc.sessions.briefing(
        caller.workspace(),
        lookback_minutes=lookback_minutes,
        limit=limit,
        include_memories=include_memories,
        include_contradictions=include_contradictions,
    )
    # Wrapped for the API, flat too: SDK 0.2.1 builds `SessionBriefing(**data)` from the top level.
    return {"briefing": body, **body}


@router.get("/{session_id}")
def get_session(session_id: str, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    session = session_out(svc.sessions.get(caller.lookup_scope(), session_id))
    return {"session": session, **session}  # flat as well: SDK 0.2.1 does `Session(**data)`


@router.delete("/{session_id}", status_code=204)
def delete_session(session_id: str, caller: CallerDep, svc: ServicesDep) -> Response:
    svc.sessions.delete(caller.lookup_scope(), session_id)
    return Response(status_code=204)


@router.post("/{session_id}/touch")
def touch(
    session_id: str,
    caller: CallerDep,
    svc: ServicesDep,
    extend_seconds: Annotated[int | None, Query(ge=1, le=7 * 86400)] = None,
) -> dict[str, Any]:
    return {
        "expires_at": serialize.iso(svc.sessions.touch(caller.lookup_scope(), session_id, extend_seconds))
    }


@router.post("/{session_id}/memory", status_code=201)
def set_working_memory(
    session_id: str, body: WorkingMemorySet, caller: CallerDep, svc: ServicesDep
) -> dict[str, Any]:
    rows = svc.sessions.set_working(caller.lookup_scope(), session_id, body.entries())
    if body.key is not None:
        return working_out(rows[0])
    return {"items": [working_out(r) for r in rows], "total_count": len(rows)}


@router.get("/{session_id}/memory")
def get_working_memory(
    session_id: str, caller: CallerDep, svc: ServicesDep, key: str | None = None
) -> dict[str, Any]:
    # The SDK sends several keys as one CSV value (`?key=a,b`).
    keys = [k.strip() for k in key.split(",") if k.strip()] if key else None
    return svc.sessions.get_working(caller.lookup_scope(), session_id, keys or None)


@router.post("/{session_id}/commit")
def commit(
    session_id: str, caller: CallerDep, svc: ServicesDep, body: CommitOptions | None = None
) -> dict[str, Any]:
    return svc.sessions.commit(caller.lookup_scope(), session_id, body)


@router.post("/{session_id}/checkpoints", status_code=201)
def create_checkpoint(
    session_id: str, body: CheckpointCreate, caller: CallerDep, svc: ServicesDep
) -> JSONResponse:
    row = svc.sessions.capture(caller.lookup_scope(), session_id, body)
    return JSONResponse(checkpoint_out(row), status_code=201)


@router.get("/{session_id}/checkpoints/{checkpoint_id}")
def get_checkpoint(
    session_id: str, checkpoint_id: str, caller: CallerDep, svc: ServicesDep
) -> dict[str, Any]:
    return checkpoint_out(svc.sessions.checkpoint(caller.lookup_scope(), session_id, checkpoint_id))
