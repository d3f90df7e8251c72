"""The schema, applied as the database **owner** (0010 creates the app role the functions log in as), under one
advisory lock, in three steps:

1. the numbered migrations in ``shared/db/migrations/`` (``NNNN_what.sql``), each once, in order, each in one
   transaction (recorded in ``schema_migrations``): tables, columns, indexes on new tables, triggers, grants.
   They are history: a database migrated from empty replays all of them.
2. the repeatable files in ``shared/db/functions/`` (shared/db/repeatable.py): every SQL function, and the
   workspace wall's policies, defined once as they are now, each applied when its checksum changes (recorded in
   ``schema_functions``). A function that a migration once made is replaced here by its file.
3. what depends on the configured embedding size (``vector_index.ensure``, ``ensure_recall_function``) and the
   indexes built CONCURRENTLY, outside any transaction (``ensure_stale_by_index``,
   ``ensure_workspace_text_index``, ``ensure_context_text_index``, ``ensure_export_order_index``,
   ``ensure_idempotency_age_index``, ``ensure_context_name_index``, ``ensure_tiers_pending_index``), with the
   contract steps that drop an index only once its replacement is valid (a migration file runs before the
   replacement is built, so it cannot).

``shared/db/schema.sql`` is the result, for reading: ``make schema`` regenerates it after a change to either
folder (shared/local/schema.py), and tests/integration/test_schema.py fails until it does.

>>> apply_migrations(owner_target(settings), embedding_dimensions=384)                   # doctest: +SKIP
['0001_init.sql']
>>> apply_migrations("postgresql://memorylayer_owner@127.0.0.1:5432/postgres")          # doctest: +SKIP
[]

A new migration: the next number, expand-only unless it says ``-- migration: contract`` on its first line
(tests/infra/test_migration_rules.py, infra/README.md "Expand/contract"), then ``make schema``. A changed function:
edit its file in ``shared/db/functions/``, never a migration; a removed one: delete its file and drop it in a new
migration (the rules: shared/db/repeatable.py).
"""

from __future__ import annotations

from importlib import resources

import psycopg

from shared.db import vector_index
from shared.db.connection import ConnectionTarget
from shared.db.recall import ensure_recall_function
from shared.db.repeatable import apply_function_files

_LOCK_ID = 0x6D656D6C  # "meml": concurrent starters (several Lambdas, dev + tests) wait instead of racing


def migration_files() -> list[tuple[str, str]]:
    folder = resources.files("shared.db") / "migrations"
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".sql"))
    return [(name, (folder / name).read_text()) for name in names]


def apply_migrations(
    target: ConnectionTarget | str,
    *,
    embedding_dimensions: int = 384,
    dedicated_deadline: float | None = None,
) -> list[str]:
    """Apply pending migrations, then the repeatable files that changed, and make sure the HNSW index and the
    recall function for the configured embedding size exist. Returns the migrations applied (the repeatable
    files applied are logged). ``dedicated_deadline`` (``time.monotonic()``): the workspaces' own graphs only
    until then, the rest left to the next indexing pass (``vector_index.ensure``)."""
    if isinstance(target, str):
        target = ConnectionTarget(target)
    applied: list[str] = []
    with target.connect(autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_ID,))
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
            for name, sql in migration_files():
                if name in done:
                    continue
                with conn.transaction():
                    conn.execute(sql)
                    conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (name,))
                applied.append(name)
            apply_function_files(conn)
            vector_index.ensure(conn, embedding_dimensions, dedicated_deadline=dedicated_deadline)
            ensure_stale_by_index(conn)
            ensure_workspace_text_index(conn)
            ensure_context_text_index(conn)
            ensure_export_order_index(conn)
            ensure_idempotency_age_index(conn)
            ensure_context_name_index(conn)
            ensure_tiers_pending_index(conn)
            ensure_recall_function(
                conn, embedding_dimensions, generation=vector_index.published(conn, embedding_dimensions)
            )
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_ID,))
    return applied


def ensure_stale_by_index(conn: psycopg.Connection) -> None:
    """The lookup of turns marked stale by a fact (shared/db/facts.py carries the marks forward when that fact is
    superseded in turn). Few rows carry one, so the partial index is small; built CONCURRENTLY here, outside the
    files' transactions (infra/README.md, "No long index build in the custom resource")."""
    conn.execute(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_stale_by ON memories (workspace_id, stale_by) "
        "WHERE stale_by IS NOT NULL"
    )


EXPORT_ORDER_INDEX = "memories_ws_export"


