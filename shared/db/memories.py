"""SQL for the ``memories`` table. Every function takes the workspace scope explicitly.

>>> with db.transaction() as conn:                                  # doctest: +SKIP
...     row, created = insert(conn, new_row)
...     get(conn, Scope.of("ws_a"), row["id"])
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg import sql
from psycopg.rows import DictRow
from psycopg.types.json import Jsonb

from shared.db.rows import Connection, one
from shared.db.scope import Scope
from shared.db.updates import assignments

# Everything a client can see; the embedding is fetched only when asked for.
COLUMNS = (
    "id, workspace_id, tenant_id, context_id, user_id, observer_id, subject_id, session_id, content, "
    "content_hash, type, subtype, importance, tags, metadata, refinement_metadata, logical_key, pinned, status, "
    "embedding_model, revision, access_count, last_accessed_at, decay_factor, source_thread_id, "
    "source_message_ids, source_memory_id, fact_key, sequence_key, sequence_index, valid_from, valid_to, superseded_by, event_time, "
    "created_at, updated_at, deleted_at"
)
QUALIFIED_COLUMNS = ", ".join(f"m.{c.strip()}" for c in COLUMNS.split(","))
# A memory read or written by id also carries its tiers (recall reads them apart: tiers_of).
_WITH_TIERS = COLUMNS + ", abstract, overview"
# And whether they were written (null: the backfill has not reached it): what a reader needs to fill them in.
_TIERED = _WITH_TIERS + ", tier_source_spans"

_INSERT_FIELDS = (
    "id",
    "workspace_id",
    "context_id",
    "user_id",
    "observer_id",
    "subject_id",
    "session_id",
    "content",
    "content_hash",
    "dedup_key",
    "type",
    "subtype",
    "importance",
    "tags",
    "tags_lower",
    "metadata",
    "refinement_metadata",
    "logical_key",
    "pinned",
    "embedding",
    "embedding_model",
    "source_thread_id",
    "source_message_ids",
    "source_memory_id",
    "fact_key",
    "sequence_key",
    "sequence_index",
    "event_time",
    "vector_gen",
    "abstract",
    "overview",
    "tier_source_spans",
)
_JSON_FIELDS = {"metadata", "refinement_metadata", "tier_source_spans"}


# 0: in every vector graph at once (a bulk write passes a later generation: shared/db/vector_index.py).
_DEFAULTS = {"vector_gen": 0}


def _params(row: dict[str, Any]) -> list[Any]:
    return [_json(row.get(f)) if f in _JSON_FIELDS else row.get(f, _DEFAULTS.get(f)) for f in _INSERT_FIELDS]


def _json(value: Any) -> Any:
    return None if value is None else Jsonb(value)


_INSERT_SQL = (
    f"INSERT INTO memories ({', '.join(_INSERT_FIELDS)}) VALUES ({', '.join(['%s'] * len(_INSERT_FIELDS))}) "
    f"ON CONFLICT (workspace_id, dedup_key) WHERE deleted_at IS NULL AND valid_to IS NULL DO NOTHING "
    f"RETURNING {_WITH_TIERS}"
)


def insert(conn: Connection, row: dict[str, Any]) -> tuple[dict, bool]:
    """Insert one memory; if an identical live memory exists (same dedup key), return it with ``False``."""
    created = conn.execute(_INSERT_SQL, _params(row)).fetchone()
    if created:
        return created, True
    existing = conn.execute(
        f"SELECT {_WITH_TIERS} FROM memories WHERE workspace_id = %s AND dedup_key = %s AND deleted_at IS NULL "
        "AND valid_to IS NULL",
        (row["workspace_id"], row["dedup_key"]),
    ).fetchone()
    assert existing is not None, "dedup conflict without a live row"
    return existing, False


# Column types for the bulk insert: it sends each column as one array parameter, and text arrays (tags,
# message ids) cannot nest in a Postgres array, so there they travel as jsonb and are unpacked in SQL.
_ARRAY_TYPES = {
    "importance": "real", "pinned": "boolean", "embedding": "vector", "sequence_index": "integer",
    "event_time": "timestamptz", "vector_gen": "bigint", "metadata": "jsonb", "refinement_metadata": "jsonb",
    "tier_source_spans": "jsonb",
    "tags": "jsonb", "tags_lower": "jsonb", "source_message_ids": "jsonb",
}  # fmt: skip
_TEXT_ARRAYS = {"tags", "tags_lower", "source_message_ids"}
_MANY_SQL = (
    f"INSERT INTO memories ({', '.join(_INSERT_FIELDS)}) "
    "SELECT "
    + ", ".join(
        f"ARRAY(SELECT jsonb_array_elements_text(r.{f}))" if f in _TEXT_ARRAYS else f"r.{f}"
        for f in _INSERT_FIELDS
    )
    + " FROM unnest("
    # %b: binary parameters. Text-formatting 1000 vectors of 384 floats (and parsing them back) was about
    # half the cost of a bulk insert.
    + ", ".join(f"%b::{_ARRAY_TYPES.get(f, 'text')}[]" for f in _INSERT_FIELDS)
    + f") AS r({', '.join(_INSERT_FIELDS)}) "
    "ON CONFLICT (workspace_id, dedup_key) WHERE deleted_at IS NULL AND valid_to IS NULL DO NOTHING "
    "RETURNING id, dedup_key"
)


def insert_many(conn: Connection, rows: Sequence[dict[str, Any]]) -> list[tuple[str, bool]]:
    """Insert many memories of one workspace; duplicates resolve to the existing rows. Returns (memory id,
    created) in the order given; two identical rows inside one call: the first is created, the second
    resolves to it.

    Rows whose dedup key is not live yet go in by one ``INSERT ... SELECT FROM unnest(...) ON CONFLICT DO
    NOTHING``; a concurrent writer that stored one of the same memories in the meantime wins, and that row
    resolves to its id. (Not COPY, though it was cheaper: PostgreSQL refuses COPY FROM into a table with
    row-level security, migration 0015.)
    """
    if not rows:
        return []
    workspace_id = rows[0]["workspace_id"]
    assert all(row["workspace_id"] == workspace_id for row in rows), "one workspace per bulk insert"
    existing = _live_ids(conn, workspace_id, [row["dedup_key"] for row in rows])
    fresh: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["dedup_key"] not in existing:
            fresh.setdefault(row["dedup_key"], row)
    created: dict[str, str] = {}
    if fresh:
        created = _insert_skipping_duplicates(conn, list(fresh.values()))
        lost = [key for key in fresh if key not in created]
        if lost:
            existing.update(_live_ids(conn, workspace_id, lost))
    out: list[tuple[str, bool]] = []
    for row in rows:
        key = row["dedup_key"]
        if key in created:
            out.append((created.pop(key), True))
            existing[key] = out[-1][0]  # a later identical row in this call resolves to this one
        else:
            out.append((existing[key], False))
    return out


def _live_ids(conn: Connection, workspace_id: str, dedup_keys: list[str]) -> dict[str, str]:
    """dedup key → id of the live memory that has it."""
    return {
        found["dedup_key"]: found["id"]
        for found in conn.execute(
            "SELECT id, dedup_key FROM memories "
            "WHERE workspace_id = %s AND dedup_key = ANY(%s) AND deleted_at IS NULL AND valid_to IS NULL",
            (workspace_id, dedup_keys),
        )
    }


def _insert_skipping_duplicates(conn: Connection, rows: list[dict[str, Any]]) -> dict[str, str]:
    """One INSERT, a column per array parameter; returns dedup key → id of the rows it created."""
    by_row = [_params(row) for row in rows]
    columns = [
        [Jsonb(v) for v in column] if f in _TEXT_ARRAYS else list(column)
        for f, column in zip(_INSERT_FIELDS, zip(*by_row, strict=True), strict=True)
    ]
    return {found["dedup_key"]: found["id"] for found in conn.execute(_MANY_SQL, columns)}


def next_sequence_index(conn: Connection, workspace_id: str, sequence_key: str) -> int:
    """The next index of a stream, under a transaction-scoped lock: concurrent appends queue, never collide."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{workspace_id}\x1f{sequence_key}",)
    )
    row = one(
        conn.execute(
            "SELECT coalesce(max(sequence_index) + 1, 0) AS next FROM memories "
            "WHERE workspace_id = %s AND sequence_key = %s AND deleted_at IS NULL",
            (workspace_id, sequence_key),
        ).fetchone()
    )
    return row["next"]


