"""Bringing bulk-written memories into the HNSW graph: the choice between a bulk build of the next generation
and the row-by-row move, and who builds.

    >>> VectorIndexer(db, settings, dims=384).index_vectors()    # doctest: +SKIP
    {'status': 'done', 'kind': 'index_vectors', 'indexed': 200, 'more': False}

A large pending set (``plan.Plan.wants_bulk``) is built in bulk when this process has the owner's credentials
(locally ``database_owner_url``); in AWS the worker has only the app role's, so it asks the migrate function
(an asynchronous invoke, infra/README.md). Otherwise rows move one batch at a time (``rows.index_pending``).
The extraction worker runs this for its queue's ``index_vectors`` messages, the inline indexer without a queue.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from shared.core.settings import Settings
from shared.db import memories as memories_repo
from shared.db import rls, vector_index
from shared.db.connection import ConnectionTarget, owner_target
from shared.db.pool import Database
from shared.domain.indexing.owner import dedicated_as_owner, rebuild_as_owner
from shared.domain.indexing.plan import Plan, plan
from shared.domain.indexing.rows import ANALYZE_AFTER_ROWS, ROW_BATCH, index_pending

__all__ = ["ROW_BATCHES_PER_LOOK", "VectorIndexer"]

log = logging.getLogger(__name__)
# The row-by-row path looks at the pending set again after this many batches (a bulk build may pay off by then).
ROW_BATCHES_PER_LOOK = 10


class VectorIndexer:
    """The pending rows of embeddings of ``dims`` dimensions, any workspace, into the graph."""

    def __init__(self, db: Database, settings: Settings, dims: int) -> None:
        self.db = db
        self.settings = settings
        self.dims = dims

    def index_vectors(self, *, defer_bulk: bool = False, budget_s: float = 60.0) -> dict[str, Any]:
        """A large pending set by a bulk build (or the migrate function's, asked for), else row by row, looking
        again every few thousand rows (a load may still be growing the set). ``defer_bulk``: bulk writes are
        still arriving; build later (status ``deferred``), and move nothing row by row meanwhile (the build
        would redo it). ``more``: the budget ended with rows still moving, so the caller should run again."""
        dims = self.dims
        owner = self._owner_target()
        if owner is None and self.settings.vector_rebuild_function:
            requested = self._ask_for_rebuild(dims)
            if requested is not None:
                return requested
        deadline = time.monotonic() + budget_s
        moved = 0
        more = False  # stopped by the budget with rows still moving: the caller should run again
        while True:
            if owner is not None:
                with rls.visible(rls.EVERY), self.db.connection() as conn:
                    ahead = plan(conn, dims)
                if ahead.wants_bulk:
                    if defer_bulk:
                        return {"status": "deferred", "kind": "index_vectors", "indexed": moved}
                    return self._rebuild(owner, dims, ahead, moved)
                if ahead.pending == 0:
                    break
            left = deadline - time.monotonic()
            step = index_pending(
                self.db, dims=dims, max_batches=ROW_BATCHES_PER_LOOK, budget_s=left, analyze=False
            )
            moved += step
            if step < ROW_BATCHES_PER_LOOK * ROW_BATCH or time.monotonic() > deadline:
                more = step > 0 and time.monotonic() > deadline
                break
        if moved >= ANALYZE_AFTER_ROWS:
            with rls.visible(rls.EVERY), self.db.connection() as conn:
                memories_repo.analyze(conn)  # fresh statistics keep the planner on the HNSW index
        done: dict[str, Any] = {"status": "done", "kind": "index_vectors", "indexed": moved, "more": more}
        if owner is not None:  # a workspace grown past the threshold since the last rebuild: its own graph
            built = dedicated_as_owner(self.settings, dims, target=owner)
            if built:
                done["dedicated"] = built
        return done

    def _rebuild(self, owner: ConnectionTarget, dims: int, ahead: Plan, moved: int) -> dict[str, Any]:
        built = rebuild_as_owner(self.settings, dims, target=owner)
        if built is None:  # another process builds
            return {"status": "busy", "kind": "index_vectors", "indexed": moved}
        log.info("vector graph rebuilt in bulk", extra={"rebuild": built.__dict__})
        return {
            "status": "done",
            "kind": "index_vectors",
            "indexed": moved + ahead.pending,
            "generation": built.generation,
            "build_s": built.seconds,
        }

    def _ask_for_rebuild(self, dims: int) -> dict[str, Any] | None:
        """In AWS: the owner's credentials are the migrate function's; ask it (asynchronously) to build the next
        graph when the pending set is large, once: not while a build is in flight (status ``in_flight``; it takes
        in the rows pending when it began, so none move row by row meanwhile). None: go row by row, because the
        set is small, or because a build ran out of the function's time (too large for it: the owner builds it
        with ``memorylayer index --bulk``, infra/README.md)."""
        with rls.visible(rls.EVERY), self.db.connection() as conn:
            ahead = plan(conn, dims)
            own_due = (
                not ahead.wants_bulk
                and not ahead.in_flight
                and not ahead.timed_out  # one own graph alone outlasted the function: the owner's CLI builds it
                and bool(vector_index.dedicated_missing(conn, dims, ahead.generation))
            )
        if own_due:
            # A workspace grown past the threshold since the last build has no graph of its own yet: the function
            # builds it (a small set still moves row by row here; the build lock keeps this to one ask at a time).
            self._invoke_migrate()
            log.info(
                "asked the migrate function for a workspace's own graph",
                extra={"generation": ahead.generation},
            )
        if not ahead.wants_bulk:
            return None
        if ahead.in_flight:
            return {"status": "in_flight", "kind": "index_vectors", "indexed": 0}
        if ahead.timed_out:
            log.warning(
                "a vector graph build ran out of the migrate function's time: rows move row by row until "
                "`memorylayer index --bulk` builds it as the owner (infra/README.md)",
                extra={"pending_at_least": ahead.pending, "in_graph": ahead.in_graph},
            )
            return None
        self._invoke_migrate()
        return {"status": "requested", "kind": "index_vectors", "indexed": 0}

    def _invoke_migrate(self) -> None:
        """The migrate function's ``rebuild_vector_index``, asynchronously: a bulk build when the pending set asks
        for one, else the own graphs missing at the published generation (functions/migrate/handler.py)."""
        import boto3

        boto3.client("lambda", region_name=self.settings.aws_region).invoke(
            FunctionName=self.settings.vector_rebuild_function,
            InvocationType="Event",
            Payload=json.dumps({"action": "rebuild_vector_index"}).encode(),
        )

    def _owner_target(self) -> ConnectionTarget | None:
        """The owner's direct connection, if this process has its credentials (never the app's DSN)."""
        if not self.settings.database_owner_url:
            return None
        return owner_target(self.settings)
