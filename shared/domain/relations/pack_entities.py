"""Context packs resolve entities: the memories that are live evidence of the named
entities' relations.

    >>> rows, resolved = entity_memories(db, "ws_a", [], ["PLAT-77"], limit=10)        # doctest: +SKIP
"""

from __future__ import annotations

from shared.db import relations as repo
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
        rows = repo.evidence_memories(conn, workspace_id, sorted(ids), limit)
    return rows, len(ids)