def sequence_keys(conn: Connection, workspace_id: str) -> list[str]:
    return [
        r["sequence_key"]
        for r in conn.execute(
            "SELECT DISTINCT sequence_key FROM memories WHERE workspace_id = %s AND sequence_key IS NOT NULL "
            "AND deleted_at IS NULL ORDER BY sequence_key",
            (workspace_id,),
        )
    ]


def get(
    conn: Connection,
    scope: Scope,
    memory_id: str,
    *,
    include_deleted: bool = False,
    embedding: bool = False,
) -> dict | None:
    where, params = scope.clause()
    deleted = "" if include_deleted else "AND deleted_at IS NULL"
    extra = ", embedding" if embedding else ""
    return conn.execute(
        f"SELECT {_WITH_TIERS}{extra} FROM memories WHERE id = %s AND {where} {deleted}", [memory_id, *params]
    ).fetchone()


def get_for_update(
    conn: Connection, scope: Scope, memory_id: str, *, include_deleted: bool = False
) -> dict | None:
    where, params = scope.clause()
    deleted = "" if include_deleted else "AND deleted_at IS NULL"
    return conn.execute(
        f"SELECT {COLUMNS}, dedup_key FROM memories WHERE id = %s AND {where} {deleted} FOR UPDATE",
        [memory_id, *params],
    ).fetchone()


