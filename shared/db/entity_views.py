"""SQL for the entity operations beyond the registry (card, provenance, related, insights, dedupe, backfill):
reads over the relations store of migration 0016 and the memories that are its evidence. Every function names
its workspace; the row-level wall is the second line.

An entity's **members** are the live memories it is found in: those holding active evidence of one of its
relations (an endpoint of either direction) and those about it (``subject_id`` its id, name or an alias). Evidence is active only while
its memory is live (the trigger of 0016), so no member is deleted or superseded.

    >>> with db.connection() as conn:                                               # doctest: +SKIP
    ...     [r["entity_id"] for r in related(conn, "ws_a", "ent_1", limit=5, min_shared=1)]
    ['ent_2']
"""

from __future__ import annotations

from shared.db.memories import QUALIFIED_COLUMNS
from shared.db.relations import ENTITY_COLUMNS, RELATION_COLUMNS, subject_names
from shared.db.rows import Connection, one

_LIVE = "m.deleted_at IS NULL AND m.valid_to IS NULL AND m.status = 'active'"

_NAMES = subject_names("ARRAY[%(id)s]")

# The entity's member memories (ids), at most %(cap)s of them, newest evidence first.
_MEMBERS = (
    "SELECT memory_id FROM ("
    "  SELECT v.source_memory_id AS memory_id, v.created_at FROM entity_relations r "
    "  JOIN entity_relation_evidence v ON v.relation_id = r.id AND v.active "
    "  WHERE r.workspace_id = %(ws)s AND r.active AND (r.source_entity_id = %(id)s OR r.target_entity_id = %(id)s) "
    "  UNION ALL SELECT m.id, m.created_at FROM memories m WHERE m.workspace_id = %(ws)s "
    f"  AND (m.subject_id = %(id)s OR lower(btrim(m.subject_id)) = ANY({_NAMES})) AND {_LIVE}"
    ") x GROUP BY memory_id ORDER BY max(created_at) DESC, memory_id LIMIT %(cap)s"
)
MEMBER_CAP = 5000  # related and the counts read at most this many of an entity's memories


def relations_named(conn: Connection, workspace_id: str, entity_id: str, limit: int) -> list[dict]:
    """The entity's active relations (either direction) with both endpoints' names, most confident first."""
    return conn.execute(
        f"SELECT {RELATION_COLUMNS}, s.canonical_name AS source_name, s.entity_type AS source_type, "
        "t.canonical_name AS target_name, t.entity_type AS target_type FROM entity_relations r "
        "JOIN entities s ON s.id = r.source_entity_id JOIN entities t ON t.id = r.target_entity_id "
        "WHERE r.workspace_id = %(ws)s AND r.active AND (r.source_entity_id = %(id)s OR r.target_entity_id = %(id)s) "
        "ORDER BY r.confidence DESC, r.relationship, r.id LIMIT %(limit)s",
        {"ws": workspace_id, "id": entity_id, "limit": limit},
    ).fetchall()


def evidence(conn: Connection, workspace_id: str, entity_id: str, limit: int) -> list[dict]:
    """The active evidence of the entity's relations: which memory (and the thread and messages it came from)
    states which relation, with the excerpt its span points at; newest first."""
    return conn.execute(
        "SELECT v.id AS evidence_id, v.relation_id, r.relationship, r.source_entity_id, r.target_entity_id, "
        "v.source_memory_id AS memory_id, m.source_thread_id AS thread_id, m.source_message_ids AS message_ids, "
        "v.evidence_kind, v.extraction_method, v.confidence::float8 AS confidence, v.source_span_start, "
        "v.source_span_end, CASE WHEN v.source_span_start IS NULL THEN left(m.content, 280) "
        "ELSE substr(m.content, v.source_span_start + 1, v.source_span_end - v.source_span_start) END AS excerpt, "
        "v.created_at FROM entity_relations r JOIN entity_relation_evidence v ON v.relation_id = r.id AND v.active "
        "JOIN memories m ON m.id = v.source_memory_id "
        "WHERE r.workspace_id = %(ws)s AND (r.source_entity_id = %(id)s OR r.target_entity_id = %(id)s) "
        "ORDER BY v.created_at DESC, v.id LIMIT %(limit)s",
        {"ws": workspace_id, "id": entity_id, "limit": limit},
    ).fetchall()


