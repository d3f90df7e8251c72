"""SQL for sessions, working memory, checkpoints and context events. ``now`` is always a parameter: the
service's clock decides what has expired, so tests can move time without sleeping.

A session id is unique per workspace only (migration 0012), so every call names the workspace: explicitly, or
as a ``Scope`` for lookups by an id the client sent, which may then match in more than one of its workspaces.

    >>> with db.transaction() as conn:                                       # doctest: +SKIP
    ...     find_sessions(conn, Scope.of("ws_a"), "sess_1", now=datetime.now(UTC))
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from shared.db.rows import Connection, one
from shared.db.scope import Scope

SESSION_COLUMNS = (
    "id, workspace_id, tenant_id, context_id, user_id, metadata, auto_commit, committed_at, expires_at, "
    "created_at, updated_at"
)
WORKING_COLUMNS = "workspace_id, session_id, key, value, ttl_seconds, expires_at, created_at, updated_at"
CHECKPOINT_COLUMNS = (
    "id, workspace_id, session_id, raw_memory_id, source_kind, source_sequence, source_boundary, "
    "content_hash, "
    "byte_count, capture_status, index_status, enrichment_status, idempotency_key, created_at, updated_at"
)


# ---------------------------------------------------------------- sessions
def insert_session(conn: Connection, row: dict[str, Any]) -> dict | None:
    """Insert a session; ``None`` if its workspace already has one with this id (live or expired)."""
    return conn.execute(
        f"INSERT INTO sessions (id, workspace_id, context_id, user_id, metadata, auto_commit, expires_at, "
        "created_at, updated_at) VALUES (%(id)s, %(workspace_id)s, %(context_id)s, %(user_id)s, "
        "%(metadata)s, "
        "%(auto_commit)s, %(expires_at)s, %(now)s, %(now)s) ON CONFLICT (workspace_id, id) DO NOTHING RETURNING "
        f"{SESSION_COLUMNS}",
        {**row, "metadata": Jsonb(row["metadata"])},
    ).fetchone()


def find_sessions(
    conn: Connection, scope: Scope, session_id: str, *, now: datetime, for_update: bool = False
) -> list[dict]:
    """The live sessions with this id in the scope's workspaces: none, one, or (when the scope spans several
    workspaces that each hold the id) more; the caller decides what an ambiguous id means."""
    where, params = scope.clause()
    lock = " FOR UPDATE" if for_update else ""
    return conn.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = %s AND {where} AND expires_at > %s "
        f"ORDER BY workspace_id LIMIT 2{lock}",
        [session_id, *params, now],
    ).fetchall()


def session_row(conn: Connection, workspace_id: str, session_id: str) -> dict | None:
    """The session row, live or expired (create needs to tell the two apart)."""
    return conn.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE workspace_id = %s AND id = %s",
        (workspace_id, session_id),
    ).fetchone()


def list_sessions(
    conn: Connection,
    workspace_id: str,
    *,
    context_id: str | None,
    include_expired: bool,
    now: datetime,
) -> list[dict]:
    clauses: list[str] = ["workspace_id = %s"]
    params: list[Any] = [workspace_id]
    if context_id:
        clauses.append("context_id = %s")
        params.append(context_id)
    if not include_expired:
        clauses.append("expires_at > %s")
        params.append(now)
    return conn.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE {' AND '.join(clauses)} ORDER BY created_at DESC, id "
        "LIMIT 1000",
        params,
    ).fetchall()


def slide(conn: Connection, scope: Scope, session_id: str, *, now: datetime, until: datetime) -> list[dict]:
    """Keep the live sessions with this id in the scope alive until at least ``until``: one statement, no read
    first. Only the scope's workspaces are touched: the id alone may name another tenant's session."""
    where, params = scope.clause()
    return conn.execute(
        f"UPDATE sessions SET expires_at = greatest(expires_at, %s) WHERE id = %s AND {where} "
        "AND expires_at > %s RETURNING workspace_id, expires_at",
        [until, session_id, *params, now],
    ).fetchall()


def set_expiry(
    conn: Connection, workspace_id: str, session_id: str, expires_at: datetime, now: datetime
) -> dict | None:
    return conn.execute(
        "UPDATE sessions SET expires_at = %s, updated_at = %s WHERE workspace_id = %s AND id = %s "
        "RETURNING expires_at",
        (expires_at, now, workspace_id, session_id),
    ).fetchone()


def mark_committed(conn: Connection, workspace_id: str, session_id: str, now: datetime) -> None:
    conn.execute(
        "UPDATE sessions SET committed_at = %s, updated_at = %s WHERE workspace_id = %s AND id = %s",
        (now, now, workspace_id, session_id),
    )


def delete_session(
    conn: Connection, workspace_id: str, session_id: str, *, expired_by: datetime | None = None
) -> bool:
    """Remove a session (its working memory and checkpoints cascade). With ``expired_by``, only if it is still
    expired then: cleanup must not remove a session a request has just revived."""
    expired = "" if expired_by is None else " AND expires_at <= %s"
    params: list[Any] = [workspace_id, session_id] + ([] if expired_by is None else [expired_by])
    return (
        conn.execute(f"DELETE FROM sessions WHERE workspace_id = %s AND id = %s{expired}", params).rowcount
        > 0
    )


def expired_sessions(conn: Connection, *, now: datetime, limit: int) -> list[dict]:
    """Expired sessions of every workspace (cleanup's sweep; each row names its workspace for what follows)."""
    return conn.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE expires_at <= %s ORDER BY expires_at LIMIT %s",
        (now, limit),
    ).fetchall()


