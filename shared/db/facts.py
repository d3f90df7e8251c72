"""SQL for facts: memories with a ``fact_key`` (subject + predicate), one live value each, older values kept
as history. The extraction writer and session commit write them; the LLM extractor reads them back.

>>> with db.transaction() as conn:                                                 # doctest: +SKIP
...     lock_writer(conn, "ws_a", "user_1")
...     current(conn, "ws_a", fact_key)
"""

from __future__ import annotations

from shared.db.rows import Connection


def lock_writer(conn: Connection, workspace_id: str, user_id: str | None) -> None:
    """Serialise fact writes per (workspace, user) for this transaction: two writers of one fact queue."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", (f"{workspace_id}\x1f{user_id or ''}",)
    )


def current(conn: Connection, workspace_id: str, fact_key: str) -> dict | None:
    """The live memory holding ``fact_key`` (id and metadata), newest if several."""
    return conn.execute(
        "SELECT id, metadata FROM memories WHERE workspace_id = %s AND fact_key = %s "
        "AND valid_to IS NULL AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1",
        (workspace_id, fact_key),
    ).fetchone()


def supersede(conn: Connection, workspace_id: str, memory_id: str, by: str) -> None:
    """End ``memory_id``'s validity now: ``by`` replaces it (the row stays as history)."""
    conn.execute(
        "UPDATE memories SET valid_to = now(), superseded_by = %s, revision = revision + 1, updated_at = now() "
        "WHERE id = %s AND workspace_id = %s",
        (by, memory_id, workspace_id),
    )


def known(conn: Connection, workspace_id: str, user_id: str | None, limit: int = 30) -> list[str]:
    """The contents of a user's live facts, most recently updated first (context for the LLM extractor)."""
    rows = conn.execute(
        "SELECT content FROM memories WHERE workspace_id = %s AND coalesce(user_id, '') = %s "
        "AND fact_key IS NOT NULL AND valid_to IS NULL AND deleted_at IS NULL "
        "ORDER BY updated_at DESC LIMIT %s",
        (workspace_id, user_id or "", limit),
    ).fetchall()
    return [r["content"] for r in rows]
