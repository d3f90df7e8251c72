"""The row-by-row path into the graph: bulk-written memories moved into the published generation in small
batches, by the worker, the scheduled cleanup (a safety net for lost indexing messages) and the inline indexer.

    >>> index_pending(db, max_batches=10)                         # doctest: +SKIP
    500
"""

from __future__ import annotations

import time

from shared.db import memories as memories_repo
from shared.db import rls, vector_index
from shared.db.pool import Database

__all__ = ["ANALYZE_AFTER_ROWS", "ROW_BATCH", "index_pending"]

# Stale statistics after a bulk load cost far more than an ANALYZE (off the request path).
ANALYZE_AFTER_ROWS = 100
ROW_BATCH = 500


def index_pending(
    db: Database,
    *,
    dims: int = 384,
    batch: int = ROW_BATCH,
    max_batches: int = 200,
    budget_s: float = 60.0,
    analyze: bool = True,
) -> int:
    """Move up to ``batch * max_batches`` bulk-written memories into the published HNSW graph row by row (any
    workspace; concurrent runs skip each other's rows), starting no batch after ``budget_s`` (a Lambda has a
    timeout); returns how many. Whatever is left is picked up by the next run. Small transactions: an HNSW
    insert costs about a millisecond a row, more when several workers share the database, and one statement
    must stay well inside the statement timeout. A large pending set is built in bulk instead
    (``VectorIndexer.index_vectors``, shared/domain/indexing/indexer.py).
    """
    with rls.visible(rls.EVERY):  # any workspace, also when an API request asked for the run (InlineIndexer)
        return _index_pending(
            db, dims=dims, batch=batch, max_batches=max_batches, budget_s=budget_s, analyze=analyze
        )


def _index_pending(
    db: Database, *, dims: int, batch: int, max_batches: int, budget_s: float, analyze: bool
) -> int:
    moved = 0
    deadline = time.monotonic() + budget_s
    for _ in range(max_batches):
        if time.monotonic() > deadline:
            break
        with db.transaction() as conn:
            done = vector_index.move_rows(conn, dims, limit=batch)
        moved += done
        if done < batch:
            break
    if analyze and moved >= ANALYZE_AFTER_ROWS:
        with db.connection() as conn:
            memories_repo.analyze(conn)  # fresh statistics keep the planner on the HNSW index
    return moved
