"""Numbered SQL migrations from ``shared/migrations``, applied once each, in order, under an advisory lock,
as the database **owner** (0010 creates the app role the functions log in as).

>>> apply_migrations(owner_target(settings), embedding_dimensions=384)                   # doctest: +SKIP
['0001_init.sql']
>>> apply_migrations("postgresql://memorylayer_owner@127.0.0.1:5432/postgres")          # doctest: +SKIP
[]
"""

from __future__ import annotations

from importlib import resources

import psycopg

from shared.db.connection import ConnectionTarget
from shared.db.vector_index import published

_LOCK_ID = 0x6D656D6C  # "meml": concurrent starters (several Lambdas, dev + tests) wait instead of racing


def migration_files() -> list[tuple[str, str]]:
    folder = resources.files("shared") / "migrations"
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".sql"))
    return [(name, (folder / name).read_text()) for name in names]


def apply_migrations(target: ConnectionTarget | str, *, embedding_dimensions: int = 384) -> list[str]:
    """Apply pending migrations and make sure the HNSW index and the recall function for the configured
    embedding size exist."""
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
            ensure_vector_index(conn, embedding_dimensions)
            ensure_stale_by_index(conn)
            ensure_recall_function(
                conn, embedding_dimensions, generation=published(conn, embedding_dimensions)
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


def ensure_vector_index(conn: psycopg.Connection, dims: int) -> None:
    """The graph of the published generation for ``dims`` (shared/db/vector_index.py), the lookup of the
    pending tail, and no pre-0021 graph. Built CONCURRENTLY (``conn`` is in autocommit, outside the
    migrations' transactions): a new embedding size on a populated table still takes the build's time."""
    from shared.db import vector_index

    dims = int(dims)
    # Recall's exact arm finds a workspace's pending rows here (any G: ``vector_gen > G``).
    vector_index.drop_invalid(conn, "memories_vector_gen")
    conn.execute(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_vector_gen ON memories (workspace_id, vector_gen) "
        "WHERE deleted_at IS NULL"
    )
    conn.execute("DROP INDEX CONCURRENTLY IF EXISTS memories_vector_pending")  # 0006's, on vector_indexed
    if dims > 2000:  # pgvector's HNSW limit for `vector`; larger sizes fall back to exact search
        return
    conn.execute("INSERT INTO vector_index_generations (dims) VALUES (%s) ON CONFLICT DO NOTHING", (dims,))
    generation = vector_index.published(conn, dims)
    vector_index.drop_invalid(conn, vector_index.index_name(dims, generation))
    conn.execute(vector_index.index_ddl(dims, generation))
    # 0006's graph over vector_indexed: code since 0021 walks the generation's graph instead.
    vector_index.drop_older(conn, dims, generation)


# How many recall_hot_* functions per embedding size migrate keeps: this code's and the two before it.
KEEP_RECALL_FUNCTIONS = 3


def ensure_recall_function(conn: psycopg.Connection, dims: int, *, generation: int = 0) -> None:
    """Recall's hot-shape function for ``dims`` (shared/retrieval/statement.py, ``HotFunction``), made from the
    statement this code ships, once: its name holds a hash of its text, so a deploy that changes the statement
    makes (and calls) a new one; an older version, still running meanwhile, keeps its own. So does each vector
    ``generation`` (literal in the statement): ``rebuild`` makes the next one's before publishing it. The app
    role may only execute it."""
    # The statement is recall's (retrieval owns it); it is installed here because only the owner may.
    from shared.retrieval.statement import hot_function

    hot = hot_function(dims, generation)
    if conn.execute("SELECT to_regproc(%s) IS NOT NULL", (hot.name,)).fetchone() == (True,):
        return
    # The result columns and their types, as the statement has them (LIMIT 0: planned, nothing read).
    cur = conn.execute(f"SELECT * FROM ({hot.probe}) probe LIMIT 0")
    names = [c.name for c in cur.description or ()]
    types = conn.execute(
        "SELECT format_type(t, NULL) FROM unnest(%s::oid[]) WITH ORDINALITY AS x(t, i) ORDER BY i",
        ([c.type_code for c in cur.description or ()],),
    ).fetchall()
    with conn.transaction():
        conn.execute(hot.ddl([(n, t) for n, (t,) in zip(names, types, strict=True)]))
        conn.execute(f"REVOKE ALL ON FUNCTION {hot.name} FROM PUBLIC")
        conn.execute(f"GRANT EXECUTE ON FUNCTION {hot.name} TO memorylayer_app")
        # Older statements' functions: the newest few stay for versions still running during a deploy (or
        # rolled back to); the rest go. A version whose function is gone falls back to the ad-hoc statement
        # (Recaller.recall retries on UndefinedFunction), so this is never an outage, only a slower plan.
        stale = conn.execute(
            "SELECT p.oid::regprocedure::text AS signature FROM pg_proc p "
            "WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE %s AND p.proname <> %s "
            "ORDER BY p.oid DESC OFFSET %s",
            (f"recall\\_hot\\_%\\_{int(dims)}", hot.name, KEEP_RECALL_FUNCTIONS - 1),
        ).fetchall()
        for (signature,) in stale:
            conn.execute(f"DROP FUNCTION IF EXISTS {signature}")
