"""Vector indexing: when bulk-written memories join the HNSW graph, and how (shared/db/vector_index.py runs the
statements).

- ``generations``: the generation a bulk write gets (it skips the graph), the one recall walks, and whether a
  workspace has its own graph at it (``OwnGraphs``);
- ``plan``: when a pending set is built in bulk rather than moved row by row;
- ``rows``: the row-by-row move (``index_pending``: worker, cleanup);
- ``bulk``: the owner's build of the next generation (``rebuild``) and its large workspaces' own graphs;
  ``owner``: that DDL on the owner's connection (``dedicated_as_owner``: a workspace grown large between rebuilds);
- ``indexer``: one indexing pass, choosing between the two (``VectorIndexer``: the worker's ``index_vectors``);
- ``inline``: indexing in this process without a queue, paused while bulk writes arrive (``InlineIndexer``);
- ``reembed``: a workspace re-embedded with the configured model.

The package re-exports the classes and entry points below. ``plan.plan``, ``reembed.reembed`` and
``bulk.rebuild`` come from their modules: re-exported, a function named like its module would hide it, and a
test replaces ``bulk.rebuild`` in one place only.
"""

from __future__ import annotations

from shared.domain.indexing.bulk import Rebuild
from shared.domain.indexing.generations import OwnGraphs, PublishedGeneration, for_bulk_write
from shared.domain.indexing.indexer import VectorIndexer
from shared.domain.indexing.inline import InlineIndexer
from shared.domain.indexing.owner import dedicated_as_owner, ensure_as_owner, rebuild_as_owner
from shared.domain.indexing.plan import Plan
from shared.domain.indexing.reembed import ReembedReport
from shared.domain.indexing.rows import index_pending

__all__ = [
    "InlineIndexer",
    "OwnGraphs",
    "Plan",
    "PublishedGeneration",
    "Rebuild",
    "ReembedReport",
    "VectorIndexer",
    "dedicated_as_owner",
    "ensure_as_owner",
    "for_bulk_write",
    "index_pending",
    "rebuild_as_owner",
]
