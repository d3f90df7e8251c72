"""Row-faithful export and import of a workspace's tables (export format 2): rows leave as ``to_jsonb`` and come
back through ``jsonb_populate_record``, so every column makes the round trip without a hand-kept list.

>>> with db.connection() as conn:                                                       # doctest: +SKIP
...     page = export_page(conn, TABLES["entity"], "ws_a", after=None, limit=500)
>>> with db.transaction() as conn:                                                      # doctest: +SKIP
...     inserted = insert_row(conn, "entities", {"id": "ent_1", "workspace_id": "ws_b", ...})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from shared.db.rows import Connection


@dataclass(frozen=True)
class Table:
    """How one table leaves a workspace: its order (also the keyset) and the columns that stay behind."""

    name: str
    order: tuple[str, ...]
    drop: tuple[str, ...] = ("workspace_id",)


# Every row leaves, soft-deleted memories too (with their ``deleted_at``: they can still be restored, and their
# revisions, associations and evidence name them).
TABLES: dict[str, Table] = {
    "context": Table("contexts", ("created_at", "id")),
    "session": Table("sessions", ("created_at", "id"), drop=("workspace_id", "tenant_id")),
    "working_memory": Table("working_memory", ("session_id", "key")),
    "thread": Table("threads", ("created_at", "id"), drop=("workspace_id", "tenant_id")),
    "message": Table("thread_messages", ("thread_id", "message_index")),
    "memory": Table(
        "memories",
        ("created_at", "id"),
        # The vector is this server's to compute (an import embeds again); index bookkeeping is not content.
        drop=(
            "workspace_id",
            "tenant_id",
            "embedding",
            "embedding_model",
            "tsv",
            "vector_gen",
            "vector_indexed",
        ),
    ),
    "revision": Table("memory_revisions", ("memory_id", "revision")),
    "association": Table("associations", ("created_at", "id")),
    "entity": Table("entities", ("created_at", "id")),
    "alias": Table("entity_aliases", ("created_at", "id")),
    "relation": Table("entity_relations", ("created_at", "id")),
    "evidence": Table("entity_relation_evidence", ("created_at", "id")),
    "checkpoint": Table("session_checkpoints", ("created_at", "id")),
    "contradiction": Table("contradictions", ("detected_at", "id")),
    # A document's metadata and pages; its bytes stay in the source's bucket (docs/export-format.md). Page
    # vectors are this server's to compute, as memories' are: a reprocess in the target makes them.
    "document": Table("documents", ("created_at", "id")),
    "document_page": Table("document_pages", ("document_id", "page_no"), drop=("workspace_id", "embedding")),
}

_columns: dict[str, tuple[str, ...]] = {}


def columns(conn: Connection, table: str) -> tuple[str, ...]:
    """The columns an INSERT may name (generated ones left out); read once per process."""
    if table not in _columns:
        rows = conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
            "AND table_name = %s AND is_generated = 'NEVER' ORDER BY ordinal_position",
            (table,),
        ).fetchall()
        _columns[table] = tuple(r["column_name"] for r in rows)
    return _columns[table]


def export_page(
    conn: Connection, table: Table, workspace_id: str, *, after: tuple[Any, ...] | None, limit: int
) -> list[dict[str, Any]]:
    """One page of ``table``'s rows in ``workspace_id``: ``{"key": (order values), "row": {...}}``."""
    order = sql.SQL(", ").join(sql.Identifier(c) for c in table.order)
    row = sql.SQL("to_jsonb(t) - {drop}::text[]").format(drop=sql.Literal(list(table.drop)))
    conditions: list[sql.Composable] = [sql.SQL("workspace_id = %(ws)s")]
    params: dict[str, Any] = {"ws": workspace_id, "n": limit}
    if after is not None:
        conditions.append(
            sql.SQL("({order}) > ({keys})").format(
                order=order, keys=sql.SQL(", ").join(sql.Placeholder(f"k{i}") for i in range(len(after)))
            )
        )
        params.update({f"k{i}": value for i, value in enumerate(after)})
    query = sql.SQL(
        "SELECT {order}, {row} AS row FROM {table} t WHERE {where} ORDER BY {order} LIMIT %(n)s"
    ).format(
        order=order,
        row=row,
        table=sql.Identifier(table.name),
        where=sql.SQL(" AND ").join(conditions),
    )
    return [
        {"key": tuple(r[c] for c in table.order), "row": r["row"]}
        for r in conn.execute(query, params).fetchall()
    ]


