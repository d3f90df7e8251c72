"""Re-embed a workspace with the configured model, in batches, resumable after an interruption.

    >>> reembed(db, embedder, "ws_a", batch_size=256)          # doctest: +SKIP
    ReembedReport(workspace_id='ws_a', model='all-MiniLM-L6-v2@384', done=1200, total=1200)

Each batch commits on its own, so an interrupted run keeps its progress: a rerun picks up the memories that
still carry another model. The workspace stays bound to its old model (recall with the new one is refused,
never silently mixed) until the last batch is done; then it is bound to the new model in the same transaction.
The HNSW index for a new embedding size is DDL: the owner builds it (``memorylayer reembed`` does, through
``ensure_vector_index`` on the owner's connection), never this function, which runs as the app role.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from shared.core.errors import NotFound
from shared.db import reembed as reembed_repo
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.providers.embeddings.base import Embedder

__all__ = ["ReembedReport", "reembed"]


@dataclass
class ReembedReport:
    workspace_id: str
    model: str
    done: int
    total: int


def reembed(
    db: Database,
    embedder: Embedder,
    workspace_id: str,
    *,
    batch_size: int = 256,
    progress: Callable[[int], None] | None = None,
    started: Callable[[int], None] | None = None,
    max_batches: int | None = None,
) -> ReembedReport:
    """Re-embed every memory (history included) whose model differs from ``embedder``'s."""
    target = embedder.model_id
    with db.connection() as conn:
        if not ws_repo.exists(conn, workspace_id):
            raise NotFound(f"workspace {workspace_id} not found", code="workspace_not_found")
        total = reembed_repo.count_pending(conn, workspace_id, target)
    if started:  # the total, for a progress bar
        started(total)
    done = batches = 0
    after = ""
    while max_batches is None or batches < max_batches:
        with db.connection() as conn:
            rows = reembed_repo.page(conn, workspace_id, target, after=after, limit=batch_size)
        if not rows:
            break
        vectors = embedder.embed([r["content"] for r in rows])
        with db.transaction() as conn:
            reembed_repo.set_embeddings(
                conn, workspace_id, target, [(r["id"], v) for r, v in zip(rows, vectors, strict=True)]
            )
        after = rows[-1]["id"]
        done += len(rows)
        batches += 1
        if progress:
            progress(len(rows))
    with db.transaction() as conn:
        if reembed_repo.count_pending(conn, workspace_id, target) == 0:
            ws_repo.set_embedding_model(conn, workspace_id, target)
    return ReembedReport(workspace_id, target, done, total)
