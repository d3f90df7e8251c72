"""Finding the one live session an id names within the caller's workspaces.

>>> with db.connection() as conn:                                                # doctest: +SKIP
...     find(conn, Scope.of("ws_a"), "sess_1", now=datetime.now(UTC))["workspace_id"]
'ws_a'
"""

from __future__ import annotations

from datetime import datetime

from shared.core.errors import Conflict, NotFound
from shared.db import sessions as repo
from shared.db.rows import Connection
from shared.db.scope import Scope

AMBIGUOUS = "session {id} exists in more than one of your workspaces: name the workspace (X-Workspace-ID or ?workspace_id)"


def find(conn: Connection, scope: Scope, session_id: str, *, now: datetime, for_update: bool = False) -> dict:
    """The one live session with this id in the scope. Missing, expired and another tenant's are the same
    404 (the scope holds only the caller's workspaces, so nothing outside them can show); the id in two of
    the caller's own workspaces is a 409 until the request names one."""
    rows = repo.find_sessions(conn, scope, session_id, now=now, for_update=for_update)
    if not rows:
        raise NotFound(f"session {session_id} not found or expired", code="session_not_found")
    if len(rows) > 1:
        raise Conflict(AMBIGUOUS.format(id=session_id), code="session_ambiguous")
    return rows[0]
