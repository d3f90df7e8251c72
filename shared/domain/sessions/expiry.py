"""The cleanup sweep: commit (if auto_commit) and remove expired sessions, drop expired working-memory keys,
age out context events. Safe to run concurrently: commit is idempotent, and the delete re-checks expiry.

    >>> sweep(svc)                                                                   # doctest: +SKIP
    {'sessions_expired': 2, 'sessions_committed': 2, 'working_keys_expired': 0, 'events_purged': 0}
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from shared.core.errors import MemoryLayerError
from shared.db import sessions as repo
from shared.domain.sessions.commit import commit_session

if TYPE_CHECKING:
    from shared.domain.sessions.parts import SessionParts


def sweep(svc: SessionParts) -> dict[str, int]:
    now = svc.clock()
    with svc.db.connection() as conn:
        # Across workspaces by design: cleanup is the one caller with no tenant. Every step after this names
        # the row's own workspace, since the same id may live on in another one.
        expired = repo.expired_sessions(conn, now=now, limit=svc.settings.session_cleanup_batch)
    committed = removed = 0
    for session in expired:
        try:
            if session["auto_commit"]:
                commit_session(svc, session, max_memories=None)
                committed += 1
        except MemoryLayerError:
            continue  # provider down: keep the session for the next run rather than lose its memory
        with svc.db.transaction() as conn:
            removed += repo.delete_session(conn, session["workspace_id"], session["id"], expired_by=now)
    with svc.db.transaction() as conn:
        keys = repo.expire_working_keys(conn, now)
        purged = repo.purge_events(conn, now - timedelta(days=svc.settings.context_event_retention_days))
    return {
        "sessions_expired": removed,
        "sessions_committed": committed,
        "working_keys_expired": keys,
        "events_purged": purged,
    }
