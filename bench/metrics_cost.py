"""What Prometheus metrics cost a recall over HTTP: one app with ``MEMORYLAYER_METRICS_SERVICE=prometheus``
(the HTTP series, recall's, the embedder's), its sink switched off and on between blocks of requests, so both
modes share the server, database, data and drift.

    python -m bench.metrics_cost [--memories 2000] [--samples 300]

- ``noop`` (baseline): no sink installed, as the default deployment (the wrappers then cost one check each);
- ``prometheus``: every series recorded; a scrape of ``/metrics`` after every block, as a collector would.

Also, in process: what one recall's seven observations (recall's two, the embedder's three, HTTP's two) cost
the Prometheus sink, in microseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

import httpx
from psycopg.conninfo import make_conninfo

from bench.common import query_words, sentence, summarise
from shared.core import metrics


def observations_us(sink: metrics.Sink, loops: int = 20_000) -> float:
    """Microseconds for one recall's observations into ``sink``."""
    previous = metrics.install(sink)
    try:
        started = time.perf_counter()
        for _ in range(loops):
            with metrics.measure(metrics.RECALLS, metrics.RECALL_LATENCY, mode="default"):
                pass
            text = {"modality": "text", "outcome": "completed"}
            metrics.record(metrics.EMBEDDING_CALLS, **text)
            metrics.record(metrics.EMBEDDING_INPUTS, 1, **text)
            metrics.record(metrics.EMBEDDING_LATENCY, 0.001, **text)
            http = {"method": "POST", "route": "/v1/memories/recall", "status": "200"}
            metrics.record(metrics.HTTP_REQUESTS, **http)
            metrics.record(metrics.HTTP_LATENCY, 0.01, **http)
        return round((time.perf_counter() - started) / loops * 1e6, 2)
    finally:
        metrics.install(previous)


def run(memories: int, samples: int) -> dict:
    from shared.api.app import create_app
    from shared.core.settings import Settings
    from shared.db.migrate import apply_migrations
    from shared.local.postgres import OWNER_ROLE, EmbeddedPostgres
    from shared.local.server import serve_in_thread

    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-bench-metrics-")) / "pg", ephemeral=True)
    try:
        apply_migrations(make_conninfo(pg.dsn, user=OWNER_ROLE))
        settings = Settings(
            database_url=make_conninfo(pg.dsn, user="memorylayer_app"),
            embedding_provider="hash",
            auth_mode="none",
            metrics_service="prometheus",
            db_pool_max=4,
        )
        app = create_app(settings)
        sink = metrics.current()
        rng = random.Random(57)
        with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=60) as http:
            ws = {"X-Workspace-ID": "ws_bench_metrics"}
            for start in range(0, memories, 500):
                ops = [{"op": "create", "content": sentence(rng)} for _ in range(min(500, memories - start))]
                assert http.post("/v1/memories/batch", json={"operations": ops}, headers=ws).status_code < 300
            queries = [query_words(rng) for _ in range(samples)]
            modes = {"noop": metrics.NOOP, "prometheus": sink}
            timings: dict[str, list[float]] = {mode: [] for mode in modes}
            block = 20
            for begin in range(-block, samples, block):  # the first block warms up
                for mode, installed in modes.items():
                    metrics.install(installed)
                    for query in queries[max(begin, 0) : max(begin, 0) + block]:
                        started = time.perf_counter()
                        r = http.post("/v1/memories/recall", json={"query": query, "limit": 10}, headers=ws)
                        elapsed = (time.perf_counter() - started) * 1000
                        assert r.status_code == 200, r.text
                        if begin >= 0:
                            timings[mode].append(elapsed)
                    if mode == "prometheus":
                        assert http.get("/metrics").status_code == 200
            metrics.install(metrics.NOOP)
            app.state.services.close()
        base = summarise(timings["noop"])
        out: dict = {
            "memories": memories,
            "observations_us_per_recall": {
                "noop": observations_us(metrics.NOOP),
                "prometheus": observations_us(sink),
            },
            "recall": {},
        }
        for mode in modes:
            s = summarise(timings[mode])
            mean = sum(timings[mode]) / len(timings[mode])
            out["recall"][mode] = {
                **s,
                "mean_ms": round(mean, 3),
                "p50_ratio": round(s["p50_ms"] / base["p50_ms"], 3),
                "mean_ratio": round(mean / (sum(timings["noop"]) / len(timings["noop"])), 3),
            }
        return out
    finally:
        pg.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    print(json.dumps(run(args.memories, args.samples), indent=2))


if __name__ == "__main__":
    main()
