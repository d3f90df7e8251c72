"""Graph DDL on the owner's direct connection, in autocommit (CREATE INDEX CONCURRENTLY runs in no
transaction): the graph for an embedding size, a bulk rebuild with the configured build memory, and the own
graph of a workspace grown past ``vector_index.DEDICATED_MIN_ROWS`` since the last rebuild.

    >>> rebuild_as_owner(settings, 384)                           # doctest: +SKIP
    Rebuild(generation=4, rows=1000000, seconds=212.0, total_seconds=215.3, dropped='memories_embedding_384_g3')

The app role may run no DDL: the migrate function (AWS), ``memorylayer index --bulk`` and ``memorylayer reembed``
(the CLI), and a worker that has the owner's credentials (locally) come here.
"""

from __future__ import annotations

import time

from psycopg.rows import dict_row

from shared.core.settings import Settings
from shared.db import vector_index
from shared.db.connection import ConnectionTarget, owner_target
from shared.db.recall import ensure_recall_function
from shared.domain.indexing import bulk
from shared.domain.indexing import plan as planning

__all__ = ["dedicated_as_owner", "ensure_as_owner", "plan_as_owner", "rebuild_as_owner"]


def ensure_as_owner(settings: Settings, dims: int) -> None:
    """The graph for ``dims`` (a new embedding size: its build takes the build's time on a populated table).
    Raises RuntimeError without the owner's credentials, psycopg's errors when the login may not."""
    with owner_target(settings).connect(autocommit=True) as conn:
        vector_index.ensure(conn, dims)


def plan_as_owner(settings: Settings, dims: int) -> planning.Plan:
    """``plan.plan`` on the owner's connection: whether an ask for a build, which may have waited in Lambda's queue
    behind the build it asked for, still wants one."""
    with owner_target(settings).connect(autocommit=True, row_factory=dict_row) as conn:
        return planning.plan(conn, dims)


def rebuild_as_owner(
    settings: Settings, dims: int, *, target: ConnectionTarget | None = None, timeout_ms: int | None = None
) -> bulk.Rebuild | None:
    """``bulk.rebuild`` with ``Settings.vector_build_memory_mb``, on ``target`` (the caller's owner target, when
    it has one already; else ``owner_target(settings)``). None if another rebuild holds the lock. ``timeout_ms``:
    the build is cancelled after that long (psycopg's QueryCanceled; nothing published)."""
    owner = target or owner_target(settings)
    with owner.connect(autocommit=True) as conn:
        return bulk.rebuild(conn, dims, memory_mb=settings.vector_build_memory_mb, timeout_ms=timeout_ms)


def dedicated_as_owner(
    settings: Settings, dims: int, *, target: ConnectionTarget | None = None, timeout_ms: int | None = None
) -> list[str]:
    """The published generation's own graph for each workspace grown past ``vector_index.DEDICATED_MIN_ROWS``
    since it was built (rows written one at a time are in the published graph at once, so a workspace can cross
    the threshold between rebuilds, and a rebuild out of time leaves some); returns those built now. Not while a
    rebuild holds the lock: it builds the next generation's, and two builds at once would share the memory.
    ``timeout_ms``: as many as fit (the rest are the next pass's); one that alone does not fit is cancelled and
    marks the size timed out, so the asks stop until the owner builds it (``memorylayer index --bulk``)."""
    owner = target or owner_target(settings)
    deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000
    with owner.connect(autocommit=True) as conn, vector_index.build_lock(conn) as locked:
        if not locked:
            return []
        generation = vector_index.published(conn, dims)
        with vector_index.build_memory(
            conn, memory_mb=settings.vector_build_memory_mb, parallel_workers=bulk.BUILD_PARALLEL_WORKERS
        ):
            own = vector_index.build_dedicated_until(conn, dims, generation, deadline=deadline)
        built = own.built
        if own.timed_out and not built:
            vector_index.mark_timed_out(conn, dims)
        if built:  # recall's function for each (shared/db/recall.py, own_function)
            ensure_recall_function(conn, dims, generation=generation)
        return built