# What an update may set: the fields of a memory update, the values derived from them, and decay's two. Column
# names come from this list, never from a request's keys.
UPDATABLE_COLUMNS = frozenset(
    {
        "content", "event_time", "importance", "metadata", "pinned", "refinement_metadata", "subtype", "tags",
        "type", "tags_lower", "content_hash", "embedding", "embedding_model", "dedup_key", "decay_factor",
        "abstract", "overview", "tier_source_spans",
    }
)  # fmt: skip


def update(conn: Connection, workspace_id: str, memory_id: str, changes: dict[str, Any]) -> dict:
    """Apply ``changes`` (column → value; columns from ``UPDATABLE_COLUMNS``) and bump the revision."""
    sets = assignments(changes, UPDATABLE_COLUMNS, what="memory")
    params = [_json(v) if k in _JSON_FIELDS else v for k, v in changes.items()]
    return one(
        conn.execute(
            sql.SQL(
                "UPDATE memories SET {}, revision = revision + 1, updated_at = now() "
                "WHERE id = %s AND workspace_id = %s RETURNING " + _WITH_TIERS
            ).format(sets),
            [*params, memory_id, workspace_id],
        ).fetchone()
    )


def soft_delete(conn: Connection, scope: Scope, memory_id: str) -> dict | None:
    where, params = scope.clause()
    return conn.execute(
        f"UPDATE memories SET deleted_at = now(), status = 'deleted', revision = revision + 1, updated_at = now() "
        f"WHERE id = %s AND {where} AND deleted_at IS NULL RETURNING {_WITH_TIERS}",
        [memory_id, *params],
    ).fetchone()


def restore(conn: Connection, workspace_id: str, memory_id: str) -> dict | None:
    """Bring a soft-deleted memory back (a new revision); None when it is not deleted."""
    return conn.execute(
        f"UPDATE memories SET deleted_at = NULL, status = 'active', revision = revision + 1, updated_at = now() "
        f"WHERE id = %s AND workspace_id = %s AND deleted_at IS NOT NULL RETURNING {_WITH_TIERS}",
        (memory_id, workspace_id),
    ).fetchone()


def tag_operation(conn: Connection, operation_id: str, action: str | None = None) -> None:
    """Name the transaction's writes: the revisions it records carry ``operation_id`` (the client's
    Idempotency-Key; trigger ``memories_revision``), so a retry finds the revision its first try made, and
    ``action`` when given (else the trigger reads it off the row: update, delete, restore, …)."""
    conn.execute(
        "SELECT set_config('memorylayer.operation_id', %s, true), set_config('memorylayer.revision_action', %s, true)",
        (operation_id, action or ""),
    )


