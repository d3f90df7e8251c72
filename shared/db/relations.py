"""SQL for the entity registry, typed relations and their evidence (migration 0016). Every function names its
workspace; the row-level wall (0015/0016) is the second line.

    >>> with db.transaction() as conn:                                               # doctest: +SKIP
    ...     alice = upsert_entity(conn, "ws_a", "Alice Chen", "person", aliases=["alice"])
    ...     resolve_names(conn, "ws_a", ["alice"])["alice"]["id"] == alice["id"]
    True
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from psycopg.types.json import Jsonb

from shared.core.names import normalize_entity_name
from shared.db.memories import QUALIFIED_COLUMNS
from shared.db.rows import Connection, one

ENTITY_COLUMNS = (
    "e.id, e.workspace_id, e.entity_type, e.canonical_name, e.normalized_name, e.confidence, e.provenance, "
    "e.external_ids, e.representative_memory_id, e.status, e.merged_into, e.created_at, e.updated_at, "
    "ARRAY(SELECT a.alias FROM entity_aliases a WHERE a.entity_id = e.id ORDER BY a.created_at, a.id) AS aliases"
)
RELATION_COLUMNS = (
    "r.id, r.workspace_id, r.source_entity_id, r.target_entity_id, r.relationship, r.direction, r.confidence, "
    "r.active, r.created_at, r.updated_at"
)


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:16]}"


def upsert_entity(
    conn: Connection,
    workspace_id: str,
    name: str,
    entity_type: str,
    *,
    aliases: Iterable[str] = (),
    confidence: float = 1.0,
    provenance: dict[str, Any] | None = None,
    external_ids: dict[str, str] | None = None,
    representative_memory_id: str | None = None,
) -> dict:
    """The live entity of this kind and normalised name, created if missing. Later mentions add aliases and
    external ids but do not take over the entity: the first representative memory and provenance keys stay
    (the reference's last-write-wins, its defect 9), and confidence only rises."""
    normalized = normalize_entity_name(name)
    # "PLAT-12" named by a PR is the ticket whose alias it is (same kind), not a second entity of that name.
    known = conn.execute(
        "SELECT e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity_id AND e.status = 'active' "
        "WHERE a.workspace_id = %(ws)s AND a.normalized_alias = %(n)s AND e.entity_type = %(t)s "
        "AND NOT EXISTS (SELECT FROM entities x WHERE x.workspace_id = %(ws)s AND x.entity_type = %(t)s "
        "                AND x.normalized_name = %(n)s AND x.status = 'active') ORDER BY e.id LIMIT 1",
        {"ws": workspace_id, "n": normalized, "t": entity_type},
    ).fetchone()
    if known is not None:
        add_aliases(conn, workspace_id, known["id"], aliases, "upsert", skip=normalized)
        return {"id": known["id"], "created": False}
    row = one(
        conn.execute(
            "INSERT INTO entities AS e (id, workspace_id, entity_type, canonical_name, normalized_name, confidence, "
            "provenance, external_ids, representative_memory_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (workspace_id, entity_type, normalized_name) WHERE status = 'active' DO UPDATE SET "
            "confidence = greatest(e.confidence, excluded.confidence), provenance = excluded.provenance || e.provenance, "
            "external_ids = excluded.external_ids || e.external_ids, "
            "representative_memory_id = coalesce(e.representative_memory_id, excluded.representative_memory_id), "
            "updated_at = now() RETURNING e.id, (xmax = 0) AS created",
            (
                new_id("ent"),
                workspace_id,
                entity_type,
                name,
                normalized,
                confidence,
                Jsonb(provenance or {}),
                Jsonb(external_ids or {}),
                representative_memory_id,
            ),
        ).fetchone()
    )
    add_aliases(
        conn, workspace_id, row["id"], aliases, "initial" if row["created"] else "upsert", skip=normalized
    )
    return {"id": row["id"], "created": row["created"]}


def add_aliases(
    conn: Connection,
    workspace_id: str,
    entity_id: str,
    aliases: Iterable[str],
    source: str,
    *,
    skip: str | None = None,
) -> int:
    """Add aliases (the canonical name is not stored as one); returns how many were new."""
    pairs = {normalize_entity_name(a): a.strip() for a in aliases if a and a.strip()}
    pairs = {n: a for n, a in pairs.items() if n and n != skip}
    if not pairs:
        return 0
    cur = conn.execute(
        "INSERT INTO entity_aliases (id, workspace_id, entity_id, alias, normalized_alias, source) "
        "SELECT x.id, %s, %s, x.alias, x.norm, %s FROM unnest(%s::text[], %s::text[], %s::text[]) AS x(id, alias, norm) "
        "ON CONFLICT (entity_id, normalized_alias) DO NOTHING",
        (
            workspace_id,
            entity_id,
            source,
            [new_id("eal") for _ in pairs],
            list(pairs.values()),
            list(pairs.keys()),
        ),
    )
    return cur.rowcount


def resolve_names(conn: Connection, workspace_ids: list[str], names: Iterable[str]) -> dict[str, dict]:
    """Normalised name -> live entity, by exact name of any kind (person first, then id), else by alias
    (lowest id first). One statement for all names."""
    keys = sorted({n for n in (normalize_entity_name(x) for x in names) if n})
    if not keys:
        return {}
    rows = conn.execute(
        "SELECT DISTINCT ON (k.key) k.key, e.id, e.entity_type, e.canonical_name FROM unnest(%(keys)s::text[]) AS k(key) "
        "JOIN LATERAL ("
        "  SELECT e.id, e.entity_type, e.canonical_name, 0 AS via FROM entities e "
        "  WHERE e.workspace_id = ANY(%(ws)s) AND e.normalized_name = k.key AND e.status = 'active' "
        "  UNION ALL "
        "  SELECT e.id, e.entity_type, e.canonical_name, 1 FROM entity_aliases a JOIN entities e ON e.id = a.entity_id "
        "  WHERE a.workspace_id = ANY(%(ws)s) AND a.normalized_alias = k.key AND e.status = 'active'"
        ") e ON TRUE "
        "ORDER BY k.key, e.via, (e.entity_type <> 'person'), e.id",
        {"keys": keys, "ws": workspace_ids},
    ).fetchall()
    return {r["key"]: dict(r) for r in rows}


def active_entity_ids(conn: Connection, workspace_id: str, ids: Iterable[str]) -> set[str]:
    wanted = list({i for i in ids if i})
    if not wanted:
        return set()
    rows = conn.execute(
        "SELECT id FROM entities WHERE workspace_id = %s AND id = ANY(%s) AND status = 'active'",
        (workspace_id, wanted),
    ).fetchall()
    return {r["id"] for r in rows}


def upsert_relation(
    conn: Connection, workspace_id: str, source_id: str, target_id: str, relationship: str
) -> str:
    """The one relation row of this (source, target, relationship), created if missing. Its ``active`` and
    ``confidence`` follow its evidence (refresh_relations)."""
    row = one(
        conn.execute(
            "INSERT INTO entity_relations AS r (id, workspace_id, source_entity_id, target_entity_id, relationship) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (workspace_id, source_entity_id, target_entity_id, relationship) "
            "DO UPDATE SET updated_at = r.updated_at RETURNING r.id",
            (new_id("erel"), workspace_id, source_id, target_id, relationship),
        ).fetchone()
    )
    return row["id"]


def upsert_evidence(
    conn: Connection,
    workspace_id: str,
    relation_id: str,
    memory_id: str,
    *,
    kind: str,
    span: tuple[int | None, int | None],
    excerpt_hash: str,
    confidence: float,
    method: str,
) -> bool:
    """Store one piece of evidence. True when it is new or was inactive and is live again (a rewrite of the
    same memory reactivates its old row: nothing is duplicated), False when it was already active."""
    row = conn.execute(
        "INSERT INTO entity_relation_evidence AS v (id, workspace_id, relation_id, source_memory_id, evidence_kind, "
        "source_span_start, source_span_end, excerpt_hash, confidence, extraction_method) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (relation_id, source_memory_id, evidence_kind, coalesce(source_span_start, -1), "
        "coalesce(source_span_end, -1), excerpt_hash) "
        "DO UPDATE SET active = true, confidence = excluded.confidence, extraction_method = excluded.extraction_method "
        "WHERE NOT v.active RETURNING v.id",
        (new_id("eev"), workspace_id, relation_id, memory_id, kind, *span, excerpt_hash, confidence, method),
    ).fetchone()
    return row is not None


def refresh_relations(conn: Connection, relation_ids: Iterable[str]) -> None:
    ids = sorted(set(relation_ids))
    if ids:
        conn.execute("SELECT memorylayer_refresh_relations(%s::text[])", (ids,))


def deactivate_evidence(conn: Connection, workspace_id: str, memory_id: str, kinds: list[str]) -> None:
    """Retire a memory's evidence of these kinds (its metadata changed: the profile is derived again)."""
    rows = conn.execute(
        "UPDATE entity_relation_evidence SET active = false WHERE workspace_id = %s AND source_memory_id = %s "
        "AND evidence_kind = ANY(%s) AND active RETURNING relation_id",
        (workspace_id, memory_id, kinds),
    ).fetchall()
    refresh_relations(conn, (r["relation_id"] for r in rows))


# ------------------------------------------------------------------ registry reads and merge
def list_entities(conn: Connection, workspace_id: str, *, status: str, limit: int) -> tuple[list[dict], int]:
    rows = conn.execute(
        f"SELECT {ENTITY_COLUMNS}, count(*) OVER () AS total FROM entities e "
        "WHERE e.workspace_id = %s AND e.status = %s ORDER BY e.id LIMIT %s",
        (workspace_id, status, limit),
    ).fetchall()
    total = int(rows[0]["total"]) if rows else 0
    return rows, total


def get_entity(conn: Connection, workspace_id: str, entity_id: str) -> dict | None:
    return conn.execute(
        f"SELECT {ENTITY_COLUMNS} FROM entities e WHERE e.workspace_id = %s AND e.id = %s",
        (workspace_id, entity_id),
    ).fetchone()


def entity_relations(conn: Connection, workspace_id: str, entity_id: str, limit: int = 100) -> list[dict]:
    return conn.execute(
        f"SELECT {RELATION_COLUMNS} FROM entity_relations r WHERE r.workspace_id = %s AND r.active "
        "AND (r.source_entity_id = %s OR r.target_entity_id = %s) ORDER BY r.id LIMIT %s",
        (workspace_id, entity_id, entity_id, limit),
    ).fetchall()


def lock_entities(conn: Connection, workspace_id: str, ids: list[str]) -> dict[str, dict]:
    rows = conn.execute(
        "SELECT id, canonical_name, normalized_name, status, merged_into FROM entities "
        "WHERE workspace_id = %s AND id = ANY(%s) ORDER BY id FOR UPDATE",
        (workspace_id, ids),
    ).fetchall()
    return {r["id"]: r for r in rows}


def merge_entities(conn: Connection, workspace_id: str, source_id: str, target_id: str) -> None:
    """Fold ``source`` into ``target``: relations are rewired (a resulting self-loop's evidence retired; an edge
    the target already has takes over the evidence), the source's name and aliases become the target's
    aliases, and the source is tombstoned (``merged``, ``merged_into``)."""
    touched: set[str] = set()
    moving = conn.execute(
        f"SELECT {RELATION_COLUMNS} FROM entity_relations r WHERE r.workspace_id = %s "
        "AND (r.source_entity_id = %s OR r.target_entity_id = %s) ORDER BY r.id",
        (workspace_id, source_id, source_id),
    ).fetchall()
    for rel in moving:
        src = target_id if rel["source_entity_id"] == source_id else rel["source_entity_id"]
        tgt = target_id if rel["target_entity_id"] == source_id else rel["target_entity_id"]
        if src == tgt:
            conn.execute(
                "UPDATE entity_relation_evidence SET active = false WHERE relation_id = %s", (rel["id"],)
            )
            conn.execute("UPDATE entity_relations SET active = false WHERE id = %s", (rel["id"],))
            continue
        existing = conn.execute(
            "SELECT id FROM entity_relations WHERE workspace_id = %s AND source_entity_id = %s "
            "AND target_entity_id = %s AND relationship = %s",
            (workspace_id, src, tgt, rel["relationship"]),
        ).fetchone()
        if existing is None:
            conn.execute(
                "UPDATE entity_relations SET source_entity_id = %s, target_entity_id = %s, updated_at = now() "
                "WHERE id = %s",
                (src, tgt, rel["id"]),
            )
            touched.add(rel["id"])
            continue
        # The surviving edge takes the evidence; a row it already holds (same memory, span, excerpt) stays
        # as it is, active if either copy was.
        conn.execute(
            "INSERT INTO entity_relation_evidence AS v (id, workspace_id, relation_id, source_memory_id, "
            "evidence_kind, source_span_start, source_span_end, excerpt_hash, confidence, extraction_method, active, "
            "created_at) SELECT 'eev_' || substr(md5(e.id || %s), 1, 16), e.workspace_id, %s, e.source_memory_id, "
            "e.evidence_kind, e.source_span_start, e.source_span_end, e.excerpt_hash, e.confidence, "
            "e.extraction_method, e.active, e.created_at FROM entity_relation_evidence e WHERE e.relation_id = %s "
            "ON CONFLICT (relation_id, source_memory_id, evidence_kind, coalesce(source_span_start, -1), "
            "coalesce(source_span_end, -1), excerpt_hash) DO UPDATE SET active = v.active OR excluded.active",
            (existing["id"], existing["id"], rel["id"]),
        )
        conn.execute("DELETE FROM entity_relations WHERE id = %s", (rel["id"],))
        touched.add(existing["id"])
    conn.execute(
        "INSERT INTO entity_aliases (id, workspace_id, entity_id, alias, normalized_alias, source) "
        "SELECT 'eal_' || substr(md5(random()::text || x.norm), 1, 16), %(ws)s, %(target)s, x.alias, x.norm, 'merge' "
        "FROM (SELECT canonical_name AS alias, normalized_name AS norm FROM entities WHERE id = %(source)s "
        "      UNION ALL SELECT alias, normalized_alias FROM entity_aliases WHERE entity_id = %(source)s) x "
        "WHERE x.norm <> (SELECT normalized_name FROM entities WHERE id = %(target)s) "
        "ON CONFLICT (entity_id, normalized_alias) DO NOTHING",
        {"ws": workspace_id, "source": source_id, "target": target_id},
    )
    conn.execute(
        "UPDATE entities SET status = 'merged', merged_into = %s, updated_at = now() WHERE id = %s",
        (target_id, source_id),
    )
    # Entities merged into the source earlier now point at the survivor.
    conn.execute(
        "UPDATE entities SET merged_into = %s WHERE workspace_id = %s AND merged_into = %s",
        (target_id, workspace_id, source_id),
    )
    refresh_relations(conn, touched)


def subject_names(ids: str) -> str:
    """SQL for what a memory's ``subject_id`` may hold, besides the id, to name one of the entities ``ids`` (an
    SQL text[] expression) of workspace %(ws)s: a name or alias, as given or normalised, lowercased. Compare
    ``lower(btrim(m.subject_id))`` with it: a name-valued subject_id links the entity (the reference's anchor)."""
    return (
        f"ARRAY(SELECT lower(x.canonical_name) FROM entities x WHERE x.workspace_id = %(ws)s AND x.id = ANY({ids}) "
        f"UNION SELECT x.normalized_name FROM entities x WHERE x.workspace_id = %(ws)s AND x.id = ANY({ids}) "
        f"UNION SELECT lower(a.alias) FROM entity_aliases a WHERE a.workspace_id = %(ws)s AND a.entity_id = ANY({ids}) "
        "UNION SELECT a.normalized_alias FROM entity_aliases a WHERE a.workspace_id = %(ws)s "
        f"AND a.entity_id = ANY({ids}))"
    )


def evidence_memories(conn: Connection, workspace_id: str, entity_ids: list[str], limit: int) -> list[dict]:
    """The live memories that are active evidence of a relation of one of ``entity_ids``, or are about one of
    them (``subject_id`` its id, name or an alias: a speaker's facts), most confident then newest first (the context pack's
    ``entity_matches``)."""
    live = "m.workspace_id = %(ws)s AND m.deleted_at IS NULL AND m.valid_to IS NULL AND m.status = 'active'"
    return conn.execute(
        "SELECT * FROM (SELECT DISTINCT ON (id) * FROM ("
        f"SELECT {QUALIFIED_COLUMNS}, v.confidence::float8 AS evidence_confidence "
        "FROM entity_relations r JOIN entity_relation_evidence v ON v.relation_id = r.id AND v.active "
        "JOIN memories m ON m.id = v.source_memory_id "
        "WHERE r.workspace_id = %(ws)s AND r.active AND (r.source_entity_id = ANY(%(ids)s) "
        f"OR r.target_entity_id = ANY(%(ids)s)) AND {live} "
        f"UNION ALL SELECT {QUALIFIED_COLUMNS}, 1.0::float8 FROM memories m "
        "WHERE (m.subject_id = ANY(%(ids)s) "
        f"OR lower(btrim(m.subject_id)) = ANY({subject_names('%(ids)s::text[]')})) AND {live}"
        ") u ORDER BY id, evidence_confidence DESC) x "
        "ORDER BY evidence_confidence DESC, created_at DESC, id LIMIT %(limit)s",
        {"ws": workspace_id, "ids": sorted(entity_ids), "limit": limit},
    ).fetchall()


def entity_of_type(conn: Connection, workspace_id: str, entity_type: str, normalized_name: str) -> str | None:
    """The id of the active entity of this kind with this exact normalised name."""
    row = conn.execute(
        "SELECT id FROM entities WHERE workspace_id = %s AND entity_type = %s AND normalized_name = %s "
        "AND status = 'active'",
        (workspace_id, entity_type, normalized_name),
    ).fetchone()
    return row["id"] if row else None
