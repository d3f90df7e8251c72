"""Vector indexing: when bulk-written memories join the HNSW graph, and how (shared/db/vector_index.py runs the
statements).

- ``generations``: the generation a bulk write gets (it skips the graph), the one recall walks;
- ``plan``: when a pending set is built in bulk rather than moved row by row;
- ``bulk``: the owner's build of the next generation (``rebuild``); ``owner``: that DDL on the owner's connection;
- ``reembed``: a workspace re-embedded with the configured model.

The package re-exports the classes and entry points below. ``plan.plan``, ``reembed.reembed`` and
``bulk.rebuild`` come from their modules: re-exported, a function named like its module would hide it, and a
test replaces ``bulk.rebuild`` in one place only.
"""

from __future__ import annotations

from shared.domain.indexing.bulk import Rebuild
from shared.domain.indexing.generations import PublishedGeneration, for_bulk_write
from shared.domain.indexing.owner import ensure_as_owner, rebuild_as_owner
from shared.domain.indexing.plan import Plan
from shared.domain.indexing.reembed import ReembedReport

__all__ = [
    "Plan",
    "PublishedGeneration",
    "Rebuild",
    "ReembedReport",
    "ensure_as_owner",
    "for_bulk_write",
    "rebuild_as_owner",
]
