"""Association expansion: the memories linked to recall's hits, by the bounded walk shared with traverse.

    >>> expanded = expand(conn, req, settings, params, rows)          # doctest: +SKIP
    >>> expanded[0]["depth"], expanded[0]["boosted"]                   # doctest: +SKIP
    (1, 0.41)

Each node is reached once (its best score over the previous level); edges per node and nodes reached are capped
inside the recursion. The walk goes through any live memory and ignores tag/type filters as the reference does;
recall's filters (``FILTERS``, with recall's own parameters) still decide what is returned.
"""

from __future__ import annotations

from typing import Any

from shared.core.settings import Settings
from shared.db import associations as assoc_repo
from shared.db.memories import QUALIFIED_COLUMNS
from shared.db.recall import FILTERS
from shared.db.rows import Connection
from shared.domain.requests import RecallRequest

# A linked memory scores its seed's score × the edge's strength × this, per hop.
EXPANSION_DECAY = 0.8

EXPANSION_SQL = f"""
WITH RECURSIVE {assoc_repo.walk_cte("both")},
reached AS ({assoc_repo.WALK_NODES})
SELECT {QUALIFIED_COLUMNS}, r.score AS boosted, r.depth
FROM reached r JOIN memories m ON m.id = r.node
WHERE {FILTERS}
ORDER BY boosted DESC, id
LIMIT %(max_expansion)s
"""


def expand(
    conn: Connection, req: RecallRequest, settings: Settings, params: dict[str, Any], rows: list[dict]
) -> list[dict]:
    """The memories linked to ``rows`` (recall's ranked hits), best first; none if the request turned it off."""
    include = True if req.include_associations is None else req.include_associations
    depth = 2 if req.traverse_depth is None else req.traverse_depth
    if not rows or not include or depth == 0:
        return []
    expansion_params = dict(
        params,
        walk_seeds=[r["id"] for r in rows],
        walk_scores=[float(r["boosted"]) for r in rows],
        walk_depth=depth,
        walk_per_node=settings.graph_max_edges_per_node,
        walk_max_nodes=settings.graph_max_nodes,
        walk_decay=EXPANSION_DECAY,
        walk_rels=[],
        walk_min_strength=0.0,
        max_expansion=req.max_expansion or 50,
    )
    return conn.execute(EXPANSION_SQL, expansion_params).fetchall()
