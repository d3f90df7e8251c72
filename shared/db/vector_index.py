"""The HNSW graph by generations (migration 0021): which rows recall walks in the graph, which it scans exactly,
and the owner's bulk build of the next graph.

    >>> published(conn, 384)                                    # the app: recall's G     # doctest: +SKIP
    3
    >>> rebuild(owner_conn, 384, memory_mb=settings.vector_build_memory_mb)  # the owner only  # doctest: +SKIP
    Rebuild(generation=4, rows=1000000, seconds=212.0, dropped='memories_embedding_384_g3')

Every row has a ``vector_gen``; the graph of generation G is the partial index ``memories_embedding_<dims>_g<G>``
over ``vector_gen <= G``. Rows written one at a time get 0, so they are in every graph at once; bulk writes get
the generation after the one published or being built, so they skip the graph (no per-row HNSW insert) and wait
as the pending tail. Recall puts G literally in its text: ``vector_gen <= G`` walks the graph, ``vector_gen > G``
is scanned exactly, so whatever G a process uses, the two arms partition the rows and results are complete and
exact; only the speed depends on G's index existing.

Two ways into the graph: a small pending set moves row by row (an UPDATE to the published G; each row costs an
HNSW insert), a large one (``wants_bulk``) is built whole by ``rebuild``: CREATE INDEX CONCURRENTLY of generation
G+1 (several times cheaper a row, and writes go on meanwhile; new bulk writes get G+2), then G+1 is published and
G's index dropped. DDL: only the owner's direct connection runs ``rebuild`` (the app role runs no DDL, and its
session SETs of maintenance memory would pin RDS Proxy).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any

import psycopg

from shared.db.rows import Connection

# A pending set this large, and at least this share of the rows in the graph, is built in bulk. A rebuild pays
# off once the pending rows are about 1/8 of the graph (per-row costs: BENCHMARKS.md, the 1M section); 1/4 leaves
# margin for the rebuild's other costs (ANALYZE, the pending index) and keeps a steady trickle of batches on the
# cheap path.
BULK_MIN_PENDING = 50_000
BULK_MIN_SHARE = 0.25
# Building the graph: parallel workers (the leader builds too). Its memory is the caller's
# (``Settings.vector_build_memory_mb``: a 1M × 384 graph needs ~2.5 GB to be built in memory; larger spills to
# disk, several times slower).
BUILD_PARALLEL_WORKERS = 1
# The graph's build parameters: pgvector's m 16 with ef_construction 32 (its default 64; 32 is the least it takes
# for m 16): about half the build time for the same walk quality, and cheaper single inserts (bench/hnsw_build.py;
# the alternatives tried: BENCHMARKS.md, "The graph's build parameters"). A graph built before keeps its
# parameters until the next generation's build.
GRAPH_M = 16
GRAPH_EF_CONSTRUCTION = 32
# After publishing G+1, G's index is dropped this much later: a process that read G just before still walks it
# (the app re-reads G with every recall; without the index a recall is exact, only slower).
DROP_GRACE_S = 5.0
_BUILD_LOCK = 0x6D6C6776  # "mlgv": one rebuild at a time, whichever process asks


def index_name(dims: int, generation: int) -> str:
    return f"memories_embedding_{int(dims)}_g{int(generation)}"


def index_ddl(dims: int, generation: int, *, concurrently: bool = True) -> str:
    dims, generation = int(dims), int(generation)
    how = "CONCURRENTLY " if concurrently else ""
    return (
        f"CREATE INDEX {how}IF NOT EXISTS {index_name(dims, generation)} ON memories "
        f"USING hnsw ((embedding::vector({dims})) vector_cosine_ops) "
        f"WITH (m = {GRAPH_M}, ef_construction = {GRAPH_EF_CONSTRUCTION}) "
        f"WHERE deleted_at IS NULL AND vector_dims(embedding) = {dims} AND vector_gen <= {generation}"
    )


GENERATION_SQL = "SELECT published, building FROM vector_index_generations WHERE dims = %s"


def published(conn: Connection | psycopg.Connection[Any], dims: int) -> int:
    """The generation recall uses for ``dims`` (0 before any bulk build, or on a schema without the table)."""
    row = conn.execute(GENERATION_SQL, (int(dims),)).fetchone()
    if row is None:
        return 0
    return int(row["published"] if isinstance(row, dict) else row[0])


def bulk_generation(conn: Connection, dims: int) -> int:
    """The generation a bulk write gets: after the one being built, else after the published one (pending)."""
    row = conn.execute(GENERATION_SQL, (int(dims),)).fetchone()
    if row is None:
        return 1
    return int(row["building"] if row["building"] is not None else row["published"]) + 1


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


@dataclass(frozen=True)
class Plan:
    generation: int
    pending: int  # counted up to ``threshold``
    in_graph: int
    threshold: int  # a pending set this large is built in bulk

    @property
    def wants_bulk(self) -> bool:
        return self.pending >= self.threshold


def plan(conn: Connection, dims: int) -> Plan:
    """How far the graph is behind (``wants_bulk``: build it whole rather than row by row): at least
    BULK_MIN_PENDING rows and BULK_MIN_SHARE of the graph's."""
    generation = published(conn, dims)
    in_graph = in_graph_estimate(conn, dims, generation)
    threshold = max(BULK_MIN_PENDING, math.ceil(BULK_MIN_SHARE * in_graph), 1)
    return Plan(generation, pending(conn, generation, at_most=threshold), in_graph, threshold)


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