def member_memories(conn: Connection, workspace_id: str, entity_id: str, limit: int) -> list[dict]:
    """The entity's member memories, newest first (its recent facts)."""
    return conn.execute(
        f"SELECT {QUALIFIED_COLUMNS} FROM memories m WHERE m.workspace_id = %(ws)s AND {_LIVE} "
        f"AND m.id IN ({_MEMBERS}) ORDER BY m.created_at DESC, m.id LIMIT %(limit)s",
        {"ws": workspace_id, "id": entity_id, "cap": MEMBER_CAP, "limit": limit},
    ).fetchall()


def insights(
    conn: Connection, workspace_id: str, entity_id: str, observer_id: str | None, limit: int
) -> tuple[list[dict], int]:
    """The live ``inference`` memories about the entity (``subject_id``), newest first, and how many there are."""
    rows = conn.execute(
        f"SELECT {QUALIFIED_COLUMNS}, count(*) OVER () AS total FROM memories m WHERE m.workspace_id = %(ws)s "
        f"AND m.subject_id = %(id)s AND m.subtype = 'inference' AND {_LIVE} "
        "AND (%(observer)s::text IS NULL OR m.observer_id = %(observer)s) "
        "ORDER BY m.created_at DESC, m.id LIMIT %(limit)s",
        {"ws": workspace_id, "id": entity_id, "observer": observer_id, "limit": limit},
    ).fetchall()
    return rows, int(rows[0]["total"]) if rows else 0


def counts(conn: Connection, workspace_id: str, entity_id: str) -> dict[str, int]:
    """How much the store holds about the entity: aliases, active relations, member memories, evidence rows
    and insights."""
    return dict(
        one(
            conn.execute(
                "SELECT (SELECT count(*) FROM entity_aliases a WHERE a.workspace_id = %(ws)s AND a.entity_id = %(id)s) "
                "AS aliases, (SELECT count(*) FROM entity_relations r WHERE r.workspace_id = %(ws)s AND r.active "
                "AND (r.source_entity_id = %(id)s OR r.target_entity_id = %(id)s)) AS relations, "
                f"(SELECT count(*) FROM ({_MEMBERS}) x) AS memories, "
                "(SELECT count(*) FROM entity_relation_evidence v JOIN entity_relations r ON r.id = v.relation_id "
                "WHERE r.workspace_id = %(ws)s AND v.active AND (r.source_entity_id = %(id)s "
                "OR r.target_entity_id = %(id)s)) AS evidence, "
                "(SELECT count(*) FROM memories m WHERE m.workspace_id = %(ws)s AND m.subject_id = %(id)s "
                f"AND m.subtype = 'inference' AND {_LIVE}) AS insights",
                {"ws": workspace_id, "id": entity_id, "cap": MEMBER_CAP},
            ).fetchone()
        )
    )


