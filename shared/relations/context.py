"""Context packs resolve entities (issue 18 item 5): the memories that are live evidence of the named
entities' relations.

    >>> rows, resolved = entity_memories(db, "ws_a", [], ["PLAT-77"], limit=10)        # doctest: +SKIP
"""

from __future__ import annotations

from shared.db import relations as repo
from shared.db.memories import QUALIFIED_COLUMNS
from shared.db.pool import Database


def entity_memories(
    db: Database, workspace_id: str, entity_ids: list[str], entity_names: list[str], *, limit: int
) -> tuple[list[dict], int]:
    """(memory rows, how many entities resolved): the live memories that are active evidence of a relation of
    one of the entities (by id, or by name or alias), most confident then newest first."""
    with db.connection() as conn:
        ids = repo.active_entity_ids(conn, workspace_id, entity_ids[:8])
        ids |= {e["id"] for e in repo.resolve_names(conn, [workspace_id], entity_names[:8]).values()}
        if not ids:
            return [], 0
        rows = conn.execute(
            f"SELECT * FROM (SELECT DISTINCT ON (m.id) {QUALIFIED_COLUMNS}, v.confidence AS evidence_confidence "
            "FROM entity_relations r JOIN entity_relation_evidence v ON v.relation_id = r.id AND v.active "
            "JOIN memories m ON m.id = v.source_memory_id "
            "WHERE r.workspace_id = %(ws)s AND r.active AND (r.source_entity_id = ANY(%(ids)s) "
            "OR r.target_entity_id = ANY(%(ids)s)) AND m.workspace_id = %(ws)s AND m.deleted_at IS NULL "
            "AND m.valid_to IS NULL AND m.status = 'active' ORDER BY m.id, v.confidence DESC) x "
            "ORDER BY evidence_confidence DESC, created_at DESC, id LIMIT %(limit)s",
            {"ws": workspace_id, "ids": sorted(ids), "limit": limit},
        ).fetchall()
    return rows, len(ids)
