"""Tiers for memories written before them (or while ``extractive_tiers_enabled`` was off): the cleanup's step,
bounded per call, any workspace.

    >>> backfill_tiers(db, batch=200, max_batches=5)              # doctest: +SKIP
    {'tiers_written': 412, 'tiers_pending': True}

The cursor is the partial index ``memories_tiers_pending`` (migration 0053): a memory leaves it when its tiers
are written, so each batch is the index's head and a call picks up where the last one stopped, however it ended.
Concurrent calls skip each other's rows (SKIP LOCKED). No revision: nothing the caller wrote changes.
"""

from __future__ import annotations

import time

from shared.db import memories as repo
from shared.db import rls
from shared.db.pool import Database
from shared.domain.memories.tiers import columns

BATCH = 200


def backfill_tiers(
    db: Database, *, batch: int = BATCH, max_batches: int = 10, budget_s: float = 30.0
) -> dict[str, int | bool]:
    """Write tiers for up to ``batch * max_batches`` memories, starting no batch after ``budget_s``; how many,
    and whether any are left."""
    written, pending = 0, False
    deadline = time.monotonic() + budget_s
    with rls.visible(rls.EVERY):
        for _ in range(max_batches):
            if time.monotonic() > deadline:
                pending = True
                break
            with db.transaction() as conn:
                rows = repo.tiers_pending(conn, batch)
                for row in rows:
                    repo.set_tiers(conn, row["workspace_id"], row["id"], columns(row["content"], True))
            written += len(rows)
            pending = len(rows) == batch
            if not pending:
                break
    return {"tiers_written": written, "tiers_pending": pending}
