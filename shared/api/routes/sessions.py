"""/v1/sessions: sessions, briefing, working memory, commit, touch, checkpoints (context packs: context.py).

Every read enforces the session's TTL: an expired session is a 404 even before cleanup removes it.
"""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import APIRouter, Query, Response

from shared.api import schemas, wire
from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.params import CheckpointIdPath, SessionIdPath
from shared.domain.retrieval.budget import DetailLevel
from shared.domain.sessions.requests import CheckpointCreate, CommitOptions, SessionCreate, WorkingMemorySet

router = APIRouter(prefix="/v1/sessions", tags=["sessions"])


@router.post("", status_code=201, response_model=schemas.SessionCreated)
def create_session(body: SessionCreate, caller: CallerDep, svc: ServicesDep) -> schemas.SessionCreated:
    """Open a session (its workspace is created if new), optionally with working memory and a briefing."""
    workspace_id = caller.workspace(body.workspace_id)
    row, _working = svc.sessions.create(workspace_id, body, tenant_id=caller.tenant_id)
    briefing = None
    if body.briefing:
        options = body.briefing_options or {}
        lookback = int(options.get("lookback_minutes") or 60 * int(options.get("lookback_hours") or 1))
        briefing = wire.briefing(
            svc.sessions.briefing(
                workspace_id, lookback_minutes=lookback, limit=int(options.get("limit", 10))
            )
        )
    session = schemas.Session.from_row(row)
    # Flat too: the sync SDK 0.2.1 builds `Session(**data)` from the top level (the async one unwraps).
    return schemas.SessionCreated.model_construct(session=session, briefing=briefing, **dict(session))


@router.get("", response_model=schemas.SessionList)
def list_sessions(
    caller: CallerDep,
    svc: ServicesDep,
    context_id: Annotated[str | None, Query(description="Only sessions in this context.")] = None,
    include_expired: Annotated[bool, Query(description="Also list expired sessions.")] = False,
) -> schemas.SessionList:
    """The workspace's sessions (live ones unless `include_expired`)."""
    rows = svc.sessions.list(caller.workspace(), context_id=context_id, include_expired=include_expired)
    return schemas.SessionList.model_construct(
        sessions=[schemas.Session.from_row(r) for r in rows], total_count=len(rows)
    )


@router.get("/briefing", response_model=schemas.BriefingEnvelope)
def briefing(
    caller: CallerDep,
    svc: ServicesDep,
    lookback_minutes: Annotated[
        int, Query(ge=1, le=60 * 24 * 365, description="How far back to look, in minutes.")
    ] = 60,
    detail_level: Annotated[
        str,
        Query(
            pattern="^(abstract|overview|full)$",
            description="abstract (default), overview or full: how much of each memory to send.",
        ),
    ] = "abstract",
    limit: Annotated[
        int,
        Query(
            ge=1,
            le=100,
            description="How many recent memories, open threads and contradictions at most (each).",
        ),
    ] = 10,
    include_memories: Annotated[bool, Query(description="Include the recent memories themselves.")] = True,
    include_contradictions: Annotated[bool, Query(description="Include unresolved contradictions.")] = True,
) -> schemas.BriefingEnvelope:
    """What happened in the workspace lately: activity, open threads, contradictions, recent memories."""
    body = wire.briefing(
        svc.sessions.briefing(
            caller.workspace(),
            lookback_minutes=lookback_minutes,
            limit=limit,
            include_memories=include_memories,
            include_contradictions=include_contradictions,
            detail_level=cast(DetailLevel, detail_level),  # the pattern admits only the three
        )
    )
    return schemas.BriefingEnvelope.of(body)


