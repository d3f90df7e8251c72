"""A session's life: create, get, list, touch, slide (``X-Session-ID``), retire.

Ids are unique per workspace: a live id of the workspace is a 409, an expired one is retired first; an id
the client sends is looked up in a ``Scope`` (the caller's workspaces), where it may match more than once.

    >>> session, working = create(svc, "ws_a", SessionCreate(ttl_seconds=60))    # doctest: +SKIP
    >>> get(svc, Scope.of("ws_a"), session["id"])["workspace_id"]                # doctest: +SKIP
    'ws_a'
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from shared.core.errors import Conflict
from shared.core.tenants import DEFAULT_TENANT
from shared.db import sessions as repo
from shared.db import workspaces as ws_repo
from shared.db.scope import Scope
from shared.domain.sessions import working
from shared.domain.sessions.commit import commit_session
from shared.domain.sessions.lookup import AMBIGUOUS, find
from shared.domain.sessions.requests import SessionCreate, WorkingMemoryItem

if TYPE_CHECKING:
    from shared.domain.sessions.parts import SessionParts


def create(
    svc: SessionParts, workspace_id: str, body: SessionCreate, *, tenant_id: str = DEFAULT_TENANT
) -> tuple[dict, list[dict]]:
    """A new session and its initial working memory."""
    session_id = body.session_id or f"sess_{uuid.uuid4().hex}"
    entries = [WorkingMemoryItem(key=k, value=v) for k, v in (body.working_memory or {}).items()]
    working.check_values(svc, entries)
    for _attempt in range(2):
        now = svc.clock()
        row = {
            "id": session_id,
            "workspace_id": workspace_id,
            "context_id": body.context_id or "_default",
            "user_id": body.user_id,
            "metadata": body.metadata,
            "auto_commit": body.auto_commit,
            "expires_at": now + timedelta(seconds=body.ttl_seconds),
            "now": now,
        }
        with svc.db.transaction() as conn:
            # A new workspace belongs to the creator's tenant (as a first remember makes it).
            ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
            ws_repo.ensure_default_context(conn, workspace_id)
            created = repo.insert_session(conn, row)
            if created is not None:
                return created, working.write(conn, created, entries, now)
            existing = repo.session_row(conn, workspace_id, session_id)
        if existing is not None and existing["expires_at"] > now:
            raise Conflict(f"session {session_id} already exists", code="session_exists")
        if existing is not None:
            retire(svc, existing)
    raise Conflict(f"session {session_id} is being recreated concurrently", code="session_exists")


def get(svc: SessionParts, scope: Scope, session_id: str) -> dict:
    """A live session; an expired one is gone (404) even before cleanup removes it."""
    with svc.db.connection() as conn:
        return find(conn, scope, session_id, now=svc.clock())


def list_sessions(
    svc: SessionParts, workspace_id: str, *, context_id: str | None, include_expired: bool
) -> list[dict]:
    with svc.db.connection() as conn:
        return repo.list_sessions(
            conn, workspace_id, context_id=context_id, include_expired=include_expired, now=svc.clock()
        )


def touch(svc: SessionParts, scope: Scope, session_id: str, extend_seconds: int | None) -> datetime:
    """Set the expiry to now + ``extend_seconds`` (default: the touch TTL)."""
    now = svc.clock()
    seconds = extend_seconds or svc.settings.session_touch_ttl_s
    with svc.db.transaction() as conn:
        session = find(conn, scope, session_id, now=now, for_update=True)
        updated = repo.set_expiry(
            conn, session["workspace_id"], session_id, now + timedelta(seconds=seconds), now
        )
        assert updated is not None  # the row is locked above
        return updated["expires_at"]


def slide(svc: SessionParts, scope: Scope, session_id: str, *, write: bool = True) -> str | None:
    """``X-Session-ID``: keep the caller's live session alive for the touch TTL (never shortens it) and
    return its workspace; None when the scope holds no such live session, whoever else may hold the id.
    ``write=False`` (a read-only key) only finds it: keeping a session alive is a write.

    ``scope`` must already be the authorized caller's workspaces: this writes. An id found in two of them
    is a 409 and slides neither (the transaction rolls back)."""
    now = svc.clock()
    until = now + timedelta(seconds=svc.settings.session_touch_ttl_s)
    with svc.db.transaction() as conn:
        if write:
            rows = repo.slide(conn, scope, session_id, now=now, until=until)
        else:
            rows = repo.find_sessions(conn, scope, session_id, now=now)
        if len(rows) > 1:
            raise Conflict(AMBIGUOUS.format(id=session_id), code="session_ambiguous")
    return rows[0]["workspace_id"] if rows else None


def retire(svc: SessionParts, session: dict) -> None:
    """Commit first when the session auto-commits, then remove it with its working memory."""
    if session["auto_commit"]:
        commit_session(svc, session, max_memories=None)
    with svc.db.transaction() as conn:
        repo.delete_session(conn, session["workspace_id"], session["id"])