@dataclass(frozen=True)
class Rebuild:
    generation: int  # now published
    rows: int  # in the new graph
    seconds: float  # the build (CREATE INDEX CONCURRENTLY) alone
    total_seconds: float  # through publishing (ANALYZE, recall function)
    dropped: str | None  # the previous generation's index


def rebuild(
    owner: psycopg.Connection[Any],
    dims: int,
    *,
    memory_mb: int,
    parallel_workers: int = BUILD_PARALLEL_WORKERS,
    drop_grace_s: float | None = None,
) -> Rebuild | None:
    """Build generation G+1's graph over every row, publish it, drop G's. On the owner's direct connection, in
    autocommit (CREATE INDEX CONCURRENTLY runs in no transaction), with ``memory_mb`` of maintenance_work_mem
    (``Settings.vector_build_memory_mb``). None if another rebuild holds the lock.

    Writes go on meanwhile: bulk writes that read ``building`` get G+2 and stay pending; any that read G before
    get G+1 and are in the new graph (CONCURRENTLY takes in rows written during the build). A failed build
    leaves an invalid index, dropped by the next attempt; recall keeps G meanwhile."""
    from shared.db.recall import ensure_recall_function

    dims = int(dims)
    if not owner.autocommit:
        raise ValueError("rebuild needs an autocommit connection (CREATE INDEX CONCURRENTLY)")
    if owner.execute("SELECT pg_try_advisory_lock(%s)", (_BUILD_LOCK,)).fetchone() != (True,):
        return None
    try:
        started = time.monotonic()
        owner.execute(
            "INSERT INTO vector_index_generations (dims) VALUES (%s) ON CONFLICT DO NOTHING", (dims,)
        )
        # After a build that died (its ``building`` left set, bulk rows written with building + 1): start past
        # it, so those rows are in this graph too. Nobody else builds: the lock is ours.
        row = owner.execute(
            "SELECT coalesce(building, published) FROM vector_index_generations WHERE dims = %s", (dims,)
        ).fetchone()
        new = (int(row[0]) if row else 0) + 1
        owner.execute("UPDATE vector_index_generations SET building = %s WHERE dims = %s", (new, dims))
        drop_invalid(owner, index_name(dims, new))
        # The owner's own session (a direct connection, not through the proxy): these SETs pin nothing.
        owner.execute(f"SET maintenance_work_mem = '{int(memory_mb)}MB'")
        owner.execute(f"SET max_parallel_maintenance_workers = {int(parallel_workers)}")
        built_at = time.monotonic()
        try:
            owner.execute(index_ddl(dims, new))
        except BaseException:
            owner.execute("UPDATE vector_index_generations SET building = NULL WHERE dims = %s", (dims,))
            raise
        finally:
            owner.execute("RESET maintenance_work_mem")
            owner.execute("RESET max_parallel_maintenance_workers")
        build_s = time.monotonic() - built_at
        # Statistics for vector_gen first: with the new G the planner must see the graph's side as large.
        owner.execute("ANALYZE memories")
        ensure_recall_function(owner, dims, generation=new)
        owner.execute(
            "UPDATE vector_index_generations SET published = %s, building = NULL, published_at = now() "
            "WHERE dims = %s",
            (new, dims),
        )
        total_s = time.monotonic() - started
        rows = owner.execute(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(%s)", (index_name(dims, new),)
        ).fetchone()
        time.sleep(max(0.0, DROP_GRACE_S if drop_grace_s is None else drop_grace_s))
        dropped = drop_older(owner, dims, new)
        return Rebuild(new, int(rows[0]) if rows else 0, round(build_s, 1), round(total_s, 1), dropped)
    finally:
        owner.execute("SELECT pg_advisory_unlock(%s)", (_BUILD_LOCK,))


def drop_invalid(owner: psycopg.Connection[Any], name: str) -> None:
    """An index a failed CREATE INDEX CONCURRENTLY left behind (invalid: not used, but maintained)."""
    row = owner.execute(
        "SELECT NOT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(%s)", (name,)
    ).fetchone()
    if row and row[0]:
        owner.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")


def drop_older(owner: psycopg.Connection[Any], dims: int, generation: int) -> str | None:
    """Drop the graphs of generations before ``generation`` (and the pre-0021 one); returns the last dropped."""
    pattern = re.compile(rf"memories_embedding_{int(dims)}(?:_g([0-9]+))?")
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
