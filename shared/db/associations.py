"""SQL for typed associations between memories of one workspace, and the bounded graph walk.

>>> with db.transaction() as conn:                                           # doctest: +SKIP
...     edge, created = create(conn, "ws_a", "assoc_1", "mem_a", "mem_b", "causes", 0.7, {})

The walk (``walk_cte``) is shared by traverse and recall's association expansion. It moves a whole frontier one
level per recursion step and keeps a visited set, so each node is reached once and expanded once; it follows
at most ``per_node`` edges of a node (strongest first, straight off an ordered index) and reaches at most
``max_nodes`` nodes. Every bound is inside the recursive statement: a dense graph cannot make it read or
return more than max_nodes × 2·(per_node + 1) association rows, whatever the number of paths.
"""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from shared.db.rows import Connection, one

COLUMNS = "id, workspace_id, source_id, target_id, relationship, strength, metadata, created_at"


def create(
    conn: Connection,
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
    existing = one(
        conn.execute(
            f"SELECT {COLUMNS} FROM associations WHERE source_id = %s AND target_id = %s AND relationship = %s",
            (source_id, target_id, relationship),
        ).fetchone()
    )
    return existing, False


def list_for(
    conn: Connection, workspace_id: str, memory_id: str, *, direction: str, relationships: list[str]
) -> list[dict]:
    sides = {"outgoing": "source_id = %(m)s", "incoming": "target_id = %(m)s"}
    side = sides.get(direction, "(source_id = %(m)s OR target_id = %(m)s)")
    rel = "AND relationship = ANY(%(rels)s)" if relationships else ""
    return conn.execute(
        f"SELECT {COLUMNS} FROM associations WHERE workspace_id = %(ws)s AND {side} {rel} ORDER BY created_at, id",
        {"ws": workspace_id, "m": memory_id, "rels": relationships},
    ).fetchall()


def update(conn: Connection, workspace_id: str, memory_id: str, association_id: str, changes: dict) -> bool:
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


def delete(conn: Connection, workspace_id: str, memory_id: str, association_id: str) -> bool:
    cur = conn.execute(
        "DELETE FROM associations WHERE id = %s AND workspace_id = %s AND (source_id = %s OR target_id = %s)",
        (association_id, workspace_id, memory_id, memory_id),
    )
    return cur.rowcount > 0


# The edges a walk may follow from frontier node f.node, strongest first, at most per_node + 1 of them (the
# extra one only tells the walk that the per-node cap cut something). Each side is its own ordered, limited
# scan of associations_{source,target}_strength, so the database stops after per_node + 1 rows per side.
_SIDE = """
    SELECT a.id, a.strength, a.{other} AS node
    FROM associations a
    JOIN memories m ON m.id = a.{other} AND m.deleted_at IS NULL
    WHERE a.{near} = f.node AND a.workspace_id = ANY(%(ws)s) AND a.strength >= %(walk_min_strength)s
      AND (cardinality(%(walk_rels)s::text[]) = 0 OR a.relationship = ANY(%(walk_rels)s::text[]))
    ORDER BY a.strength DESC, a.id
    LIMIT %(walk_per_node)s + 1
"""
_SIDES = {
    "outgoing": [("source_id", "target_id")],
    "incoming": [("target_id", "source_id")],
    "both": [("source_id", "target_id"), ("target_id", "source_id")],
}


def walk_cte(direction: str) -> str:
    """``level(...) AS (...)`` for a ``WITH RECURSIVE``: one row per level of a breadth-first walk.

    Parameters: ``ws`` (text[]), ``walk_seeds`` / ``walk_scores`` (the start nodes and their scores),
    ``walk_depth``, ``walk_per_node``, ``walk_max_nodes``, ``walk_decay`` (score factor per hop),
    ``walk_rels`` (text[], empty = any), ``walk_min_strength``. A node's score is its parent's × the edge's
    strength × decay, from the best parent of the previous level; ``cut`` says a cap (not the depth) stopped
    something on that level. Select the reached nodes with ``WALK_NODES``.
    """
    sides = " UNION ALL ".join(
        f"({_SIDE.format(near=near, other=other)})" for near, other in _SIDES[direction]
    )
    return f"""
    level(depth, nodes, scores, parents, edge_ids, visited, budget, cut) AS (
        SELECT 0, %(walk_seeds)s::text[], %(walk_scores)s::float8[], '{{}}'::text[], '{{}}'::text[],
               %(walk_seeds)s::text[], %(walk_max_nodes)s::int, false
        UNION ALL
        SELECT l.depth + 1, nxt.nodes, nxt.scores, nxt.parents, nxt.edge_ids,
               l.visited || nxt.nodes, l.budget - cardinality(nxt.nodes), nxt.cut
        FROM level l
        CROSS JOIN LATERAL (
            -- Aggregate the level into arrays: the working table stays one row per level, and the visited
            -- set (every node of every earlier level) is one array, not a copy per path.
            SELECT coalesce(array_agg(z.node ORDER BY z.rank) FILTER (WHERE z.take), '{{}}') AS nodes,
                   coalesce(array_agg(z.score ORDER BY z.rank) FILTER (WHERE z.take), '{{}}') AS scores,
                   coalesce(array_agg(z.parent ORDER BY z.rank) FILTER (WHERE z.take), '{{}}') AS parents,
                   coalesce(array_agg(z.edge_id ORDER BY z.rank) FILTER (WHERE z.take), '{{}}') AS edge_ids,
                   coalesce(bool_or(z.over OR (z.fresh AND NOT z.take)), false) AS cut
            FROM (
                SELECT y.*, y.fresh AND y.rank <= l.budget AS take
                FROM (
                    SELECT x.*, x.best AND NOT x.over AND NOT x.seen AS fresh,
                           -- rank among this level's new nodes, best score first: the node budget keeps these
                           row_number() OVER (
                               ORDER BY (x.best AND NOT x.over AND NOT x.seen) DESC, x.score DESC, x.node
                           ) AS rank
                    FROM (
                        SELECT e.node, f.score * e.strength * %(walk_decay)s AS score, f.node AS parent,
                               e.id AS edge_id, e.n > %(walk_per_node)s AS over, e.node = ANY(l.visited) AS seen,
                               -- one row per new node: the best edge into it from this level
                               row_number() OVER (
                                   PARTITION BY e.node, e.n > %(walk_per_node)s
                                   ORDER BY f.score * e.strength DESC, e.id
                               ) = 1 AS best
                        FROM unnest(l.nodes, l.scores) AS f(node, score)
                        CROSS JOIN LATERAL (
                            SELECT s.*, row_number() OVER (ORDER BY s.strength DESC, s.id) AS n
                            FROM ({sides}) s
                            ORDER BY s.strength DESC, s.id
                            LIMIT %(walk_per_node)s + 1
                        ) e
                    ) x
                ) y
            ) z
        ) nxt
        WHERE l.depth < %(walk_depth)s AND cardinality(l.nodes) > 0
    )"""


# The nodes a walk reached (depth ≥ 1), one row each; a level that reached nothing still yields its ``cut``.
WALK_NODES = """
    SELECT l.depth, s.node, s.score, s.parent, s.edge_id, l.cut
    FROM level l
    LEFT JOIN LATERAL unnest(l.nodes, l.scores, l.parents, l.edge_ids) AS s(node, score, parent, edge_id) ON true
    WHERE l.depth > 0
"""


def walk(
    conn: Connection,
    workspace_id: str,
    start_id: str,
    *,
    max_depth: int,
    direction: str,
    relationships: list[str],
    min_strength: float,
    per_node: int,
    max_nodes: int,
) -> tuple[list[dict], bool]:
    """The nodes reached from ``start_id`` in breadth-first order with the edge that reached each one, and
    whether a cap cut the walk. One statement; see ``walk_cte``."""
    rows = conn.execute(
        f"""WITH RECURSIVE {walk_cte(direction)},
        reached AS ({WALK_NODES})
        SELECT r.depth, r.node, r.score, r.parent, r.cut, {", ".join(f"a.{c.strip()}" for c in COLUMNS.split(","))}
        FROM reached r
        LEFT JOIN associations a ON a.id = r.edge_id
        ORDER BY r.depth, r.score DESC NULLS LAST, r.node""",
        {
            "ws": [workspace_id],
            "walk_seeds": [start_id],
            "walk_scores": [1.0],
            "walk_depth": max_depth,
            "walk_per_node": per_node,
            "walk_max_nodes": max_nodes,
            "walk_decay": 1.0,
            "walk_rels": relationships,
            "walk_min_strength": min_strength,
        },
    ).fetchall()
    return [r for r in rows if r["node"] is not None], any(r["cut"] for r in rows)


def all_in_workspace(conn: Connection, workspace_id: str) -> list[dict]:
    """Every edge of the workspace in creation order (export)."""
    return conn.execute(
        f"SELECT {COLUMNS} FROM associations WHERE workspace_id = %s ORDER BY created_at, id", (workspace_id,)
    ).fetchall()


def unresolved_contradictions(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """What is still contradicted between two live memories, newest first: the open contradiction records (the
    scan's, migration 0041) and the ``contradicts`` edges no record covers (a pair once resolved with
    ``keep_both`` is settled, whichever way round it was stated)."""
    return conn.execute(
        "SELECT x.id, x.source_id, x.target_id, x.created_at FROM ("
        "    SELECT c.id, c.memory_a_id AS source_id, c.memory_b_id AS target_id, c.detected_at AS created_at "
        "    FROM contradictions c WHERE c.workspace_id = %(ws)s AND c.resolved_at IS NULL "
        "    UNION ALL "
        "    SELECT a.id, a.source_id, a.target_id, a.created_at FROM associations a "
        "    WHERE a.workspace_id = %(ws)s AND a.relationship = 'contradicts' AND NOT EXISTS ("
        "        SELECT 1 FROM contradictions c WHERE c.workspace_id = a.workspace_id "
        "        AND least(c.memory_a_id, c.memory_b_id) = least(a.source_id, a.target_id) "
        "        AND greatest(c.memory_a_id, c.memory_b_id) = greatest(a.source_id, a.target_id))"
        ") x "
        "JOIN memories s ON s.id = x.source_id AND s.deleted_at IS NULL AND s.valid_to IS NULL "
        "JOIN memories t ON t.id = x.target_id AND t.deleted_at IS NULL AND t.valid_to IS NULL "
        "ORDER BY x.created_at DESC, x.id LIMIT %(limit)s",
        {"ws": workspace_id, "limit": limit},
    ).fetchall()
