"""SQL for ``Idempotency-Key`` records of memory writes (one per workspace and key).

>>> with db.transaction() as conn:                                        # doctest: +SKIP
...     lock(conn, "ws_a", "key-1") or record(conn, "ws_a", "key-1", request_hash, "mem_1")
"""

from __future__ import annotations

from shared.db.rows import Connection


def lock(conn: Connection, workspace_id: str, key: str) -> dict | None:
    """The record (``request_hash``, ``memory_id``) for this key, locked for the transaction; None if new."""
    return conn.execute(
        "SELECT request_hash, memory_id FROM idempotency_records WHERE workspace_id = %s AND key = %s FOR UPDATE",
        (workspace_id, key),
    ).fetchone()


def record(conn: Connection, workspace_id: str, key: str, request_hash: str, memory_id: str) -> None:
    conn.execute(
        "INSERT INTO idempotency_records (workspace_id, key, request_hash, memory_id) VALUES (%s, %s, %s, %s)",
        (workspace_id, key, request_hash, memory_id),
    )