@router.get("/{session_id}", response_model=schemas.SessionEnvelope)
def get_session(session_id: SessionIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.SessionEnvelope:
    """One live session (an expired one is a 404, even before cleanup removes it)."""
    session = schemas.Session.from_row(svc.sessions.get(caller.lookup_scope(), session_id))
    # Flat as well: SDK 0.2.1 does `Session(**data)`.
    return schemas.SessionEnvelope.model_construct(session=session, **dict(session))


@router.delete("/{session_id}", status_code=204)
def delete_session(session_id: SessionIdPath, caller: CallerDep, svc: ServicesDep) -> Response:
    """End a session (committed first when `auto_commit`); its working memory goes with it."""
    svc.sessions.delete(caller.lookup_scope(), session_id)
    return Response(status_code=204)


@router.post("/{session_id}/touch", response_model=schemas.Expiry)
def touch(
    session_id: SessionIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    extend_seconds: Annotated[
        int | None,
        Query(
            ge=1, le=7 * 86400, description="New lifetime from now, in seconds (default: the session's TTL)."
        ),
    ] = None,
) -> schemas.Expiry:
    """Keep the session alive: its expiry moves to now + `extend_seconds` (default: its TTL)."""
    expires_at = svc.sessions.touch(caller.lookup_scope(), session_id, extend_seconds)
    return schemas.Expiry.model_construct(expires_at=expires_at)


@router.post(
    "/{session_id}/memory",
    status_code=201,
    response_model=schemas.WorkingMemorySetResult,
    response_model_exclude_unset=True,  # one shape of the two: the fields of the other are left unset
)
def set_working_memory(
    session_id: SessionIdPath, body: WorkingMemorySet, caller: CallerDep, svc: ServicesDep
) -> schemas.WorkingMemoryEntry | schemas.WorkingMemoryEntries:
    """Set one working-memory key (`{key, value}`: answers the entry) or several (`{items}`: answers them all)."""
    rows = svc.sessions.set_working(caller.lookup_scope(), session_id, body.entries())
    if body.key is not None:
        return schemas.WorkingMemoryEntry.from_row(rows[0])
    items = [schemas.WorkingMemoryEntry.from_row(r) for r in rows]
    return schemas.WorkingMemoryEntries.model_construct(items=items, total_count=len(rows))


@router.get("/{session_id}/memory")
def get_working_memory(
    session_id: SessionIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    key: Annotated[
        str | None, Query(description="One key, or several comma-separated (default: every key).")
    ] = None,
) -> dict[str, Any]:
    """Working memory as `{key: value}`: every key, or only `key` (a comma-separated list for several)."""
    # The SDK sends several keys as one CSV value (`?key=a,b`).
    keys = [k.strip() for k in key.split(",") if k.strip()] if key else None
    return svc.sessions.get_working(caller.lookup_scope(), session_id, keys or None)


@router.post("/{session_id}/commit", response_model=schemas.CommitResult)
def commit(
    session_id: SessionIdPath, caller: CallerDep, svc: ServicesDep, body: CommitOptions | None = None
) -> dict[str, Any]:
    """Mark the session committed and report what its working memory gave (no LLM extraction here)."""
    return svc.sessions.commit(caller.lookup_scope(), session_id, body)


@router.post("/{session_id}/checkpoints", status_code=201, response_model=schemas.Checkpoint)
def create_checkpoint(
    session_id: SessionIdPath, body: CheckpointCreate, caller: CallerDep, svc: ServicesDep
) -> schemas.Checkpoint:
    """Store a transcript segment durably, then index its lines as memories.

    `content_hash` must be the sha256 of the UTF-8 segment (else 400); a segment over the size limit is a 413.
    Idempotent per `idempotency_key`: a replay answers the same checkpoint (and retries a failed indexing); the
    same key with another segment is a 409.
    """
    return schemas.Checkpoint.from_row(svc.sessions.capture(caller.lookup_scope(), session_id, body))


@router.get("/{session_id}/checkpoints/{checkpoint_id}", response_model=schemas.Checkpoint)
def get_checkpoint(
    session_id: SessionIdPath, checkpoint_id: CheckpointIdPath, caller: CallerDep, svc: ServicesDep
) -> schemas.Checkpoint:
    """One checkpoint of the session, with its capture and index status."""
    return schemas.Checkpoint.from_row(
        svc.sessions.checkpoint(caller.lookup_scope(), session_id, checkpoint_id)
    )
