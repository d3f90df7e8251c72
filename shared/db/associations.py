"""SQL for typed associations between memories of one workspace.

>>> with db.transaction() as conn:                                           # doctest: +SKIP
...     edge, created = create(conn, "ws_a", "assoc_1", "mem_a", "mem_b", "causes", 0.7, {})
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

COLUMNS = "id, workspace_id, source_id, target_id, relationship, strength, metadata, created_at"


def create(
    conn: psycopg.Connection,
    workspace_id: str,
    association_id: str,
    source_id: str,
    target_id: str,
    relationship: str,
    strength: float,
    metadata: dict[str, Any],
) -> tuple[dict, bool]:
    """Idempotent on (source, target, relationship): the existing edge comes back with ``False``."""
    row = conn.execute(
        f"INSERT INTO associations (id, workspace_id, source_id, target_id, relationship, strength, metadata) "
        f"VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (source_id, target_id, relationship) DO NOTHING "
        f"RETURNING {COLUMNS}",
        (association_id, workspace_id, source_id, target_id, relationship, strength, Jsonb(metadata)),
    ).fetchone()
    if row:
        return row, True
    existing = conn.execute(
        f"SELECT {COLUMNS} FROM associations WHERE source_id = %s AND target_id = %s AND relationship = %s",
        (source_id, target_id, relationship),
    ).fetchone()
    return existing, False


def list_for(
    conn: psycopg.Connection, workspace_id: str, memory_id: str, *, direction: str, relationships: list[str]
) -> list[dict]:
    sides = {"outgoing": "source_id = %(m)s", "incoming": "target_id = %(m)s"}
    side = sides.get(direction, "(source_id = %(m)s OR target_id = %(m)s)")
    rel = "AND relationship = ANY(%(rels)s)" if relationships else ""
    return conn.execute(
        f"SELECT {COLUMNS} FROM associations WHERE workspace_id = %(ws)s AND {side} {rel} ORDER BY created_at, id",
        {"ws": workspace_id, "m": memory_id, "rels": relationships},
    ).fetchall()


def update(
    conn: psycopg.Connection, workspace_id: str, memory_id: str, association_id: str, changes: dict
) -> bool:
    sets, params = [], []
    if changes.get("strength") is not None:
        sets.append("strength = %s")
        params.append(changes["strength"])
    if changes.get("metadata") is not None:
        sets.append("metadata = %s")
        params.append(Jsonb(changes["metadata"]))
    if not sets:
        sets.append("strength = strength")
    cur = conn.execute(
        f"UPDATE associations SET {', '.join(sets)} WHERE id = %s AND workspace_id = %s "
        "AND (source_id = %s OR target_id = %s)",
        [*params, association_id, workspace_id, memory_id, memory_id],
    )
    return cur.rowcount > 0


def delete(conn: psycopg.Connection, workspace_id: str, memory_id: str, association_id: str) -> bool:
    cur = conn.execute(
        "DELETE FROM associations WHERE id = %s AND workspace_id = %s AND (source_id = %s OR target_id = %s)",
        (association_id, workspace_id, memory_id, memory_id),
    )
    return cur.rowcount > 0


def edges_from(
    conn: psycopg.Connection,
    workspace_id: str,
    memory_ids: list[str],
    *,
    direction: str,
    relationships: list[str],
    min_strength: float,
) -> list[dict]:
    """All edges touching ``memory_ids`` (one hop), for graph traversal; edges to deleted memories are skipped."""
    sides = {
        "outgoing": "a.source_id = ANY(%(ids)s)",
        "incoming": "a.target_id = ANY(%(ids)s)",
        "both": "(a.source_id = ANY(%(ids)s) OR a.target_id = ANY(%(ids)s))",
    }
    rel = "AND a.relationship = ANY(%(rels)s)" if relationships else ""
    return conn.execute(
        f"SELECT a.id, a.workspace_id, a.source_id, a.target_id, a.relationship, a.strength, a.metadata, "
        f"a.created_at FROM associations a "
        f"JOIN memories s ON s.id = a.source_id AND s.deleted_at IS NULL "
        f"JOIN memories t ON t.id = a.target_id AND t.deleted_at IS NULL "
        f"WHERE a.workspace_id = %(ws)s AND {sides[direction]} {rel} AND a.strength >= %(min)s "
        f"ORDER BY a.strength DESC, a.id",
        {"ws": workspace_id, "ids": memory_ids, "rels": relationships, "min": min_strength},
    ).fetchall()
