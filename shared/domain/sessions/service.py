"""The session service: one object per process that the routes call; each concern lives in its own module.

    >>> svc = SessionService(db, embedder, settings)                                  # doctest: +SKIP
    >>> session, _ = svc.create("ws_a", SessionCreate(working_memory={"goal": "fix redis"}))  # doctest: +SKIP
    >>> svc.commit(Scope.of("ws_a"), session["id"])["memories_created"]             # doctest: +SKIP
    1

Where things are: ``lifecycle`` (create, get, list, touch, slide, retire), ``lookup`` (the one session an id
names), ``working`` (working memory), ``commit`` (working memory → memories), ``checkpoints`` (transcript
segments), ``briefing``, ``expiry`` (the cleanup sweep); their SQL is in ``shared/db/sessions.py``.

Time comes from ``clock`` (UTC ``datetime.now`` by default): every expiry check passes it to SQL, so a test
moves time by swapping the clock instead of sleeping.
"""

from __future__ import annotations

import builtins
from datetime import datetime
from typing import Any

from shared.core.settings import Settings
from shared.core.tenants import DEFAULT_TENANT
from shared.db.pool import Database
from shared.db.scope import Scope
from shared.domain.retrieval.budget import DetailLevel
from shared.domain.sessions import briefing, checkpoints, commit, expiry, lifecycle, working
from shared.domain.sessions.parts import Clock, SessionParts, utcnow
from shared.domain.sessions.requests import CheckpointCreate, CommitOptions, SessionCreate, WorkingMemoryItem
from shared.providers.embeddings.base import Embedder


class SessionService(SessionParts):
    def __init__(
        self, db: Database, embedder: Embedder, settings: Settings, *, clock: Clock = utcnow
    ) -> None:
        super().__init__(db, embedder, settings, clock)

    # sessions
    def create(
        self, workspace_id: str, body: SessionCreate, *, tenant_id: str = DEFAULT_TENANT
    ) -> tuple[dict, list[dict]]:
        return lifecycle.create(self, workspace_id, body, tenant_id=tenant_id)

    def get(self, scope: Scope, session_id: str) -> dict:
        return lifecycle.get(self, scope, session_id)

    def list(
        self, workspace_id: str, *, context_id: str | None = None, include_expired: bool = False
    ) -> list[dict]:
        return lifecycle.list_sessions(
            self, workspace_id, context_id=context_id, include_expired=include_expired
        )

    def delete(self, scope: Scope, session_id: str) -> None:
        lifecycle.retire(self, lifecycle.get(self, scope, session_id))

    def touch(self, scope: Scope, session_id: str, extend_seconds: int | None = None) -> datetime:
        return lifecycle.touch(self, scope, session_id, extend_seconds)

    def slide(self, scope: Scope, session_id: str, *, write: bool = True) -> str | None:
        return lifecycle.slide(self, scope, session_id, write=write)

    # working memory
    def set_working(
        self, scope: Scope, session_id: str, entries: builtins.list[WorkingMemoryItem]
    ) -> builtins.list[dict]:
        return working.set_entries(self, scope, session_id, entries)

    def get_working(self, scope: Scope, session_id: str, keys: builtins.list[str] | None) -> dict[str, Any]:
        return working.get_values(self, scope, session_id, keys)

    # commit, checkpoints, briefing, cleanup
    def commit(self, scope: Scope, session_id: str, options: CommitOptions | None = None) -> dict[str, Any]:
        session = lifecycle.get(self, scope, session_id)
        return commit.commit_session(self, session, max_memories=(options or CommitOptions()).max_memories)

    def capture(self, scope: Scope, session_id: str, body: CheckpointCreate) -> dict:
        return checkpoints.capture(self, scope, session_id, body)

    def checkpoint(self, scope: Scope, session_id: str, checkpoint_id: str) -> dict:
        return checkpoints.get_checkpoint(self, scope, session_id, checkpoint_id)

    def briefing(
        self,
        workspace_id: str,
        *,
        lookback_minutes: int = 60,
        limit: int = 10,
        include_memories: bool = True,
        include_contradictions: bool = True,
        detail_level: DetailLevel = "abstract",
    ) -> dict[str, Any]:
        return briefing.briefing(
            self,
            workspace_id,
            lookback_minutes=lookback_minutes,
            limit=limit,
            include_memories=include_memories,
            include_contradictions=include_contradictions,
            detail_level=detail_level,
        )

    def cleanup(self) -> dict[str, int]:
        return expiry.sweep(self)