def operation_snapshot(conn: Connection, workspace_id: str, memory_id: str, operation_id: str) -> dict | None:
    """The memory as the write tagged ``operation_id`` left it (its revision's snapshot), if there is one."""
    row = conn.execute(
        "SELECT snapshot FROM memory_revisions WHERE workspace_id = %s AND memory_id = %s AND operation_id = %s "
        "ORDER BY revision DESC LIMIT 1",
        (workspace_id, memory_id, operation_id),
    ).fetchone()
    return row["snapshot"] if row else None


def hard_delete(conn: Connection, scope: Scope, memory_id: str) -> dict | None:
    """Remove the row and its history: a hard delete leaves no copy of the content behind."""
    where, params = scope.clause()
    row = conn.execute(
        f"DELETE FROM memories WHERE id = %s AND {where} RETURNING id, workspace_id", [memory_id, *params]
    ).fetchone()
    if row:
        conn.execute("DELETE FROM memory_revisions WHERE memory_id = %s", (memory_id,))
    return row


def list_recent(
    conn: Connection,
    scope: Scope,
    *,
    limit: int,
    offset: int,
    type_: str | None = None,
    subtype: str | None = None,
    tag: str | None = None,
    context_id: str | None = None,
    sequence_key: str | None = None,
    embedding: bool = False,
) -> list[dict]:
    """Newest first; a stream (``sequence_key``) comes in index order instead."""
    where, params = scope.clause()
    clauses = [where, "deleted_at IS NULL", "valid_to IS NULL"]
    order = "created_at DESC, id DESC"
    if sequence_key is not None:
        order = "sequence_index, id"
    for column, value in (
        ("type", type_),
        ("subtype", subtype),
        ("context_id", context_id),
        ("sequence_key", sequence_key),
    ):
        if value is not None:
            clauses.append(f"{column} = %s")
            params.append(value)
    if tag is not None:
        clauses.append("tags_lower @> %s")
        params.append([tag.strip().lower()])
    extra = ", embedding" if embedding else ""
    return conn.execute(
        f"SELECT {_WITH_TIERS}{extra} FROM memories WHERE {' AND '.join(clauses)} "
        f"ORDER BY {order} LIMIT %s OFFSET %s",
        [*params, limit, offset],
    ).fetchall()


def revisions(
    conn: Connection, scope: Scope, memory_id: str, *, limit: int, before: int | None
) -> list[dict]:
    """Recorded revisions, newest first (as the reference lists them), those older than ``before`` when given.
    A memory never changed has none recorded: its live row is revision 1."""
    where, params = scope.clause()
    live_where, _ = scope.clause("m.workspace_id")
    below = before if before is not None else 2**31 - 1
    return conn.execute(
        f"SELECT revision, action, operation_id, snapshot, created_at FROM memory_revisions "
        f"WHERE memory_id = %s AND {where} AND revision < %s "
        "UNION ALL "
        "SELECT 1, 'create', NULL, to_jsonb(m) - 'embedding' - 'tsv', m.created_at FROM memories m "
        f"WHERE m.id = %s AND {live_where} AND m.revision = 1 AND %s > 1 "
        # rows created before migration 0009 have their creation recorded
        "AND NOT EXISTS (SELECT 1 FROM memory_revisions r WHERE r.memory_id = m.id AND r.revision = 1) "
        "ORDER BY revision DESC LIMIT %s",
        [memory_id, *params, below, memory_id, *params, below, limit],
    ).fetchall()


# ---------------------------------------------------------------- reads for sessions, context packs, export
# A live memory: not deleted, not superseded.
_LIVE = "workspace_id = %s AND deleted_at IS NULL AND valid_to IS NULL"


