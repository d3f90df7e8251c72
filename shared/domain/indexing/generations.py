"""Which graph generation a bulk write gets, and which one a process's recalls walk.

    >>> for_bulk_write(conn, 384)                                 # doctest: +SKIP
    4
    >>> seen = PublishedGeneration(db, 384); seen.get()           # doctest: +SKIP
    3

A bulk write skips the graph (no per-row HNSW insert): its rows wait as the pending tail until the row-by-row
move or the next bulk build takes them in. A reader may use any generation: recall's two arms split the rows by
the same G, so its results are exact whatever G it has; a current G only makes it faster.
"""

from __future__ import annotations

import time
from typing import Any

from shared.db import vector_index
from shared.db.pool import Database
from shared.db.rows import Connection

__all__ = ["OWN_GRAPH_RECHECK_S", "OwnGraphs", "PublishedGeneration", "for_bulk_write"]

# Which generations a workspace has its own graph at is read again after this long: one built since is walked
# that much later at most (results are the same either way; only the speed waits).
OWN_GRAPH_RECHECK_S = 60.0


def for_bulk_write(conn: Connection, dims: int) -> int:
    """The generation a bulk write gets: after the one being built, else after the published one (pending)."""
    found = vector_index.generations(conn, dims)
    if found is None:
        return 1
    published, building = found
    return (building if building is not None else published) + 1


class PublishedGeneration:
    """The published generation for ``dims`` as this process last saw it: read once, then refreshed from each
    recall's own pipeline (``seen``, no extra round trip)."""

    def __init__(self, db: Database, dims: int) -> None:
        self.db = db
        self.dims = dims
        self._generation: int | None = None

    def get(self, conn: Connection | None = None) -> int:
        """The generation to walk (read on first use, on ``conn`` or a connection borrowed for it)."""
        if self._generation is None:
            if conn is None:
                with self.db.connection() as own:
                    self._generation = vector_index.published(own, self.dims)
            else:
                self._generation = vector_index.published(conn, self.dims)
        return self._generation

    def seen(self, row: dict[str, Any] | None) -> None:
        """A row of ``vector_index.GENERATION_SQL`` read in the caller's pipeline (None: no row, keep ours)."""
        if row is not None:
            self._generation = int(row["published"])

    def forget(self) -> None:
        """Read afresh on the next ``get`` (after a rebuild this process ran)."""
        self._generation = None


class OwnGraphs:
    """Which generations each workspace has a graph of its own at (``vector_dedicated_graphs``, migration 0048),
    as this process last read them: per workspace, read again after ``OWN_GRAPH_RECHECK_S``."""

    def __init__(self, db: Database, dims: int) -> None:
        self.db = db
        self.dims = dims
        self._seen: dict[str, tuple[float, frozenset[int]]] = {}

    def has(self, workspace_id: str, generation: int, conn: Connection | None = None) -> bool:
        """Whether ``workspace_id`` has its own graph at ``generation`` (read on ``conn``, inside the caller's
        wall, or on a connection borrowed for it, when not known or due)."""
        seen = self._seen.get(workspace_id)
        if seen is None or time.monotonic() - seen[0] > OWN_GRAPH_RECHECK_S:
            if conn is None:
                with self.db.connection() as own:
                    generations = vector_index.dedicated_generations(own, workspace_id, self.dims)
            else:
                generations = vector_index.dedicated_generations(conn, workspace_id, self.dims)
            if len(self._seen) > 10_000:
                self._seen.clear()
            seen = self._seen[workspace_id] = (time.monotonic(), generations)
        return int(generation) in seen[1]

    def forget(self) -> None:
        """Read afresh on the next ``has`` (after this process built one, or dropped them)."""
        self._seen.clear()