def ensure_export_order_index(conn: psycopg.Connection) -> None:
    """An export pages a workspace's memories, soft-deleted ones too, by ``(created_at, id)``
    (shared/db/transfer.py): without this each page read the whole table, every tenant's rows. Built CONCURRENTLY
    here like the other late indexes; an invalid leftover is dropped and built again."""
    vector_index.drop_invalid(conn, EXPORT_ORDER_INDEX)
    conn.execute(
        f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {EXPORT_ORDER_INDEX} ON memories (workspace_id, created_at, id)"
    )


def ensure_idempotency_age_index(conn: psycopg.Connection) -> None:
    """The cleanup sweep deletes expired Idempotency-Key records oldest first (shared/db/idempotency.py); without
    this each batch read the whole table."""
    vector_index.drop_invalid(conn, "idempotency_records_created_at")
    conn.execute(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS idempotency_records_created_at ON idempotency_records (created_at)"
    )


def ensure_tiers_pending_index(conn: psycopg.Connection) -> None:
    """What the tier backfill has left: rows leave this index as their tiers are written, so each sweep's batch is
    the index's head and a sweep resumes where the last stopped (a fully backfilled table leaves it empty)."""
    vector_index.drop_invalid(conn, "memories_tiers_pending")
    conn.execute(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_tiers_pending ON memories (id) WHERE tier_source_spans IS NULL"
    )


CONTEXT_NAME_INDEX = "contexts_workspace_name"
# Renames every duplicate but the oldest (migration 0052 did once; a release still serving may have made more).
_RENAME_DUPLICATE_CONTEXTS = """
UPDATE contexts c SET name = c.name || ' (' || c.id || ')'
WHERE EXISTS (
    SELECT 1 FROM contexts o
    WHERE o.workspace_id = c.workspace_id AND o.name = c.name AND (o.created_at, o.id) < (c.created_at, c.id)
)"""


def ensure_context_name_index(conn: psycopg.Connection) -> None:
    """A context's name is unique within its workspace; a duplicate insert answers 409 by this index's name
    (shared/db/workspaces.py). Duplicates the previous release made while the files ran are renamed first."""
    vector_index.drop_invalid(conn, CONTEXT_NAME_INDEX)
    exists = conn.execute("SELECT to_regclass(%s)", (CONTEXT_NAME_INDEX,)).fetchone()
    if exists is not None and exists[0] is not None:
        return
    for attempt in range(2):
        conn.execute(_RENAME_DUPLICATE_CONTEXTS)
        try:
            conn.execute(
                f"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS {CONTEXT_NAME_INDEX} ON contexts (workspace_id, name)"
            )
            return
        except psycopg.errors.UniqueViolation:
            # A duplicate written during the build: rename it too and build once more (the next deploy retries).
            vector_index.drop_invalid(conn, CONTEXT_NAME_INDEX)
            if attempt:
                raise


WORKSPACE_TEXT_INDEX = "memories_ws_tsv"
# 0001's table-wide full-text index: the per-workspace one answers everything it did
# (tests/integration/test_workspace_text_index.py), so it goes once that one is valid.
TABLE_TEXT_INDEX = "memories_tsv"
CONTEXT_TEXT_INDEX = "memory_contexts_ws_tsv"


def ensure_workspace_text_index(conn: psycopg.Connection) -> None:
    """The full-text index per workspace (btree_gin, migration 0046): recall's text functions ask one workspace at
    a time, so a word's lookup reads that workspace's matches, not every workspace's (``memories_tsv``). Built
    CONCURRENTLY here, outside the files' transactions; on a large populated database build it out of band first
    (infra/README.md, "No long index build in the custom resource"), and this is a no-op. An invalid one a failed
    build left is dropped and built again. The contract step: ``memories_tsv`` is dropped once this one is valid,
    never before (until then the planner keeps it; same rows)."""
    _text_index(
        conn,
        WORKSPACE_TEXT_INDEX,
        "memories USING gin (workspace_id, tsv) WHERE deleted_at IS NULL",
        replaces=TABLE_TEXT_INDEX,
    )


def ensure_context_text_index(conn: psycopg.Connection) -> None:
    """The same per workspace for the previous turn's words (``memory_contexts``, migration 0023), which recall
    looks up one workspace at a time too (memorylayer_context_matches). Its table-wide ``memory_contexts_tsv``
    stays one more release: the previous release's ``analyze_memories`` names it (infra/README.md, "Contract
    step pending")."""
    _text_index(conn, CONTEXT_TEXT_INDEX, "memory_contexts USING gin (workspace_id, tsv)", replaces=None)


def _text_index(conn: psycopg.Connection, name: str, definition: str, *, replaces: str | None) -> None:
    vector_index.drop_invalid(conn, name)
    conn.execute(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {definition}")
    valid = conn.execute(
        "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(%s)", (name,)
    ).fetchone()
    if replaces is not None and valid == (True,):
        conn.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {replaces}")
