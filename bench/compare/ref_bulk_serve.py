"""The reference server for bulk loading only: no near-duplicate search, no post-store enrichment.

Run by the reference venv's Python (``python -m`` is not used: this file is passed as a script):

    .venv-ref312/bin/python bench/compare/ref_bulk_serve.py serve --host 127.0.0.1 --port 8080

Each remember in memorylayer-server 0.2.0 searches every stored vector for near-duplicates, and its
post-store pipeline (auto-association, contradiction check, tiers) searches them again, so loading 50,000
memories through its API takes hours here (about 40/s at 3,000 memories even without the first search, and
falling). This server answers the near-duplicate check with "create" (the benchmark's sentences are unique by
construction: each ends in a random tag) and skips the post-store pipeline; embedding and storage (rows,
FTS, vectors) are the reference's own code. What the loaded rows lack is the enrichment: auto-associations
and tiers, which a recall would otherwise have to expand, so if anything the reference's recall measured
over them is flattered. The measured phases run on a normally started server over the same data directory.
"""

from __future__ import annotations

import sys

from memorylayer_server.cli import cli
from memorylayer_server.services.deduplication.base import DeduplicationAction, DeduplicationResult
from memorylayer_server.services.deduplication.default import DefaultDeduplicationService
from memorylayer_server.services.memory.default import MemoryService


async def _create(self, content, content_hash, embedding, workspace_id) -> DeduplicationResult:  # noqa: ANN001
    return DeduplicationResult(
        action=DeduplicationAction.CREATE, reason="bench bulk load: unique by construction"
    )


async def _no_post_store(self, *args, **kwargs) -> bool:  # noqa: ANN001, ANN002, ANN003
    return False


DefaultDeduplicationService.check_duplicate = _create
MemoryService.enqueue_post_store = _no_post_store

if __name__ == "__main__":
    sys.argv[0] = "memorylayer"
    sys.exit(cli())
