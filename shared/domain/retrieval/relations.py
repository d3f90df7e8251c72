"""The relational recall arm: from the entities a query names, one hop over active typed relations to the
memories that are their evidence, fused into recall.

    >>> arm = plan(RecallRequest(query="Who reviewed PLAT-77?"))                        # doctest: +SKIP
    >>> related = arm.execute(conn, filters, params)     # same pipeline as the hybrid statement  # doctest: +SKIP
    >>> rows, paths = fuse(rows, related, req)                                          # doctest: +SKIP

One statement, sent in the same pipeline as the hybrid statement, so the arm adds no round trip: seed phrases
resolve against entity names and aliases (of the searched workspaces only), at most ``MAX_SEEDS`` seeds walk
one hop both ways over active relations of the asked types (a seed without such an edge: one hop of any type,
then one of the asked types), the walk's active evidence leads to memories, and
those memories pass **the recall filters of the hybrid statement** (types, tags, user, time ranges, history /
supersession, status, the workspaces): the reference's arm bypassed every one of them. ``min_relevance`` applies
to a relational hit's cosine similarity to the query.

Fusion (documented in docs/relations.md): reciprocal-rank, as the reference's, when the arm found anything:
``score = 1/(K + base_rank) + W/(K + arm_rank)`` with K = 61 and W = 2.0 (ranks 0-based), replacing the
``boosted`` order score; each row keeps its own ``relevance``; relational rows gain the ``relational`` signal.
When the arm finds nothing, recall is untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import DictRow

from shared.db.memories import QUALIFIED_COLUMNS
from shared.db.rows import Connection
from shared.domain.relations.intent import RelationIntent, classify
from shared.domain.requests import RecallRequest

RRF_K = 61.0
RELATIONAL_WEIGHT = 2.0
MAX_SEEDS = 4


_TYPED = "(cardinality(%(rel_types)s::text[]) = 0 OR r.relationship = ANY(%(rel_types)s::text[]))"
_VISIBLE = "r.active AND r.workspace_id = ANY(%(ws)s)"


def _sql(filters: str) -> str:
    # One hop of the asked types from each seed, both directions (two index lookups, not one OR join). A seed
    # with no such edge takes one hop of any type first ("who reviewed the PR that fixed PLAT-12": PLAT-12 is
    # referenced by the PR, which Bob reviewed); the evidence is always that of the asked-for edge.
    return f"""
WITH phrase AS (
    SELECT p, ord FROM unnest(%(rel_phrases)s::text[]) WITH ORDINALITY AS x(p, ord)
), named AS (
    SELECT e.id, ph.ord FROM phrase ph JOIN entities e
      ON e.normalized_name = ph.p AND e.workspace_id = ANY(%(ws)s) AND e.status = 'active'
    UNION ALL
    SELECT e.id, ph.ord FROM phrase ph
    JOIN entity_aliases a ON a.normalized_alias = ph.p AND a.workspace_id = ANY(%(ws)s)
    JOIN entities e ON e.id = a.entity_id AND e.status = 'active'
), seed AS (
    SELECT id, min(ord) AS ord FROM named GROUP BY id ORDER BY min(ord), id LIMIT %(rel_max_seeds)s
), edge1 AS (
    SELECT s.id AS seed_id, s.ord, 1 AS hops, NULL::text AS mid_id, NULL::jsonb AS via, 0::bigint AS mid_degree, r.*
    FROM seed s JOIN entity_relations r ON r.source_entity_id = s.id AND {_VISIBLE} WHERE {_TYPED}
    UNION ALL
    SELECT s.id, s.ord, 1, NULL, NULL, 0, r.*
    FROM seed s JOIN entity_relations r ON r.target_entity_id = s.id AND {_VISIBLE} WHERE {_TYPED}
), mid AS (
    SELECT s.id AS seed_id, s.ord,
           CASE WHEN r.source_entity_id = s.id THEN r.target_entity_id ELSE r.source_entity_id END AS mid_id,
           to_jsonb(r) AS via,
           -- How specific the middle entity is: a PR has a few edges, a person or a topic many.
           (SELECT count(*) FROM entity_relations x WHERE x.active AND x.workspace_id = ANY(%(ws)s)
              AND (x.source_entity_id = CASE WHEN r.source_entity_id = s.id THEN r.target_entity_id
                                             ELSE r.source_entity_id END
                   OR x.target_entity_id = CASE WHEN r.source_entity_id = s.id THEN r.target_entity_id
                                                ELSE r.source_entity_id END)) AS mid_degree
    FROM seed s JOIN entity_relations r ON (r.source_entity_id = s.id OR r.target_entity_id = s.id) AND {_VISIBLE}
    WHERE cardinality(%(rel_types)s::text[]) > 0 AND NOT EXISTS (SELECT FROM edge1 e WHERE e.seed_id = s.id)
), edge2 AS (
    SELECT md.seed_id, md.ord, 2, md.mid_id, md.via, md.mid_degree, r.*
    FROM mid md JOIN entity_relations r ON r.source_entity_id = md.mid_id AND {_VISIBLE}
    WHERE {_TYPED} AND r.target_entity_id <> md.seed_id
    UNION ALL
    SELECT md.seed_id, md.ord, 2, md.mid_id, md.via, md.mid_degree, r.*
    FROM mid md JOIN entity_relations r ON r.target_entity_id = md.mid_id AND {_VISIBLE}
    WHERE {_TYPED} AND r.source_entity_id <> md.seed_id
), edge AS (
    SELECT * FROM edge1 UNION ALL SELECT * FROM edge2
), hit AS (
    SELECT e.*, v.id AS evidence_id, v.source_memory_id, v.confidence AS evidence_confidence
    FROM edge e JOIN entity_relation_evidence v ON v.relation_id = e.id AND v.active
)
SELECT {QUALIFIED_COLUMNS},
       (1 - (m.embedding <=> %(q)s))::float8 AS cosine,
       jsonb_agg(jsonb_build_object(
           'seed', h.seed_id, 'mid', h.mid_id, 'via', h.via, 'evidence_id', h.evidence_id,
           'relation', jsonb_build_object(
               'id', h.id, 'workspace_id', h.workspace_id, 'source_entity_id', h.source_entity_id,
               'target_entity_id', h.target_entity_id, 'relationship', h.relationship, 'direction', h.direction,
               'confidence', h.confidence, 'active', h.active, 'created_at', h.created_at,
               'updated_at', h.updated_at))
           ORDER BY h.hops, h.ord, h.id, h.evidence_id) AS rel_hits