def expire_working_keys(conn: Connection, now: datetime) -> int:
    """Drop expired working-memory keys of every workspace, logging a ``working_delete`` event for each."""
    return conn.execute(
        "WITH gone AS (DELETE FROM working_memory WHERE expires_at <= %s "
        "RETURNING workspace_id, session_id, key) "
        "INSERT INTO session_context_events (workspace_id, session_id, kind, subject_id) "
        "SELECT workspace_id, session_id, 'working_delete', key FROM gone",
        (now,),
    ).rowcount


# ---------------------------------------------------------------- working memory
def upsert_working(
    conn: Connection,
    workspace_id: str,
    session_id: str,
    key: str,
    value: Any,
    ttl_seconds: int | None,
    *,
    now: datetime,
    expires_at: datetime | None,
) -> dict:
    return one(
        conn.execute(
            "INSERT INTO working_memory AS w (workspace_id, session_id, key, value, ttl_seconds, expires_at, "
            "created_at, updated_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (workspace_id, session_id, key) DO UPDATE SET value = "
            "excluded.value, "
            "ttl_seconds = excluded.ttl_seconds, expires_at = excluded.expires_at, updated_at = "
            "excluded.updated_at, "
            # A key that had expired is a new key: it gets a new created_at.
            f"created_at = CASE WHEN w.expires_at IS NOT NULL AND w.expires_at <= excluded.updated_at "
            f"THEN excluded.created_at ELSE w.created_at END "
            f"RETURNING {WORKING_COLUMNS}",
            (workspace_id, session_id, key, Jsonb(value), ttl_seconds, expires_at, now, now),
        ).fetchone()
    )


def open_threads(
    conn: Connection, workspace_id: str, keys: list[str], *, now: datetime, limit: int
) -> list[dict]:
    """Live working-memory keys named like open threads (``keys``, lower case) in the workspace's live
    sessions, most recently updated first."""
    return conn.execute(
        "SELECT w.key, w.value, w.updated_at, w.session_id FROM working_memory w JOIN sessions s "
        "ON s.workspace_id = w.workspace_id AND s.id = w.session_id "
        "WHERE w.workspace_id = %(ws)s AND s.expires_at > %(now)s "
        "AND (w.expires_at IS NULL OR w.expires_at > %(now)s) AND lower(w.key) = ANY(%(keys)s) "
        "ORDER BY w.updated_at DESC LIMIT %(limit)s",
        {"ws": workspace_id, "now": now, "keys": keys, "limit": limit},
    ).fetchall()


def working(
    conn: Connection,
    workspace_id: str,
    session_id: str,
    *,
    now: datetime,
    keys: list[str] | None = None,
) -> list[dict]:
    """Live keys of a session (expired ones are invisible), in key order."""
    clauses = ["workspace_id = %s", "session_id = %s", "(expires_at IS NULL OR expires_at > %s)"]
    params: list[Any] = [workspace_id, session_id, now]
    if keys is not None:
        clauses.append("key = ANY(%s)")
        params.append(keys)
    return conn.execute(
        f"SELECT {WORKING_COLUMNS} FROM working_memory WHERE {' AND '.join(clauses)} ORDER BY key", params
    ).fetchall()


# ---------------------------------------------------------------- checkpoints
def checkpoint_by_key(
    conn: Connection, workspace_id: str, session_id: str, idempotency_key: str
) -> dict | None:
    return conn.execute(
        f"SELECT {CHECKPOINT_COLUMNS} FROM session_checkpoints "
        "WHERE workspace_id = %s AND session_id = %s AND idempotency_key = %s",
        (workspace_id, session_id, idempotency_key),
    ).fetchone()