def related(
    conn: Connection, workspace_id: str, entity_id: str, *, limit: int, min_shared: int
) -> list[dict]:
    """Active entities sharing member memories with ``entity_id``, most shared first: each with ``shared`` (how
    many), ``members`` (how many the entity has) and ``relationships`` (its direct active relations to it);
    ties by name."""
    return conn.execute(
        f"WITH mine AS ({_MEMBERS}), "
        "co AS ("
        "  SELECT e.entity_id, v.source_memory_id AS memory_id FROM mine "
        "  JOIN entity_relation_evidence v ON v.source_memory_id = mine.memory_id AND v.active "
        "  JOIN entity_relations r ON r.id = v.relation_id AND r.active AND r.workspace_id = %(ws)s "
        "  CROSS JOIN LATERAL (VALUES (r.source_entity_id), (r.target_entity_id)) e(entity_id) "
        "  UNION SELECT s.id, m.id FROM mine JOIN memories m ON m.id = mine.memory_id "
        "  JOIN entities s ON s.workspace_id = %(ws)s AND s.status = 'active' "
        "  AND (s.id = m.subject_id OR s.normalized_name = lower(btrim(m.subject_id))) "
        "  WHERE m.workspace_id = %(ws)s AND m.subject_id IS NOT NULL"
        "), ranked AS ("
        "  SELECT co.entity_id, count(DISTINCT co.memory_id) AS shared FROM co WHERE co.entity_id <> %(id)s "
        "  GROUP BY co.entity_id HAVING count(DISTINCT co.memory_id) >= %(min)s"
        ") "
        f"SELECT {ENTITY_COLUMNS}, ranked.shared, (SELECT count(*) FROM mine) AS members, "
        "ARRAY(SELECT DISTINCT r.relationship FROM entity_relations r WHERE r.workspace_id = %(ws)s AND r.active "
        "      AND ((r.source_entity_id = %(id)s AND r.target_entity_id = e.id) "
        "        OR (r.target_entity_id = %(id)s AND r.source_entity_id = e.id)) ORDER BY 1) AS relationships "
        "FROM ranked JOIN entities e ON e.id = ranked.entity_id AND e.workspace_id = %(ws)s AND e.status = 'active' "
        "ORDER BY ranked.shared DESC, e.canonical_name, e.id LIMIT %(limit)s",
        {"ws": workspace_id, "id": entity_id, "cap": MEMBER_CAP, "min": min_shared, "limit": limit},
    ).fetchall()


# ------------------------------------------------------------------ writes' reads
def dedupe_candidates(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """Active entities (oldest first) with every normalised name they answer to and how established each is:
    active evidence rows, aliases, confidence."""
    return conn.execute(
        "SELECT e.id, e.entity_type, e.normalized_name, e.confidence::float8 AS confidence, e.created_at, "
        "ARRAY(SELECT a.normalized_alias FROM entity_aliases a WHERE a.entity_id = e.id) AS alias_keys, "
        "(SELECT count(*) FROM entity_relations r JOIN entity_relation_evidence v ON v.relation_id = r.id "
        " AND v.active WHERE r.workspace_id = %(ws)s AND (r.source_entity_id = e.id OR r.target_entity_id = e.id)) "
        "AS evidence FROM entities e WHERE e.workspace_id = %(ws)s AND e.status = 'active' "
        "ORDER BY e.created_at, e.id LIMIT %(limit)s",
        {"ws": workspace_id, "limit": limit},
    ).fetchall()


def live_memories_page(conn: Connection, workspace_id: str, after: str, limit: int) -> list[dict]:
    """The next ``limit`` live memories after id ``after`` (keyset, by id): what backfill reads."""
    return conn.execute(
        "SELECT m.id, m.workspace_id, m.content, m.metadata, m.subject_id FROM memories m WHERE m.workspace_id = %s "
        f"AND m.id > %s AND {_LIVE} ORDER BY m.id LIMIT %s",
        (workspace_id, after, limit),
    ).fetchall()


def count_entities(conn: Connection, workspace_id: str) -> int:
    row = one(
        conn.execute(
            "SELECT count(*) AS n FROM entities WHERE workspace_id = %s AND status = 'active'",
            (workspace_id,),
        ).fetchone()
    )
    return int(row["n"])


def eligible_entities(conn: Connection, workspace_id: str, types: list[str] | None, limit: int) -> list[dict]:
    """Active entities of ``types`` (None: any kind), by id: what enrichment considers."""
    return conn.execute(
        "SELECT e.id, e.entity_type, e.canonical_name, e.external_ids FROM entities e WHERE e.workspace_id = %s "
        "AND e.status = 'active' AND (%s::text[] IS NULL OR e.entity_type = ANY(%s::text[])) ORDER BY e.id LIMIT %s",
        (workspace_id, types, types, limit),
    ).fetchall()