FROM hit h JOIN memories m ON m.id = h.source_memory_id
WHERE {filters}
GROUP BY m.id
-- A memory that links several of the query's entities first; then direct over two-hop (through the most
-- specific middle entity), then seed order.
ORDER BY count(DISTINCT h.seed_id) DESC, min(h.hops), min(h.mid_degree), min(h.ord), max(h.evidence_confidence) DESC,
         m.created_at DESC, m.id
LIMIT %(rel_max_memories)s
"""


@dataclass(frozen=True)
class Arm:
    intent: RelationIntent
    req: RecallRequest

    def execute(self, conn: Connection, filters: str, params: dict[str, Any]) -> psycopg.Cursor[DictRow]:
        """Send the arm's statement (inside the caller's pipeline: no extra round trip); fetch it later."""
        limit = self.req.limit + self.req.offset
        arm_params = dict(
            params,
            rel_phrases=self.intent.phrases,
            rel_types=list(self.intent.relationships),
            rel_max_seeds=MAX_SEEDS,
            rel_max_memories=min(40, max(10, limit * 2)),
        )
        return conn.execute(_sql(filters), arm_params)


def plan(req: RecallRequest) -> Arm | None:
    """The arm for ``req``, or None: relations not asked for, a browse (``*``), or no relation in the query."""
    if not req.include_relations or req.query.strip() == "*":
        return None
    intent = classify(req.query)
    if not intent.is_relation_query or not intent.phrases:
        return None
    return Arm(intent, req)


def fuse(
    rows: list[dict], related: psycopg.Cursor[DictRow] | None, req: RecallRequest
) -> tuple[list[dict], list[dict[str, Any]]]:
    """The hybrid rows with the arm's memories fused in (see the module doc), and the ``relation_paths``."""
    if related is None:
        return rows, []
    found = related.fetchall()
    if req.min_relevance is not None and req.min_relevance > 0:
        found = [r for r in found if r["cosine"] is not None and r["cosine"] >= req.min_relevance]
    if not found:
        return rows, []
    score: dict[str, float] = {}
    by_id: dict[str, dict] = {}
    for rank, row in enumerate(rows):
        score[row["id"]] = score.get(row["id"], 0.0) + 1.0 / (RRF_K + rank)
        by_id.setdefault(row["id"], dict(row, relevance=row.get("relevance", row["boosted"])))
    for rank, row in enumerate(found):
        score[row["id"]] = score.get(row["id"], 0.0) + RELATIONAL_WEIGHT / (RRF_K + rank)
        base = by_id.get(row["id"])
        if base is None:
            base = dict(row, relevance=max(0.0, float(row["cosine"] or 0.0)))
        by_id[row["id"]] = dict(base, relational=True)
    pool = max([int(r.get("pool") or 0) for r in rows] + [len(by_id)])
    fused = [dict(by_id[i], boosted=score[i], pool=pool) for i in sorted(score, key=lambda i: (-score[i], i))]
    return fused, _paths(found)


def _paths(found: list[dict]) -> list[dict[str, Any]]:
    """One ``EntityRelationPath`` per (seed, route), evidence limited to the memories that passed the filters
    (its ``relations`` as rows)."""
    paths: dict[tuple[str, ...], dict[str, Any]] = {}
    for row in found:
        for hit in row["rel_hits"]:
            rel = hit["relation"]
            start = hit["mid"] or hit["seed"]
            other = rel["target_entity_id"] if rel["source_entity_id"] == start else rel["source_entity_id"]
            route = [_relation(hit["via"])] if hit["via"] else []
            path = paths.setdefault(
                (hit["seed"], hit["via"]["id"] if hit["via"] else "", rel["id"]),
                {
                    "seed_entity_id": hit["seed"],
                    "entity_ids": [hit["seed"], *([hit["mid"]] if hit["mid"] else []), other],
                    "relations": [*route, _relation(rel)],
                    "evidence_ids": [],
                    "evidence_memory_ids": [],
                },
            )
            path["evidence_ids"].append(hit["evidence_id"])
            if row["id"] not in path["evidence_memory_ids"]:
                path["evidence_memory_ids"].append(row["id"])
    return list(paths.values())


def _relation(rel: dict[str, Any]) -> dict[str, Any]:
    """A relation from the statement's JSON as an ``entity_relations`` row (its timestamps as datetimes); the
    API layer sends it as an ``EntityRelation``."""
    return dict(
        rel,
        created_at=datetime.fromisoformat(rel["created_at"]),
        updated_at=datetime.fromisoformat(rel["updated_at"]),
    )
