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


def mark_restatements_stale(
    conn: Connection, workspace_id: str, user_id: str | None, old_id: str, new_value: str, by: str
) -> int:
    """Mark the user's episodes that restate the superseded fact ``old_id`` and do not mention ``new_value``:
    ``stale_by`` is ``by``, the fact that replaced it (migration 0020; recall ranks them lower while it is live).
    Returns how many.

    An episode restates it when it mentions the old value (a phrase match on the text search lexemes, through
    migration 0015's GIN reader) and either is the turn the fact came from (a shared source message) or uses
    another word of the fact ("I live in Paris" for "User lives in Paris"; "my friend from Paris" does not).

    Episodes already marked by ``old_id`` (they restate a value before it: Paris, then Berlin, now Madrid) are
    marked by ``by`` instead, unless they mention ``new_value`` (moving back to Paris makes them current)."""
    carried = conn.execute(
        "UPDATE memories m SET stale_by = %(by)s WHERE m.workspace_id = %(ws)s AND m.stale_by = %(old)s "
        "AND NOT m.tsv @@ phraseto_tsquery('english', %(new)s)",
        {"by": by, "ws": workspace_id, "old": old_id, "new": new_value},
    ).rowcount
    return (
        carried
        + conn.execute(
            "UPDATE memories m SET stale_by = %(by)s "
            "FROM memories f, memorylayer_text_matches(ARRAY[%(ws)s], "
            "    phraseto_tsquery('english', (SELECT metadata->>'fact_value' FROM memories "
            "                                 WHERE id = %(old)s AND workspace_id = %(ws)s))) t "
            "WHERE f.id = %(old)s AND f.workspace_id = %(ws)s "
            "AND m.id = t.id AND m.workspace_id = %(ws)s AND m.type = 'episodic' "
            "AND coalesce(m.user_id, '') = %(user)s AND m.deleted_at IS NULL "
            "AND NOT m.tsv @@ phraseto_tsquery('english', %(new)s) "
            "AND (m.source_message_ids && f.source_message_ids OR EXISTS ("
            "    SELECT unnest(tsvector_to_array(m.tsv)) INTERSECT SELECT unnest(tsvector_to_array(f.tsv)) "
            "    EXCEPT SELECT unnest(tsvector_to_array(to_tsvector('english', f.metadata->>'fact_value'))) "
            "    EXCEPT SELECT 'user'))",
            {"by": by, "ws": workspace_id, "old": old_id, "new": new_value, "user": user_id or ""},
        ).rowcount
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
