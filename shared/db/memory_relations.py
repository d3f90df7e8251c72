"""SQL for the typed relations one memory is evidence of (the memory console shows them when a memory is
opened). Read-only; the relations store itself is shared/db/relations.py.

>>> with db.connection() as conn:                                           # doctest: +SKIP
...     rows = relations_of_memory(conn, "ws_a", "mem_0123456789abcdef")
...     [(r["source_name"], r["relationship"], r["target_name"]) for r in rows or []]
[('Bob Lee', 'reviewed', 'PR-12')]
"""

from __future__ import annotations

from shared.db.rows import Connection

# One row per relation the memory is evidence of, however many evidence rows (explicit, pattern, adapter…) it
# holds for it; a memory without relations gives one row with a null relation id, so "no such memory" (no row
# at all) stays distinguishable from "no relations".
_SQL = """
SELECT r.id AS relation_id, r.relationship, r.confidence, r.active,
       s.id AS source_id, s.canonical_name AS source_name, s.entity_type AS source_type,
       t.id AS target_id, t.canonical_name AS target_name, t.entity_type AS target_type,
       array_agg(DISTINCT ev.evidence_kind ORDER BY ev.evidence_kind)
           FILTER (WHERE ev.id IS NOT NULL) AS evidence_kinds,
       coalesce(bool_or(ev.active), false) AS evidence_active
FROM memories m
LEFT JOIN entity_relation_evidence ev ON ev.source_memory_id = m.id AND ev.workspace_id = m.workspace_id
LEFT JOIN entity_relations r ON r.id = ev.relation_id
LEFT JOIN entities s ON s.id = r.source_entity_id
LEFT JOIN entities t ON t.id = r.target_entity_id
WHERE m.workspace_id = %s AND m.id = %s
GROUP BY r.id, s.id, t.id
ORDER BY s.canonical_name, r.relationship, t.canonical_name, r.id
LIMIT %s
"""


def relations_of_memory(
    conn: Connection, workspace_id: str, memory_id: str, limit: int = 200
) -> list[dict] | None:
    """The relations ``memory_id`` is evidence of, with both entities' names and kinds; None when the
    workspace holds no such memory (deleted memories included: their evidence is inactive, not gone)."""
    rows = conn.execute(_SQL, (workspace_id, memory_id, limit)).fetchall()
    if not rows:
        return None
    return [row for row in rows if row["relation_id"] is not None]