def directives(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """Live directives, preferences and pinned memories, newest first (a context pack's first section)."""
    return conn.execute(
        f"SELECT {_TIERED} FROM memories WHERE {_LIVE} AND (subtype IN ('directive', 'preference') OR pinned) "
        "ORDER BY created_at DESC, id LIMIT %s",
        (workspace_id, limit),
    ).fetchall()


def recent_activity(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """Live memories newest first, raw checkpoints left out (their lines are the activity)."""
    return conn.execute(
        f"SELECT {_TIERED} FROM memories WHERE {_LIVE} AND subtype IS DISTINCT FROM 'checkpoint' "
        "ORDER BY created_at DESC, id LIMIT %s",
        (workspace_id, limit),
    ).fetchall()


def live_by_ids(conn: Connection, workspace_id: str, memory_ids: list[str]) -> list[dict]:
    """The live memories among ``memory_ids`` (deleted and superseded ones drop out), in no set order."""
    return conn.execute(
        f"SELECT {_TIERED} FROM memories WHERE id = ANY(%s) AND {_LIVE}", (memory_ids, workspace_id)
    ).fetchall()


def created_since(conn: Connection, workspace_id: str, since: datetime, limit: int) -> list[dict]:
    """Live memories created after ``since``, newest first."""
    return conn.execute(
        f"SELECT {_TIERED} FROM memories WHERE {_LIVE} AND created_at > %s "
        "ORDER BY created_at DESC, id LIMIT %s",
        (workspace_id, since, limit),
    ).fetchall()


def activity_summary(conn: Connection, workspace_id: str, *, day_start: datetime) -> dict:
    """Live memories, those created after ``day_start``, distinct subtypes, and the workspace's edges."""
    return one(
        conn.execute(
            "SELECT count(*) AS total_memories, count(*) FILTER (WHERE created_at > %(day)s) AS recent_memories, "
            "count(DISTINCT subtype) AS total_categories, "
            "(SELECT count(*) FROM associations WHERE workspace_id = %(ws)s) AS total_associations "
            "FROM memories WHERE workspace_id = %(ws)s AND deleted_at IS NULL AND valid_to IS NULL",
            {"ws": workspace_id, "day": day_start},
        ).fetchone()
    )


def type_counts(conn: Connection, workspace_id: str) -> dict[str, int]:
    """Live memories by type (the briefing's ``memory_types``)."""
    rows = conn.execute(
        f"SELECT type, count(*) AS n FROM memories WHERE {_LIVE} GROUP BY type ORDER BY type", (workspace_id,)
    ).fetchall()
    return {r["type"]: r["n"] for r in rows}


def top_tags_since(conn: Connection, workspace_id: str, since: datetime, limit: int = 10) -> list[str]:
    """The tags used most by live memories created after ``since`` (ties by name)."""
    rows = conn.execute(
        f"SELECT tag FROM memories, unnest(tags) AS tag WHERE {_LIVE} AND created_at > %s "
        "GROUP BY tag ORDER BY count(*) DESC, tag LIMIT %s",
        (workspace_id, since, limit),
    ).fetchall()
    return [r["tag"] for r in rows]


def delete_derived(conn: Connection, workspace_id: str, source_memory_id: str) -> None:
    """Remove the memories derived from one source (a checkpoint's lines, before indexing them again)."""
    conn.execute(
        "DELETE FROM memories WHERE source_memory_id = %s AND workspace_id = %s",
        (source_memory_id, workspace_id),
    )


def logical_key_holder(
    conn: Connection, workspace_id: str, user_id: str | None, logical_key: str
) -> str | None:
    """The id of the live memory that already holds ``logical_key`` for this user, if any."""
    row = conn.execute(
        "SELECT id FROM memories WHERE workspace_id = %s AND coalesce(user_id, '') = %s "
        "AND logical_key = %s AND deleted_at IS NULL",
        (workspace_id, user_id or "", logical_key),
    ).fetchone()
    return row["id"] if row else None


def export_page(
    conn: Connection, workspace_id: str, *, after: tuple[datetime, str] | None, limit: int
) -> list[dict]:
    """Undeleted memories (history included) in creation order, after the keyset ``(created_at, id)``."""
    keyset = "AND (created_at, id) > (%(t)s, %(id)s)" if after else ""
    return conn.execute(
        f"SELECT {COLUMNS}, stale_by FROM memories WHERE workspace_id = %(ws)s AND deleted_at IS NULL "
        f"{keyset} ORDER BY created_at, id LIMIT %(n)s",
        {
            "ws": workspace_id,
            "t": after[0] if after else None,
            "id": after[1] if after else None,
            "n": limit,
        },
    ).fetchall()


def export_rows(conn: Connection, workspace_id: str, ids: list[str]) -> dict[str, dict]:
    """The memories ``ids`` as the wire model reads them (export format 2's ``data``), by id."""
    rows = conn.execute(
        f"SELECT {COLUMNS}, stale_by FROM memories WHERE workspace_id = %s AND id = ANY(%s)",
        (workspace_id, ids),
    ).fetchall()
    return {row["id"]: row for row in rows}


# What an import restores on a row it has just created (shared/domain/workspaces.py ImportedHistory): no revision is
# recorded for it, the row is as it was exported.
RESTORABLE_COLUMNS = frozenset(
    {
        "created_at", "updated_at", "valid_from", "valid_to", "status", "fact_key", "superseded_by", "stale_by",
        "source_memory_id",
    }
)  # fmt: skip


def restore_imported(conn: Connection, workspace_id: str, memory_id: str, fields: dict[str, Any]) -> None:
    """Set the exported history of an imported memory (``fields``: column → value, ids already mapped)."""
    sets = assignments(fields, RESTORABLE_COLUMNS, what="imported memory")
    conn.execute(
        sql.SQL("UPDATE memories SET {} WHERE workspace_id = %s AND id = %s").format(sets),
        [*fields.values(), workspace_id, memory_id],
    )


def analyze(conn: Connection) -> None:
    """Fresh planner statistics after a large move into the HNSW graph (the owner's SECURITY DEFINER call)."""
    conn.execute("SELECT analyze_memories()")


# Migration 0019's reader: pg_stats hides a table under row-level security from the roles it binds (the app
# role), so the owner's function reads the two arrays. A one-row function: NULLs when not analysed yet.
WORD_STATS_SQL = "SELECT lexemes, freqs FROM memories_word_stats() WHERE lexemes IS NOT NULL"


def word_stats(conn: Connection) -> DictRow | None:
    """The planner's most common lexemes of ``memories.tsv`` and their shares (None: not analysed yet), as
    ``{"lexemes": ["coffe", ...], "freqs": [0.95, ..., min, max, null share]}``.

    >>> row = word_stats(conn)  # doctest: +SKIP
    """
    return conn.execute(WORD_STATS_SQL).fetchone()


def embeddings_of(
    conn: Connection, workspace_ids: list[str], memory_ids: list[str]
) -> dict[str, list[float]]:
    """The stored vectors of these memories (recall's ``include_embeddings``)."""
    rows = conn.execute(
        "SELECT id, embedding FROM memories WHERE workspace_id = ANY(%s) AND id = ANY(%s) AND embedding IS NOT NULL",
        (workspace_ids, memory_ids),
    )
    return {r["id"]: r["embedding"].to_list() for r in rows}


def tiers_of(conn: Connection, workspace_ids: Sequence[str], memory_ids: Sequence[str]) -> dict[str, dict]:
    """id → its stored tiers (``abstract``, ``overview``, ``tier_source_spans``; nulls when it has none) for
    those of ``memory_ids`` in ``workspace_ids``."""
    if not memory_ids:
        return {}
    return {
        row["id"]: row
        for row in conn.execute(
            "SELECT id, abstract, overview, tier_source_spans FROM memories "
            "WHERE workspace_id = ANY(%s) AND id = ANY(%s)",
            (list(workspace_ids), list(memory_ids)),
        )
    }


def tiers_pending(conn: Connection, limit: int) -> list[dict]:
    """The next ``limit`` memories of any workspace without tiers, locked (concurrent sweeps skip each other's):
    the head of ``memories_tiers_pending``, so a sweep resumes where the last one stopped."""
    return conn.execute(
        "SELECT id, workspace_id, content FROM memories WHERE tier_source_spans IS NULL "
        "ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED",
        (limit,),
    ).fetchall()


def set_tiers(conn: Connection, workspace_id: str, memory_id: str, tiers: dict[str, Any]) -> None:
    """Write derived tiers without a new revision (nothing the caller wrote changed)."""
    conn.execute(
        "UPDATE memories SET abstract = %s, overview = %s, tier_source_spans = %s "
        "WHERE workspace_id = %s AND id = %s",
        (tiers["abstract"], tiers["overview"], _json(tiers["tier_source_spans"]), workspace_id, memory_id),
    )
