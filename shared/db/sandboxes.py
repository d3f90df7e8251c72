"""SQL of the context environment's sandboxes (migration 0017). The state column is opaque bytes here.

>>> with db.transaction() as conn:                                  # doctest: +SKIP
...     row = sandboxes.find(conn, "ws_a", "sess_1")                # None: no sandbox yet
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from shared.db.rows import Connection, one

COLUMNS = (
    "workspace_id, session_id, key_id, state_bytes, variables, exec_count, created_at, updated_at, "
    "last_exec_at, checkpointed_at"
)


def find(conn: Connection, workspace_id: str, session_id: str, *, with_state: bool = False) -> dict | None:
    """The sandbox row (``state`` only when asked: /status and /inspect never need the bytes)."""
    columns = COLUMNS + (", state" if with_state else "")
    return conn.execute(
        f"SELECT {columns} FROM context_sandboxes WHERE workspace_id = %s AND session_id = %s",
        (workspace_id, session_id),
    ).fetchone()


def lock(conn: Connection, workspace_id: str, session_id: str) -> dict | None:
    """The row with its state, locked: executions of one session run one after the other."""
    return conn.execute(
        f"SELECT {COLUMNS}, state FROM context_sandboxes WHERE workspace_id = %s AND session_id = %s FOR UPDATE",
        (workspace_id, session_id),
    ).fetchone()


def save(
    conn: Connection,
    workspace_id: str,
    session_id: str,
    key_id: str,
    *,
    state: bytes,
    variables: dict[str, Any],
    executed: bool,
    now: datetime,
) -> dict:
    """Insert or replace the state; ``executed`` counts the call in ``exec_count``."""
    return one(
        conn.execute(
            "INSERT INTO context_sandboxes (workspace_id, session_id, key_id, state, state_bytes, variables, "
            "exec_count, created_at, updated_at, last_exec_at) "
            "VALUES (%(ws)s, %(sid)s, %(key)s, %(state)s, %(size)s, %(vars)s, %(count)s, %(now)s, %(now)s, %(last)s) "
            "ON CONFLICT (workspace_id, session_id) DO UPDATE SET state = EXCLUDED.state, "
            "state_bytes = EXCLUDED.state_bytes, variables = EXCLUDED.variables, "
            "exec_count = context_sandboxes.exec_count + EXCLUDED.exec_count, updated_at = EXCLUDED.updated_at, "
            "last_exec_at = coalesce(EXCLUDED.last_exec_at, context_sandboxes.last_exec_at) "
            f"RETURNING {COLUMNS}",
            {
                "ws": workspace_id,
                "sid": session_id,
                "key": key_id,
                "state": state,
                "size": len(state),
                "vars": Jsonb(variables),
                "count": 1 if executed else 0,
                "now": now,
                "last": now if executed else None,
            },
        ).fetchone()
    )


def checkpoint(conn: Connection, workspace_id: str, session_id: str, now: datetime) -> bool:
    """Mark the state checkpointed and emit the ``sandbox_checkpoint`` context event (false: no sandbox)."""
    done = conn.execute(
        "UPDATE context_sandboxes SET checkpointed_at = %s WHERE workspace_id = %s AND session_id = %s",
        (now, workspace_id, session_id),
    ).rowcount
    conn.execute(
        "INSERT INTO session_context_events (workspace_id, session_id, kind, subject_id) "
        "VALUES (%s, %s, 'sandbox_checkpoint', %s)",
        (workspace_id, session_id, f"sandbox:{session_id}"),
    )
    return bool(done)


def delete(conn: Connection, workspace_id: str, session_id: str) -> bool:
    return bool(
        conn.execute(
            "DELETE FROM context_sandboxes WHERE workspace_id = %s AND session_id = %s",
            (workspace_id, session_id),
        ).rowcount
    )
