"""SQL for graph analysis: a workspace's association graph between live memories, read with its caps in the
statements (strongest edges first, at most ``limit`` + 1 rows: the extra one only says a cap cut something), and
the extra signals the densify preview adds (shared entities, the nodes' embeddings); and the knowledgebase's
graph (its active memories by id, the associations among them).

>>> with db.connection() as conn:                                              # doctest: +SKIP
...     rows = edges(conn, "ws_a", context_id=None, limit=5000)
"""

from __future__ import annotations

from shared.db.rows import Connection

# A memory is a node while it is live; a context filter keeps the nodes of that context only.
_NODE = (
    "{m}.workspace_id = %(ws)s AND {m}.deleted_at IS NULL AND {m}.valid_to IS NULL "
    "AND (%(ctx)s::text IS NULL OR {m}.context_id = %(ctx)s)"
)


def edges(conn: Connection, workspace_id: str, *, context_id: str | None, limit: int) -> list[dict]:
    """Associations between two live memories, strongest first, at most ``limit`` + 1."""
    return conn.execute(
        "SELECT a.source_id, a.target_id, a.relationship, a.strength FROM associations a "
        "JOIN memories s ON s.id = a.source_id "
        "JOIN memories t ON t.id = a.target_id "
        f"WHERE a.workspace_id = %(ws)s AND {_NODE.format(m='s')} AND {_NODE.format(m='t')} "
        "ORDER BY a.strength DESC, a.id LIMIT %(limit)s + 1",
        {"ws": workspace_id, "ctx": context_id, "limit": limit},
    ).fetchall()


def live_memories(conn: Connection, workspace_id: str, *, context_id: str | None, limit: int) -> list[dict]:
    """Live memories newest first, at most ``limit`` + 1: the nodes an edge did not bring in."""
    return conn.execute(
        f"SELECT m.id FROM memories m WHERE {_NODE.format(m='m')} ORDER BY m.created_at DESC, m.id "
        "LIMIT %(limit)s + 1",
        {"ws": workspace_id, "ctx": context_id, "limit": limit},
    ).fetchall()


def entity_evidence(conn: Connection, workspace_id: str, *, context_id: str | None, limit: int) -> list[dict]:
    """(entity_id, memory_id) for live memories that are active evidence about an entity (either end of an
    active relation), grouped by entity, at most ``limit`` + 1."""
    return conn.execute(
        "SELECT DISTINCT e.entity_id, m.id AS memory_id "
        "FROM entity_relation_evidence v JOIN entity_relations r ON r.id = v.relation_id AND r.active "
        "JOIN memories m ON m.id = v.source_memory_id "
        "CROSS JOIN LATERAL (VALUES (r.source_entity_id), (r.target_entity_id)) AS e(entity_id) "
        f"WHERE v.workspace_id = %(ws)s AND v.active AND {_NODE.format(m='m')} "
        "ORDER BY 1, 2 LIMIT %(limit)s + 1",
        {"ws": workspace_id, "ctx": context_id, "limit": limit},
    ).fetchall()


def labels(conn: Connection, workspace_id: str, memory_ids: list[str]) -> dict[str, str]:
    """The first 200 characters of each memory's content (a node's label is made from them)."""
    rows = conn.execute(
        "SELECT id, left(content, 200) AS text FROM memories WHERE workspace_id = %s AND id = ANY(%s)",
        (workspace_id, memory_ids),
    ).fetchall()
    return {r["id"]: r["text"] for r in rows}


def entity_members(conn: Connection, workspace_id: str, memory_ids: list[str]) -> list[dict]:
    """(entity_id, memory_id): the entities each memory is active evidence about (either end of a relation)."""
    return conn.execute(
        "SELECT DISTINCT e.entity_id, v.source_memory_id AS memory_id "
        "FROM entity_relation_evidence v JOIN entity_relations r ON r.id = v.relation_id "
        "CROSS JOIN LATERAL (VALUES (r.source_entity_id), (r.target_entity_id)) AS e(entity_id) "
        "WHERE v.workspace_id = %s AND v.active AND r.active AND v.source_memory_id = ANY(%s) "
        "ORDER BY 1, 2",
        (workspace_id, memory_ids),
    ).fetchall()


def embeddings(conn: Connection, workspace_id: str, memory_ids: list[str]) -> list[dict]:
    """(id, embedding) of the given memories that have one, by id: one index lookup per id in one statement
    (the preview's nearest neighbours are computed from them in memory, never pair by pair in SQL)."""
    return conn.execute(
        "SELECT id, embedding FROM memories WHERE workspace_id = %s AND id = ANY(%s) AND embedding IS NOT NULL "
        "ORDER BY id",
        (workspace_id, memory_ids),
        binary=True,
    ).fetchall()


# The knowledgebase's nodes: live memories whose status is active too.
_ACTIVE = "m.workspace_id = %(ws)s AND m.deleted_at IS NULL AND m.valid_to IS NULL AND m.status = 'active'"


def active_memories(conn: Connection, workspace_id: str, context_id: str | None, limit: int) -> list[dict]:
    """The workspace's live, active memories (of one context when named) with what an article says of them,
    oldest id first, at most ``limit``."""
    where = _ACTIVE + (" AND m.context_id = %(ctx)s" if context_id else "")
    return conn.execute(
        "SELECT m.id, m.content, m.type, m.subtype, m.subject_id, m.importance, m.created_at "
        f"FROM memories m WHERE {where} ORDER BY m.id LIMIT %(limit)s",
        {"ws": workspace_id, "ctx": context_id, "limit": limit},
    ).fetchall()


def associations_among(conn: Connection, workspace_id: str, memory_ids: list[str], limit: int) -> list[dict]:
    """The associations whose two ends are both among ``memory_ids``, strongest first."""
    return conn.execute(
        "SELECT a.source_id, a.target_id, a.relationship, a.strength FROM associations a "
        "WHERE a.workspace_id = %(ws)s AND a.source_id = ANY(%(ids)s) AND a.target_id = ANY(%(ids)s) "
        "ORDER BY a.strength DESC, a.id LIMIT %(limit)s",
        {"ws": workspace_id, "ids": memory_ids, "limit": limit},
    ).fetchall()
