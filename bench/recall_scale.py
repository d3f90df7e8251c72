"""Recall as the workspace grows: the text arm listing every match (baseline) against listing only the
words that are not very common (the default), same data, same queries, in the same run.

    python -m bench.recall_scale [--sizes 10000,50000] [--queries 200]

In-process (no HTTP), `hash` embeddings, ``bench.common`` sentences batch-loaded and indexed, statistics fresh.
Prints p50/p95 of each, the speed-up, and how far the pruned ranking strays from the exact one: the mean
overlap of the top 10 and the share of queries with the same first hit.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.common import query_words, sentence, summarise
from shared.app.services import Services
from shared.core.settings import Settings
from shared.db.migrate import apply_migrations
from shared.domain.indexing import index_pending
from shared.domain.requests import BatchCreate, BatchRequest, RecallRequest
from shared.domain.retrieval.recall import Recaller, RecallTuning
from shared.local.postgres import EmbeddedPostgres


def measure(recaller: Recaller, ws: str, queries: list[str]) -> tuple[dict, list[list[str]]]:
    for q in queries[:5]:  # warm-up
        recaller.recall([ws], RecallRequest(query=q, limit=10))
    latencies, tops = [], []
    for q in queries:
        started = time.perf_counter()
        found = recaller.recall([ws], RecallRequest(query=q, limit=10))["memories"]
        latencies.append((time.perf_counter() - started) * 1000)
        tops.append([m["id"] for m in found])
    return summarise(latencies), tops


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10000,50000")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(20261129)
    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-bench-")) / "pg", ephemeral=True)
    try:
        settings = Settings(database_url=pg.dsn, embedding_provider="hash")
        apply_migrations(pg.dsn, embedding_dimensions=384)
        services = Services.build(settings)
        exact = Recaller(services.db, services.embedder, settings, tuning=RecallTuning(bm25_list_max_df=None))
        pruned = Recaller(services.db, services.embedder, settings)
        ws, loaded = "bench_scale", 0
        print(
            "| memories | exact p50 / p95 ms (baseline) | pruned p50 / p95 ms | speed-up | top-10 overlap | same top-1 |"
        )
        print("|---|---|---|---|---|---|")
        for size in sorted(int(s) for s in args.sizes.split(",")):
            while loaded < size:
                n = min(1000, size - loaded)
                ops = [BatchCreate(op="create", content=sentence(rng)) for _ in range(n)]
                services.memories.batch(ws, BatchRequest(operations=ops))
                loaded += n
            while index_pending(services.db):
                pass
            with services.db.connection() as conn:
                conn.execute("ANALYZE memories")
            queries = [query_words(rng) for _ in range(args.queries)]
            base, exact_tops = measure(exact, ws, queries)
            fast, pruned_tops = measure(pruned, ws, queries)
            overlap = statistics.mean(
                len(set(a) & set(b)) / max(1, len(a)) for a, b in zip(exact_tops, pruned_tops, strict=True)
            )
            same_top = statistics.mean(a[:1] == b[:1] for a, b in zip(exact_tops, pruned_tops, strict=True))
            print(
                f"| {size:,} | {base['p50_ms']:.1f} / {base['p95_ms']:.1f} | {fast['p50_ms']:.1f} / "
                f"{fast['p95_ms']:.1f} | {base['p50_ms'] / fast['p50_ms']:.1f}× | {overlap:.3f} | {same_top:.3f} |",
                flush=True,
            )
        services.close()
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
