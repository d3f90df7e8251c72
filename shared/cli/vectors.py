"""``memorylayer reembed`` and ``index``: a workspace's vectors re-embedded, and bulk-written ones put in the graph."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from shared.cli.common import CliError, database, progress, settings_for
from shared.core.settings import Settings


def cmd_reembed(args: argparse.Namespace) -> int:
    from shared.domain.indexing.reembed import reembed
    from shared.providers.embeddings import create_embedder

    settings = settings_for(args, needs_database=True)
    embedder = create_embedder(settings)
    _ensure_vector_index(settings, embedder.dimensions)
    bars: list[Any] = []  # drawn once the workspace is found and its total known

    def started(total: int) -> None:
        bars.append(progress(f"re-embedding {args.workspace} with {embedder.model_id}", total, "memory"))

    try:
        with database(settings) as db:
            report = reembed(
                db,
                embedder,
                args.workspace,
                batch_size=args.batch_size,
                progress=lambda n: bars[0].update(n),
                started=started,
            )
    finally:
        for bar in bars:
            bar.close()
    print(f"{report.done} re-embedded; workspace {report.workspace_id} now uses {report.model}")
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    """Bring bulk-written vectors into the HNSW graph now: the indexer's choice (row by row, or a bulk build of
    the next graph generation for a large pending set), or with ``--bulk`` a build whatever the size. Builds run
    as the owner (shared/domain/indexing/)."""
    from shared.db import rls
    from shared.db.connection import owner_target
    from shared.domain.indexing import VectorIndexer, rebuild_as_owner
    from shared.providers.embeddings import create_embedder

    settings = settings_for(args, needs_database=True)
    if args.bulk:
        dims = settings.embedding_dimensions or 384
        try:
            target = owner_target(settings)
        except RuntimeError as exc:
            raise CliError(str(exc)) from None
        built = rebuild_as_owner(settings, dims, target=target)
        if built is None:
            raise CliError("another vector graph build is running", code=1)
        print(
            f"generation {built.generation} published: {built.rows} rows in its graph, built in {built.seconds} s"
            + (f", {built.dropped} dropped" if built.dropped else "")
        )
        return 0
    with database(settings) as db, rls.visible(rls.EVERY):
        dims = create_embedder(settings).dimensions
        result = VectorIndexer(db, settings, dims).index_vectors()
    print(json.dumps(result))
    return 0


def _ensure_vector_index(settings: Settings, dims: int) -> None:
    """The HNSW index for a new embedding size, built as the owner (the app role may not run DDL)."""
    import psycopg

    from shared.domain.indexing import ensure_as_owner

    try:
        ensure_as_owner(settings, dims)
    except (RuntimeError, psycopg.errors.InsufficientPrivilege, psycopg.OperationalError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(
            f"no vector index for {dims} dimensions yet ({reason}): run `memorylayer migrate` as the owner "
            "with this embedding configuration; recall searches exactly until then",
            file=sys.stderr,
        )
