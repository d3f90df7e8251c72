"""When a pending set is built in bulk rather than moved into the graph row by row.

    >>> plan(conn, 384).wants_bulk                                # doctest: +SKIP
    False

Two ways into the graph (shared/db/vector_index.py): a small pending set moves row by row (an UPDATE to the
published G; each row costs an HNSW insert, ~385 rows/s here), a large one is built whole (``bulk.rebuild``:
CREATE INDEX CONCURRENTLY of generation G+1, ~9× faster a row, and writes go on meanwhile).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shared.db import vector_index
from shared.db.rows import Connection

__all__ = ["BUILD_IN_FLIGHT_S", "BULK_MIN_PENDING", "BULK_MIN_SHARE", "Plan", "plan"]

# A pending set this large, and at least this share of the rows in the graph, is built in bulk. Measured here
# (bench/scale.py, BENCHMARKS.md): the row-by-row move costs ~2.6 ms a row, the bulk build ~0.3 ms a row of the
# whole graph, so a rebuild pays off once the pending rows are about 1/8 of the graph; 1/4 leaves margin for the
# rebuild's other costs (ANALYZE, the pending index) and keeps a steady trickle of batches on the cheap path.
BULK_MIN_PENDING = 50_000
BULK_MIN_SHARE = 0.25
# A ``building`` mark this old is not trusted (a build that died without clearing it): the migrate function's
# longest run, Lambda's 15 minutes, plus margin. A longer build elsewhere (the CLI's) holds the build lock, which
# counts as in flight whatever the mark's age.
BUILD_IN_FLIGHT_S = 20 * 60


@dataclass(frozen=True)
class Plan:
    generation: int
    pending: int  # counted up to ``threshold``
    in_graph: int
    threshold: int  # a pending set this large is built in bulk
    in_flight: bool = False  # a build runs now (a fresh ``building`` mark, or the build lock held)
    timed_out: bool = False  # a build ran out of its time since the last publish (too large for the function)

    @property
    def wants_bulk(self) -> bool:
        return self.pending >= self.threshold


def plan(conn: Connection, dims: int) -> Plan:
    """How far the graph is behind (``wants_bulk``: build it whole rather than row by row): at least
    BULK_MIN_PENDING rows and BULK_MIN_SHARE of the graph's; and whether a build is in flight or ran out of time."""
    generation = vector_index.published(conn, dims)
    in_graph = vector_index.in_graph_estimate(conn, dims, generation)
    threshold = max(BULK_MIN_PENDING, math.ceil(BULK_MIN_SHARE * in_graph), 1)
    in_flight, timed_out = vector_index.build_state(conn, dims, fresh_s=BUILD_IN_FLIGHT_S)
    return Plan(
        generation,
        vector_index.pending(conn, generation, at_most=threshold),
        in_graph,
        threshold,
        in_flight=in_flight,
        timed_out=timed_out,
    )