def insert_row(conn: Connection, table: str, row: dict[str, Any], *, vector: Any = None) -> bool:
    """Insert ``row`` as it was exported (types from the table: ``jsonb_populate_record``); False, and nothing
    written, when a key or unique index already holds it. ``vector``: the memory's embedding."""
    names = [c for c in columns(conn, table) if c in row]
    picked = sql.SQL(", ").join(sql.Identifier("r", c) for c in names)
    target = sql.SQL(", ").join(sql.Identifier(c) for c in names)
    params: list[Any] = [Jsonb(row)]
    if vector is not None:
        target = sql.SQL("{}, embedding").format(target)
        picked = sql.SQL("{}, %s::vector").format(picked)
        params.insert(0, vector)
    query = sql.SQL(
        "INSERT INTO {table} ({target}) SELECT {picked} FROM jsonb_populate_record(NULL::{table}, %s) r "
        "ON CONFLICT DO NOTHING"
    ).format(table=sql.Identifier(table), target=target, picked=picked)
    return conn.execute(query, params).rowcount > 0


def held(conn: Connection, table: str, workspace_id: str, row_id: str) -> bool:
    """Whether ``workspace_id`` holds the row ``row_id`` of ``table``."""
    query = sql.SQL("SELECT 1 FROM {} WHERE workspace_id = %s AND id = %s").format(sql.Identifier(table))
    return conn.execute(query, (workspace_id, row_id)).fetchone() is not None


def existing_memory(conn: Connection, workspace_id: str, memory_id: str, dedup_key: str) -> str | None:
    """The target's row a refused memory is: the same id (imported before) or its live duplicate."""
    row = conn.execute(
        "SELECT id FROM memories WHERE workspace_id = %s AND (id = %s OR (dedup_key = %s AND deleted_at IS NULL "
        "AND valid_to IS NULL)) ORDER BY id = %s DESC LIMIT 1",
        (workspace_id, memory_id, dedup_key, memory_id),
    ).fetchone()
    return row["id"] if row else None


def existing_entity(
    conn: Connection, workspace_id: str, entity_id: str, entity_type: str, name: str
) -> str | None:
    """The target's entity a refused one is: the same id, or the active one of the same type and name."""
    row = conn.execute(
        "SELECT id FROM entities WHERE workspace_id = %s AND (id = %s OR (entity_type = %s "
        "AND normalized_name = %s AND status = 'active')) ORDER BY id = %s DESC LIMIT 1",
        (workspace_id, entity_id, entity_type, name, entity_id),
    ).fetchone()
    return row["id"] if row else None


def existing_relation(
    conn: Connection, workspace_id: str, relation_id: str, source: str, target: str, relationship: str
) -> str | None:
    row = conn.execute(
        "SELECT id FROM entity_relations WHERE workspace_id = %s AND (id = %s OR (source_entity_id = %s "
        "AND target_entity_id = %s AND relationship = %s)) ORDER BY id = %s DESC LIMIT 1",
        (workspace_id, relation_id, source, target, relationship, relation_id),
    ).fetchone()
    return row["id"] if row else None


def set_merged_into(conn: Connection, workspace_id: str, entity_id: str, merged_into: str) -> None:
    conn.execute(
        "UPDATE entities SET merged_into = %s WHERE workspace_id = %s AND id = %s",
        (merged_into, workspace_id, entity_id),
    )


def repoint_memory_refs(conn: Connection, workspace_id: str, old: str, new: str) -> None:
    """Memories of this import that name ``old`` (an id that resolved to an existing row) name ``new``."""
    for column in ("superseded_by", "stale_by", "source_memory_id"):
        conn.execute(
            sql.SQL("UPDATE memories SET {c} = %s WHERE workspace_id = %s AND {c} = %s").format(
                c=sql.Identifier(column)
            ),
            (new, workspace_id, old),
        )


def holds_anything(conn: Connection, workspace_id: str) -> bool:
    """Whether the workspace holds memories, entities, threads, sessions or resources."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM memories WHERE workspace_id = %(ws)s) "
        "OR EXISTS (SELECT 1 FROM entities WHERE workspace_id = %(ws)s) "
        "OR EXISTS (SELECT 1 FROM threads WHERE workspace_id = %(ws)s) "
        "OR EXISTS (SELECT 1 FROM sessions WHERE workspace_id = %(ws)s) "
        "OR EXISTS (SELECT 1 FROM resources WHERE workspace_id = %(ws)s) AS held",
        {"ws": workspace_id},
    ).fetchone()
    return bool(row and row["held"])
