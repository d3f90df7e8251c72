"""The SQL and DDL of the HNSW graph by generations (migration 0021): which generation is published, which rows
wait outside its graph, and the statements of the owner's bulk build of the next graph.

    >>> published(conn, 384)                                    # the app: recall's G     # doctest: +SKIP
    3
    >>> ensure(owner_conn, 384)                                 # the owner, on migrate   # doctest: +SKIP

Every row has a ``vector_gen``; the graph of generation G is the partial index ``memories_embedding_<dims>_g<G>``
over ``vector_gen <= G``. Rows written one at a time get 0, so they are in every graph at once; bulk writes get
the generation after the one published or being built, so they skip the graph (no per-row HNSW insert) and wait
as the pending tail. Recall puts G literally in its text: ``vector_gen <= G`` walks the graph, ``vector_gen > G``
is scanned exactly, so whatever G a process uses, the two arms partition the rows and results are complete and
exact; only the speed depends on G's index existing.

A workspace holding at least ``DEDICATED_MIN_ROWS`` rows of the graph (and at most half of it) also has a graph
of its own, ``memories_embedding_<dims>_g<G>_w<8 hex of its id>``: the generation's predicate plus
``workspace_id = '<id>'`` (literal: a partial index's predicate takes no parameter). A walk of the table-wide graph filtered to one
workspace visits about 1/share of it; its own graph holds only its rows. Its rows are in both graphs (built twice,
each single insert twice). ``vector_dedicated_graphs`` (migration 0048) records which workspace has one at which
generation; recall puts the same literal in its vector arm so the planner can prove the predicate (and sorts the
rest of its scope apart). Whether one
exists changes the speed only: the two arms still partition the rows by G.

When a graph is built, rebuilt or moved into row by row is the indexing package's (shared/domain/indexing/);
this module only runs the statements. DDL runs on the owner's direct connection only (the app role runs no DDL,
and its session SETs of maintenance memory would pin RDS Proxy).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

from shared.db.rows import Connection

# The graph's build parameters: pgvector's m 16 with ef_construction 32 (its default 64; 32 is the least it takes
# for m 16): about half the build time for the same walk quality, and cheaper single inserts (bench/hnsw_build.py;
# the alternatives tried: BENCHMARKS.md, "The graph's build parameters"). A graph built before keeps its
# parameters until the next generation's build.
GRAPH_M = 16
GRAPH_EF_CONSTRUCTION = 32
# A workspace with this many rows in a generation's graph gets a graph of its own too: the table-wide walk
# filtered to it cost 8-17x its walk alone at 15k-50k rows (BENCHMARKS.md, "A graph of its own per large workspace").
DEDICATED_MIN_ROWS = 10_000
# ...unless it holds more than this share of that graph: the table-wide walk is then nearly its own already (a
# single-tenant deployment would build its one graph twice).
DEDICATED_MAX_SHARE = 0.5
_BUILD_LOCK = 0x6D6C6776  # "mlgv": one rebuild at a time, whichever process asks
# How often the owner's session checks, while building, that its client is still there: a migrate function
# killed at Lambda's limit leaves a socket PostgreSQL would otherwise notice only when the build ends.
CLIENT_CHECK_MS = 10_000


def index_name(dims: int, generation: int) -> str:
    return f"memories_embedding_{int(dims)}_g{int(generation)}"


def index_ddl(
    dims: int, generation: int, *, concurrently: bool = True, workspace_id: str | None = None
) -> str:
    """Generation ``generation``'s graph; with ``workspace_id``, that workspace's own graph of it (the same graph
    over its rows only, named by ``dedicated_name``)."""
    dims, generation = int(dims), int(generation)
    how = "CONCURRENTLY " if concurrently else ""
    name = (
        index_name(dims, generation)
        if workspace_id is None
        else dedicated_name(dims, generation, workspace_id)
    )
    own = "" if workspace_id is None else f" AND workspace_id = {workspace_literal(workspace_id)}"
    return (
        f"CREATE INDEX {how}IF NOT EXISTS {name} ON memories "
        f"USING hnsw ((embedding::vector({dims})) vector_cosine_ops) "
        f"WITH (m = {GRAPH_M}, ef_construction = {GRAPH_EF_CONSTRUCTION}) "
        f"WHERE deleted_at IS NULL AND vector_dims(embedding) = {dims} AND vector_gen <= {generation}{own}"
    )


def workspace_literal(workspace_id: str) -> str:
    """``workspace_id`` as an SQL string literal (psycopg's quoting): a dedicated graph's predicate, and the
    recall that must prove it, carry the id in their text."""
    return sql.Literal(str(workspace_id)).as_string(None).strip()


def dedicated_name(dims: int, generation: int, workspace_id: str) -> str:
    """The name of ``workspace_id``'s own graph of ``generation``: the generation's, a short hash of the id."""
    digest = hashlib.sha256(str(workspace_id).encode()).hexdigest()[:8]
    return f"{index_name(dims, generation)}_w{digest}"


GENERATION_SQL = "SELECT published, building FROM vector_index_generations WHERE dims = %s"


def published(conn: Connection | psycopg.Connection[Any], dims: int) -> int:
    """The generation recall uses for ``dims`` (0 before any bulk build, or on a schema without the table)."""
    row = conn.execute(GENERATION_SQL, (int(dims),)).fetchone()
    if row is None:
        return 0
    return int(row["published"] if isinstance(row, dict) else row[0])


def generations(conn: Connection, dims: int) -> tuple[int, int | None] | None:
    """``(published, building)`` for ``dims``: None before any row (a schema without a bulk build yet)."""
    row = conn.execute(GENERATION_SQL, (int(dims),)).fetchone()
    if row is None:
        return None
    return int(row["published"]), None if row["building"] is None else int(row["building"])


def pending(conn: Connection, generation: int, *, at_most: int | None = None) -> int:
    """Live rows not in generation ``generation``'s graph (any workspace: the caller sees every one), counted up
    to ``at_most`` (a bulk load asks after every batch: counting a million pending rows each time would cost a
    core)."""
    limit = "" if at_most is None else f" LIMIT {int(at_most)}"
    row = conn.execute(
        f"SELECT count(*) AS n FROM (SELECT FROM memories WHERE vector_gen > %s AND deleted_at IS NULL{limit}) p",
        (generation,),
    ).fetchone()
    return int(row["n"]) if row else 0


def in_graph_estimate(conn: Connection, dims: int, generation: int) -> int:
    """About how many rows generation ``generation``'s graph holds (its reltuples: set when it was built, grown
    by VACUUM; rows written one at a time since are not counted, which only makes a rebuild come sooner)."""
    row = conn.execute(
        "SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = to_regclass(%s)",
        (index_name(dims, generation),),
    ).fetchone()
    return int(row["n"]) if row else 0


def move_rows(conn: Connection, dims: int, *, limit: int) -> int:
    """The row-by-row path: up to ``limit`` pending rows into the published graph (each UPDATE inserts its row
    there). Oldest generation first; safe to run concurrently (SKIP LOCKED)."""
    generation = published(conn, dims)
    return conn.execute(
        "UPDATE memories SET vector_gen = %(g)s WHERE id IN ("
        "  SELECT id FROM memories WHERE vector_gen > %(g)s AND deleted_at IS NULL"
        "  ORDER BY vector_gen LIMIT %(n)s FOR UPDATE SKIP LOCKED)",
        {"g": generation, "n": limit},
    ).rowcount


@contextmanager
def build_lock(owner: psycopg.Connection[Any]) -> Iterator[bool]:
    """One bulk build at a time, whichever process asks: True while this session holds the lock, False (and
    nothing to release) when another one does."""
    if owner.execute("SELECT pg_try_advisory_lock(%s)", (_BUILD_LOCK,)).fetchone() != (True,):
        yield False
        return
    try:
        yield True
    finally:
        owner.execute("SELECT pg_advisory_unlock(%s)", (_BUILD_LOCK,))


# Whether a build is in flight (a ``building`` mark younger than ``fresh_s``, or ``build_lock`` held by any
# session: a build by ``memorylayer index --bulk`` may outlast the mark) and whether one ran out of its time since
# the last publish (migration 0047). Readable by the app role (pg_locks is public).
BUILD_STATE_SQL = f"""
SELECT coalesce(g.building IS NOT NULL AND g.building_since > now() - make_interval(secs => %(fresh_s)s), false)
       OR EXISTS (SELECT FROM pg_locks l
                  WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = {_BUILD_LOCK}
                    AND l.objsubid = 1
                    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS in_flight,
       g.build_timed_out_at IS NOT NULL AS timed_out
FROM (SELECT) one LEFT JOIN vector_index_generations g ON g.dims = %(dims)s
"""


def build_state(conn: Connection, dims: int, *, fresh_s: float) -> tuple[bool, bool]:
    """``(in_flight, timed_out)`` for ``dims`` (``BUILD_STATE_SQL``)."""
    row = conn.execute(BUILD_STATE_SQL, {"dims": int(dims), "fresh_s": float(fresh_s)}).fetchone()
    return (bool(row["in_flight"]), bool(row["timed_out"])) if row else (False, False)


def begin_build(owner: psycopg.Connection[Any], dims: int) -> int:
    """Mark the next generation as being built (bulk writes then get the one after it) and return it. After a
    build that died (its ``building`` left set, bulk rows written with building + 1): past it, so those rows are
    in this graph too. Under ``build_lock``: nobody else builds."""
    dims = int(dims)
    owner.execute("INSERT INTO vector_index_generations (dims) VALUES (%s) ON CONFLICT DO NOTHING", (dims,))
    row = owner.execute(
        "SELECT coalesce(building, published) FROM vector_index_generations WHERE dims = %s", (dims,)
    ).fetchone()
    new = (int(row[0]) if row else 0) + 1
    owner.execute(
        "UPDATE vector_index_generations SET building = %s, building_since = now() WHERE dims = %s",
        (new, dims),
    )
    return new


def abandon_build(owner: psycopg.Connection[Any], dims: int, *, timed_out: bool = False) -> None:
    """A failed build: nothing is being built any more (recall keeps the published generation). ``timed_out``:
    it ran out of its caller's time (``create_graph``'s ``timeout_ms``), remembered until a build publishes."""
    owner.execute(
        "UPDATE vector_index_generations SET building = NULL, building_since = NULL, "
        "build_timed_out_at = CASE WHEN %s THEN now() ELSE build_timed_out_at END WHERE dims = %s",
        (timed_out, int(dims)),
    )


@contextmanager
def build_memory(owner: psycopg.Connection[Any], *, memory_mb: int, parallel_workers: int) -> Iterator[None]:
    """The build's maintenance memory and parallel workers, for the owner's own session (a direct connection,
    not through the proxy: these SETs pin nothing), reset afterwards."""
    owner.execute(f"SET maintenance_work_mem = '{int(memory_mb)}MB'")
    owner.execute(f"SET max_parallel_maintenance_workers = {int(parallel_workers)}")
    owner.execute(f"SET client_connection_check_interval = {CLIENT_CHECK_MS}")
    try:
        yield
    finally:
        owner.execute("RESET maintenance_work_mem")
        owner.execute("RESET max_parallel_maintenance_workers")
        owner.execute("RESET client_connection_check_interval")


def create_graph(
    owner: psycopg.Connection[Any], dims: int, generation: int, *, timeout_ms: int | None = None
) -> None:
    """CREATE INDEX CONCURRENTLY of generation ``generation``'s graph (in autocommit: no transaction).
    ``timeout_ms``: cancelled after that long (QueryCanceled; an invalid index stays behind), the session's own
    statement_timeout afterwards."""
    if timeout_ms is None:
        owner.execute(index_ddl(dims, generation))
        return
    owner.execute(f"SET statement_timeout = {max(1, int(timeout_ms))}")
    try:
        owner.execute(index_ddl(dims, generation))
    finally:
        owner.execute("RESET statement_timeout")


def analyze(owner: psycopg.Connection[Any]) -> None:
    """Statistics for ``vector_gen`` (the owner's ANALYZE; the app role calls ``memories.analyze``)."""
    owner.execute("ANALYZE memories")


def publish(owner: psycopg.Connection[Any], dims: int, generation: int) -> None:
    """Recall reads ``generation`` from now on; nothing is being built any more."""
    owner.execute(
        "UPDATE vector_index_generations SET published = %s, building = NULL, building_since = NULL, "
        "build_timed_out_at = NULL, published_at = now() WHERE dims = %s",
        (int(generation), int(dims)),
    )


def graph_rows(owner: psycopg.Connection[Any], dims: int, generation: int) -> int:
    """The rows generation ``generation``'s graph was built over (its reltuples)."""
    row = owner.execute(
        "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(%s)", (index_name(dims, generation),)
    ).fetchone()
    return int(row[0]) if row else 0


def drop_invalid(owner: psycopg.Connection[Any], name: str) -> None:
    """An index a failed CREATE INDEX CONCURRENTLY left behind (invalid: not used, but maintained)."""
    row = owner.execute(
        "SELECT NOT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(%s)", (name,)
    ).fetchone()
    if row and row[0]:
        owner.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")


def drop_older(owner: psycopg.Connection[Any], dims: int, generation: int) -> str | None:
    """Drop the graphs of generations before ``generation`` (and the pre-0021 one), workspaces' own graphs with
    their generation's; returns the last dropped."""
    pattern = re.compile(rf"memories_embedding_{int(dims)}(?:_g([0-9]+)(?:_w[0-9a-f]{{8}})?)?")
    owner.execute(
        "DELETE FROM vector_dedicated_graphs WHERE dims = %s AND generation < %s",
        (int(dims), int(generation)),
    )
    dropped = None
    for (name,) in owner.execute(
        "SELECT c.relname FROM pg_class c WHERE c.relkind = 'i' AND c.relname LIKE %s",
        (f"memories_embedding_{int(dims)}%",),
    ).fetchall():
        match = pattern.fullmatch(name)
        if match and (match[1] is None or int(match[1]) < generation):
            owner.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
            dropped = name
    return dropped


def dedicated_candidates(
    conn: Connection | psycopg.Connection[Any],
    generation: int,
    *,
    min_rows: int | None = None,
    max_share: float | None = None,
) -> list[str]:
    """The workspaces with at least ``min_rows`` live rows in generation ``generation``'s graph but at most
    ``max_share`` of it (None: ``DEDICATED_MIN_ROWS``, ``DEDICATED_MAX_SHARE``); largest first. Any embedding size:
    an index-only count of the pending lookup's index, cheap enough for every indexing pass."""
    return [
        row["workspace_id"] if isinstance(row, dict) else row[0]
        for row in conn.execute(
            "SELECT workspace_id FROM ("
            "  SELECT workspace_id, count(*) AS n, sum(count(*)) OVER () AS total FROM memories"
            "  WHERE deleted_at IS NULL AND vector_gen <= %s GROUP BY workspace_id) w "
            "WHERE n >= %s AND n <= %s * total ORDER BY n DESC, workspace_id",
            (
                int(generation),
                int(DEDICATED_MIN_ROWS if min_rows is None else min_rows),
                float(DEDICATED_MAX_SHARE if max_share is None else max_share),
            ),
        ).fetchall()
    ]


def dedicated(conn: Connection | psycopg.Connection[Any], dims: int, generation: int) -> set[str]:
    """The workspaces that have a graph of their own at ``generation`` (those the caller's wall shows)."""
    return {
        row["workspace_id"] if isinstance(row, dict) else row[0]
        for row in conn.execute(
            "SELECT workspace_id FROM vector_dedicated_graphs WHERE dims = %s AND generation = %s",
            (int(dims), int(generation)),
        ).fetchall()
    }


DEDICATED_OF_SQL = "SELECT generation FROM vector_dedicated_graphs WHERE workspace_id = %s AND dims = %s"


def dedicated_generations(conn: Connection, workspace_id: str, dims: int) -> frozenset[int]:
    """The generations at which ``workspace_id`` has a graph of its own (those the caller's wall shows)."""
    rows = conn.execute(DEDICATED_OF_SQL, (workspace_id, int(dims))).fetchall()
    return frozenset(int(r["generation"] if isinstance(r, dict) else r[0]) for r in rows)


def dedicated_missing(
    conn: Connection | psycopg.Connection[Any],
    dims: int,
    generation: int,
    *,
    min_rows: int | None = None,
    max_share: float | None = None,
) -> list[str]:
    """The workspaces over the threshold in ``generation``'s graph (``dedicated_candidates``) without a graph of
    their own there yet, largest first; none for a size that has no HNSW graph at all."""
    if int(dims) > 2000:
        return []
    have = dedicated(conn, dims, generation)
    return [
        w
        for w in dedicated_candidates(conn, generation, min_rows=min_rows, max_share=max_share)
        if w not in have
    ]


def create_dedicated(
    owner: psycopg.Connection[Any],
    dims: int,
    generation: int,
    workspace_id: str,
    *,
    timeout_ms: int | None = None,
) -> bool:
    """CREATE INDEX CONCURRENTLY of ``workspace_id``'s own graph of ``generation`` (in autocommit), then its
    record; False (nothing recorded) if the name is another workspace's (an 8-hex collision). ``timeout_ms``:
    cancelled after that long (QueryCanceled; the invalid index is dropped), as ``create_graph``."""
    name = dedicated_name(dims, generation, workspace_id)
    drop_invalid(owner, name)
    if timeout_ms is None:
        owner.execute(index_ddl(dims, generation, workspace_id=workspace_id))
    else:
        owner.execute(f"SET statement_timeout = {max(1, int(timeout_ms))}")
        try:
            owner.execute(index_ddl(dims, generation, workspace_id=workspace_id))
        except psycopg.errors.QueryCanceled:
            owner.execute("RESET statement_timeout")
            drop_invalid(owner, name)  # no write maintains it meanwhile
            raise
        finally:
            owner.execute("RESET statement_timeout")
    row = owner.execute("SELECT pg_get_indexdef(to_regclass(%s))", (name,)).fetchone()
    if not row or f"(workspace_id = {workspace_literal(workspace_id)}::text)" not in (row[0] or ""):
        return False
    owner.execute(
        "INSERT INTO vector_dedicated_graphs (workspace_id, dims, generation, index_name) VALUES (%s, %s, %s, %s) "
        "ON CONFLICT (workspace_id, dims, generation) DO UPDATE SET index_name = EXCLUDED.index_name",
        (workspace_id, int(dims), int(generation), name),
    )
    return True


@dataclass(frozen=True)
class DedicatedBuilds:
    built: list[str]  # the workspaces whose own graph was built now
    left: list[str]  # those still missing one: out of time, left for the next pass
    timed_out: bool  # a build was cancelled at the deadline (one own graph alone did not fit)


def build_dedicated_until(
    owner: psycopg.Connection[Any],
    dims: int,
    generation: int,
    *,
    deadline: float | None,
    min_rows: int | None = None,
    max_share: float | None = None,
) -> DedicatedBuilds:
    """``build_dedicated`` bounded by ``deadline`` (``time.monotonic()``; None: unbounded): each build gets the
    time left as its statement timeout, one cut off is dropped, and the workspaces not reached are left for the
    next pass (they stay in ``dedicated_missing``)."""
    missing = dedicated_missing(owner, dims, generation, min_rows=min_rows, max_share=max_share)
    built: list[str] = []
    for i, workspace_id in enumerate(missing):
        left_ms = None if deadline is None else int((deadline - time.monotonic()) * 1000)
        if left_ms is not None and left_ms <= 0:
            return DedicatedBuilds(built, missing[i:], timed_out=False)
        try:
            if create_dedicated(owner, dims, generation, workspace_id, timeout_ms=left_ms):
                built.append(workspace_id)
        except psycopg.errors.QueryCanceled as exc:
            if left_ms is None or "statement timeout" not in (exc.diag.message_primary or ""):
                raise  # cancelled by hand: a failure like any other
            return DedicatedBuilds(built, missing[i:], timed_out=True)
    return DedicatedBuilds(built, [], timed_out=False)


def build_dedicated(
    owner: psycopg.Connection[Any],
    dims: int,
    generation: int,
    *,
    min_rows: int | None = None,
    max_share: float | None = None,
    deadline: float | None = None,
) -> list[str]:
    """Every workspace over ``min_rows`` in ``generation``'s graph without its own graph yet gets one (a workspace
    of a bulk rebuild, or one grown past the threshold by single writes since), as many as fit before
    ``deadline`` (``build_dedicated_until``); returns those built."""
    return build_dedicated_until(
        owner, dims, generation, deadline=deadline, min_rows=min_rows, max_share=max_share
    ).built


def mark_timed_out(owner: psycopg.Connection[Any], dims: int) -> None:
    """A build too large for the caller's time (an own graph alone did not fit): asks stop until a build
    publishes (``build_state``'s ``timed_out``; the owner builds it with ``memorylayer index --bulk``)."""
    owner.execute(
        "UPDATE vector_index_generations SET build_timed_out_at = now() WHERE dims = %s", (int(dims),)
    )


def ensure(owner: psycopg.Connection[Any], dims: int, *, dedicated_deadline: float | None = None) -> None:
    """The graph of the published generation for ``dims``, the lookup of the pending tail, and no pre-0021
    graph. Built CONCURRENTLY (``owner`` is in autocommit, outside the migrations' transactions): a new
    embedding size on a populated table still takes the build's time. The workspaces' own graphs only until
    ``dedicated_deadline`` (``time.monotonic()``; a deploy's migrate passes one): the rest are the next indexing
    pass's (the worker asks for them: shared/domain/indexing/indexer.py)."""
    dims = int(dims)
    owner.execute(f"SET client_connection_check_interval = {CLIENT_CHECK_MS}")
    # Recall's exact arm finds a workspace's pending rows here (any G: ``vector_gen > G``).
    drop_invalid(owner, "memories_vector_gen")
    owner.execute(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_vector_gen ON memories (workspace_id, vector_gen) "
        "WHERE deleted_at IS NULL"
    )
    owner.execute("DROP INDEX CONCURRENTLY IF EXISTS memories_vector_pending")  # 0006's, on vector_indexed
    if dims > 2000:  # pgvector's HNSW limit for `vector`; larger sizes fall back to exact search
        return
    owner.execute("INSERT INTO vector_index_generations (dims) VALUES (%s) ON CONFLICT DO NOTHING", (dims,))
    generation = published(owner, dims)
    drop_invalid(owner, index_name(dims, generation))
    owner.execute(index_ddl(dims, generation))
    # 0006's graph over vector_indexed: code since 0021 walks the generation's graph instead.
    drop_older(owner, dims, generation)
    build_dedicated(owner, dims, generation, deadline=dedicated_deadline)
