"""SQL for representations: the live memories one user holds in the tenant's user space (every call names the
workspace, here that space)."""

from __future__ import annotations

from shared.db.rows import Connection


def user_memories(conn: Connection, user_space: str, user_id: str, *, limit: int) -> list[dict]:
    """The user's current memories in ``user_space``, newest event first (``created_at`` without one)."""
    return conn.execute(
        "SELECT id, content, subtype, metadata, event_time, created_at FROM memories "
        "WHERE workspace_id = %s AND user_id = %s AND deleted_at IS NULL AND valid_to IS NULL "
        "AND status <> 'archived' ORDER BY coalesce(event_time, created_at) DESC, created_at DESC, id LIMIT %s",
        (user_space, user_id, limit),
    ).fetchall()