def insert_checkpoint(conn: Connection, row: dict[str, Any]) -> dict | None:
    """Insert; ``None`` when a concurrent capture with the same idempotency key won the race."""
    fields = [c.strip() for c in CHECKPOINT_COLUMNS.split(",")]
    values = ", ".join(f"%({f})s" for f in fields)
    return conn.execute(
        f"INSERT INTO session_checkpoints ({', '.join(fields)}) VALUES ({values}) "
        f"ON CONFLICT (workspace_id, session_id, idempotency_key) DO NOTHING RETURNING {CHECKPOINT_COLUMNS}",
        row,
    ).fetchone()


def get_checkpoint(conn: Connection, workspace_id: str, session_id: str, checkpoint_id: str) -> dict | None:
    return conn.execute(
        f"SELECT {CHECKPOINT_COLUMNS} FROM session_checkpoints "
        "WHERE workspace_id = %s AND session_id = %s AND id = %s",
        (workspace_id, session_id, checkpoint_id),
    ).fetchone()


def checkpoints_by_id(
    conn: Connection, workspace_id: str, session_id: str, checkpoint_ids: list[str]
) -> list[dict]:
    return conn.execute(
        f"SELECT {CHECKPOINT_COLUMNS} FROM session_checkpoints "
        "WHERE workspace_id = %s AND session_id = %s AND id = ANY(%s)",
        (workspace_id, session_id, checkpoint_ids),
    ).fetchall()


def set_index_status(
    conn: Connection, workspace_id: str, checkpoint_id: str, status: str, now: datetime
) -> dict:
    return one(
        conn.execute(
            f"UPDATE session_checkpoints SET index_status = %s, updated_at = %s WHERE workspace_id = %s AND id = %s "
            f"RETURNING {CHECKPOINT_COLUMNS}",
            (status, now, workspace_id, checkpoint_id),
        ).fetchone()
    )


def recent_checkpoints(conn: Connection, workspace_id: str, session_id: str, limit: int) -> list[dict]:
    return conn.execute(
        f"SELECT {CHECKPOINT_COLUMNS} FROM session_checkpoints WHERE workspace_id = %s AND session_id = %s "
        "ORDER BY created_at DESC, id LIMIT %s",
        (workspace_id, session_id, limit),
    ).fetchall()


# ---------------------------------------------------------------- context events
def record_event(
    conn: Connection, workspace_id: str, session_id: str | None, kind: str, subject: str
) -> None:
    conn.execute(
        "INSERT INTO session_context_events (workspace_id, session_id, kind, subject_id) VALUES (%s, %s, "
        "%s, %s)",
        (workspace_id, session_id, kind, subject),
    )


def event_bounds(conn: Connection, workspace_id: str, session_id: str) -> tuple[int, int]:
    """(purged_through, highest sequence) of the events a session sees; both 0 when none ever existed."""
    row = one(
        conn.execute(
            "SELECT coalesce((SELECT purged_through FROM session_context_horizon WHERE workspace_id = %(ws)s), "
            "0) "
            "AS purged, coalesce((SELECT max(sequence) FROM session_context_events WHERE workspace_id = %(ws)s "
            "AND (session_id = %(sid)s OR session_id IS NULL)), 0) AS top",
            {"ws": workspace_id, "sid": session_id},
        ).fetchone()
    )
    return int(row["purged"]), max(int(row["purged"]), int(row["top"]))


def events_after(conn: Connection, workspace_id: str, session_id: str, after: int, limit: int) -> list[dict]:
    return conn.execute(
        "SELECT sequence, kind, subject_id, created_at FROM session_context_events "
        "WHERE workspace_id = %s AND (session_id = %s OR session_id IS NULL) AND sequence > %s "
        "ORDER BY sequence LIMIT %s",
        (workspace_id, session_id, after, limit),
    ).fetchall()


def purge_events(conn: Connection, before: datetime) -> int:
    """Drop events older than ``before`` and remember, per workspace, how far retention has reached."""
    row = one(
        conn.execute(
            "WITH gone AS (DELETE FROM session_context_events WHERE created_at < %s RETURNING workspace_id, "
            "sequence), "
            "horizon AS (INSERT INTO session_context_horizon AS h (workspace_id, purged_through) "
            "  SELECT workspace_id, max(sequence) FROM gone GROUP BY workspace_id "
            "  ON CONFLICT (workspace_id) DO UPDATE SET purged_through = greatest(h.purged_through, "
            "excluded.purged_through)) "
            "SELECT count(*) AS n FROM gone",
            (before,),
        ).fetchone()
    )
    return int(row["n"])
