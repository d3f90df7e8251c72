"""SQL for contradictions (migration 0041): the scan's reads and records, the unresolved list, resolution.

>>> with db.transaction() as conn:                                             # doctest: +SKIP
...     row = insert(conn, "ws_a", {"id": "contra_1", "memory_a_id": "mem_a", "memory_b_id": "mem_b", ...})
"""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from shared.db.rows import Connection, one
from shared.db.scope import Scope

COLUMNS = (
    "id, workspace_id, memory_a_id, memory_b_id, contradiction_type, confidence, detection_method, "
    "newer_memory_id, detected_at, resolved_at, resolution, merged_content"
)
# Both memories still live: once either is deleted or superseded there is nothing left to resolve.
_BOTH_LIVE = (
    "EXISTS (SELECT 1 FROM memories m WHERE m.id = c.memory_a_id AND m.deleted_at IS NULL AND m.valid_to IS NULL) "
    "AND EXISTS (SELECT 1 FROM memories m WHERE m.id = c.memory_b_id AND m.deleted_at IS NULL AND m.valid_to IS NULL)"
)


def statements(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """The scan's input: live memories newest first (at most ``limit`` + 1, the extra one says there are more),
    their content cut to 2,000 characters."""
    return conn.execute(
        "SELECT id, left(content, 2000) AS content, created_at, user_id, metadata FROM memories "
        "WHERE workspace_id = %s AND deleted_at IS NULL AND valid_to IS NULL "
        "ORDER BY created_at DESC, id LIMIT %s + 1",
        (workspace_id, limit),
    ).fetchall()


def asserted(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """``contradicts`` associations between two live memories: contradictions someone stated."""
    return conn.execute(
        "SELECT a.source_id, a.target_id, a.strength, s.created_at AS source_created_at, "
        "t.created_at AS target_created_at FROM associations a "
        "JOIN memories s ON s.id = a.source_id AND s.deleted_at IS NULL AND s.valid_to IS NULL "
        "JOIN memories t ON t.id = a.target_id AND t.deleted_at IS NULL AND t.valid_to IS NULL "
        "WHERE a.workspace_id = %s AND a.relationship = 'contradicts' ORDER BY a.created_at, a.id LIMIT %s",
        (workspace_id, limit),
    ).fetchall()


def insert(conn: Connection, workspace_id: str, row: dict[str, Any]) -> dict | None:
    """Record a pair; None when the pair (either way round) is already recorded, resolved or not."""
    return conn.execute(
        "INSERT INTO contradictions (id, workspace_id, memory_a_id, memory_b_id, contradiction_type, confidence, "
        "detection_method, newer_memory_id) VALUES (%(id)s, %(ws)s, %(memory_a_id)s, %(memory_b_id)s, "
        "%(contradiction_type)s, %(confidence)s, %(detection_method)s, %(newer_memory_id)s) "
        f"ON CONFLICT DO NOTHING RETURNING {COLUMNS}",
        {**row, "ws": workspace_id},
    ).fetchone()


def insert_many(conn: Connection, workspace_id: str, rows: list[dict[str, Any]]) -> list[dict]:
    """Record pairs in one statement; the rows written come back (a pair already recorded either way round,
    resolved or not, or twice in ``rows``, is not)."""
    if not rows:
        return []
    return conn.execute(
        "INSERT INTO contradictions (id, workspace_id, memory_a_id, memory_b_id, contradiction_type, confidence, "
        "detection_method, newer_memory_id) SELECT r.id, %s, r.memory_a_id, r.memory_b_id, r.contradiction_type, "
        "r.confidence, r.detection_method, r.newer_memory_id FROM ROWS FROM (jsonb_to_recordset(%s) AS "
        "(id text, memory_a_id text, memory_b_id text, contradiction_type text, confidence float8, "
        "detection_method text, newer_memory_id text)) WITH ORDINALITY AS r(id, memory_a_id, memory_b_id, "
        "contradiction_type, confidence, detection_method, newer_memory_id, ord) ORDER BY r.ord "
        f"ON CONFLICT DO NOTHING RETURNING {COLUMNS}",
        (workspace_id, Jsonb(rows)),
    ).fetchall()


def unresolved(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """Unresolved contradictions between two live memories, newest first."""
    return conn.execute(
        f"SELECT {COLUMNS} FROM contradictions c WHERE c.workspace_id = %s AND c.resolved_at IS NULL "
        f"AND {_BOTH_LIVE} ORDER BY c.detected_at DESC, c.id LIMIT %s",
        (workspace_id, limit),
    ).fetchall()


def get(conn: Connection, scope: Scope, contradiction_id: str, *, for_update: bool = False) -> dict | None:
    where, params = scope.clause("c.workspace_id")
    lock = " FOR UPDATE" if for_update else ""
    return conn.execute(
        f"SELECT {COLUMNS} FROM contradictions c WHERE c.id = %s AND {where}{lock}",
        [contradiction_id, *params],
    ).fetchone()


def resolve(
    conn: Connection, workspace_id: str, contradiction_id: str, resolution: str, merged_content: str | None
) -> dict:
    return one(
        conn.execute(
            "UPDATE contradictions SET resolution = %s, merged_content = %s, resolved_at = now() "
            f"WHERE id = %s AND workspace_id = %s RETURNING {COLUMNS}",
            (resolution, merged_content, contradiction_id, workspace_id),
        ).fetchone()
    )
