"""The owner's bulk build of the next graph generation: build G+1 over every row and each large workspace's own
G+1 graph, publish G+1, drop G's graphs.

    >>> rebuild(owner_conn, 384, memory_mb=settings.vector_build_memory_mb)  # the owner only  # doctest: +SKIP
    Rebuild(generation=4, rows=1000000, seconds=212.0, total_seconds=215.3, dropped='memories_embedding_384_g3', ...)

The statements are shared/db/vector_index.py's; this is their order, and the pause before the old graph goes.
DDL: only the owner's direct connection runs ``rebuild`` (the app role runs no DDL).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import psycopg

from shared.db import vector_index
from shared.db.recall import ensure_recall_function

__all__ = ["BUILD_PARALLEL_WORKERS", "DROP_GRACE_S", "Rebuild", "rebuild"]

# Building the graph: parallel workers (the leader builds too). Its memory is the caller's
# (``Settings.vector_build_memory_mb``: a 1M × 384 graph needs ~2.5 GB to be built in memory; larger spills to
# disk, several times slower).
BUILD_PARALLEL_WORKERS = 1
# After publishing G+1, G's index is dropped this much later: a process that read G just before still walks it
# (the app re-reads G with every recall; without the index a recall is exact, only slower).
DROP_GRACE_S = 5.0


@dataclass(frozen=True)
class Rebuild:
    generation: int  # now published
    rows: int  # in the new graph
    seconds: float  # the build (CREATE INDEX CONCURRENTLY) alone
    total_seconds: float  # through publishing (ANALYZE, recall function)
    dropped: str | None  # the previous generation's index
    dedicated: tuple[str, ...] = ()  # the workspaces whose own graph was built with it
    dedicated_seconds: float = 0.0  # those builds
    dedicated_left: tuple[str, ...] = ()  # the workspaces whose own graph did not fit: the next pass's


def rebuild(
    owner: psycopg.Connection[Any],
    dims: int,
    *,
    memory_mb: int,
    parallel_workers: int = BUILD_PARALLEL_WORKERS,
    drop_grace_s: float | None = None,
    timeout_ms: int | None = None,
) -> Rebuild | None:
    """Build generation G+1's graph over every row and every large workspace's own G+1 graph
    (``vector_index.DEDICATED_MIN_ROWS``), publish G+1 (a published generation has its workspaces' graphs), drop
    G's graphs. On the owner's direct connection, in
    autocommit (CREATE INDEX CONCURRENTLY runs in no transaction), with ``memory_mb`` of maintenance_work_mem
    (``Settings.vector_build_memory_mb``). None if another rebuild holds the lock.

    Writes go on meanwhile: bulk writes that read ``building`` get G+2 and stay pending; any that read G before
    get G+1 and are in the new graph (CONCURRENTLY takes in rows written during the build). A failed build
    leaves an invalid index, dropped by the next attempt; recall keeps G meanwhile. ``timeout_ms`` bounds the
    build (the caller's time left: the migrate function's): one cut off is abandoned as timed out and its invalid
    index dropped at once (no write maintains it meanwhile); the workspaces' own graphs get what is left of it,
    and those that do not fit are built by a later pass (``dedicated_left``)."""
    dims = int(dims)
    if not owner.autocommit:
        raise ValueError("rebuild needs an autocommit connection (CREATE INDEX CONCURRENTLY)")
    with vector_index.build_lock(owner) as locked:
        if not locked:
            return None
        started = time.monotonic()
        new = vector_index.begin_build(owner, dims)
        vector_index.drop_invalid(owner, vector_index.index_name(dims, new))
        with vector_index.build_memory(owner, memory_mb=memory_mb, parallel_workers=parallel_workers):
            built_at = time.monotonic()
            try:
                vector_index.create_graph(owner, dims, new, timeout_ms=timeout_ms)
                build_s = time.monotonic() - built_at
                # Each large workspace's own graph of G+1, before G+1 is published, in the time left: those that
                # do not fit are the next pass's (``dedicated_as_owner``), and G+1 is published without them
                # (an own graph changes recall's speed only).
                deadline = None if timeout_ms is None else built_at + timeout_ms / 1000
                own = vector_index.build_dedicated_until(owner, dims, new, deadline=deadline)
                dedicated, dedicated_left = own.built, own.left
                dedicated_s = time.monotonic() - built_at - build_s
            except psycopg.errors.QueryCanceled as exc:  # out of time, or cancelled by hand
                timed_out = "statement timeout" in (exc.diag.message_primary or "")
                vector_index.abandon_build(owner, dims, timed_out=timed_out)
                vector_index.drop_invalid(owner, vector_index.index_name(dims, new))
                raise
            except BaseException:
                vector_index.abandon_build(owner, dims)
                raise
        # Statistics for vector_gen first: with the new G the planner must see the graph's side as large.
        vector_index.analyze(owner)
        ensure_recall_function(owner, dims, generation=new)
        vector_index.publish(owner, dims, new)
        total_s = time.monotonic() - started
        rows = vector_index.graph_rows(owner, dims, new)
        time.sleep(max(0.0, DROP_GRACE_S if drop_grace_s is None else drop_grace_s))
        dropped = vector_index.drop_older(owner, dims, new)
        return Rebuild(
            new,
            rows,
            round(build_s, 1),
            round(total_s, 1),
            dropped,
            tuple(dedicated),
            round(dedicated_s, 1),
            tuple(dedicated_left),
        )
