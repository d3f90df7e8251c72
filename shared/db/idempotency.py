"""SQL for ``Idempotency-Key`` records of memory writes (one per workspace and key).

>>> with db.transaction() as conn:                                        # doctest: +SKIP
...     lock(conn, "ws_a", "key-1", 86400) or record(conn, "ws_a", "key-1", request_hash, "mem_1")
"""

from __future__ import annotations

from shared.db.rows import Connection


def lock(conn: Connection, workspace_id: str, key: str, ttl_s: int) -> dict | None:
    """The record (``request_hash``, ``memory_id``) for this key, locked for the transaction; None if new. A
    record older than ``ttl_s`` is deleted here and counts as none, whether or not the sweep has run yet."""
    conn.execute(
        "DELETE FROM idempotency_records WHERE workspace_id = %s AND key = %s "
        "AND created_at < now() - make_interval(secs => %s)",
        (workspace_id, key, ttl_s),
    )
    return conn.execute(
        "SELECT request_hash, memory_id FROM idempotency_records WHERE workspace_id = %s AND key = %s FOR UPDATE",
        (workspace_id, key),
    ).fetchone()


def record(conn: Connection, workspace_id: str, key: str, request_hash: str, memory_id: str) -> None:
    conn.execute(
        "INSERT INTO idempotency_records (workspace_id, key, request_hash, memory_id) VALUES (%s, %s, %s, %s)",
        (workspace_id, key, request_hash, memory_id),
    )


def purge(conn: Connection, ttl_s: int, limit: int) -> int:
    """Delete up to ``limit`` records older than ``ttl_s`` (oldest first, by the created_at index); how many."""
    return conn.execute(
        "DELETE FROM idempotency_records WHERE ctid = ANY(ARRAY("
        "SELECT ctid FROM idempotency_records WHERE created_at < now() - make_interval(secs => %s) "
        "ORDER BY created_at LIMIT %s))",
        (ttl_s, limit),
    ).rowcount
