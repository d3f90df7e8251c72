"""What the row-level policies (migration 0015) cost a recall, in process: same database, app role, data and
code; only the policies and the wall differ.

    python -m bench.rls_overhead [--memories 4000] [--samples 300]

Modes, interleaved query by query so drift hits all alike:
- ``no_rls``: the tables' row-level security disabled, wall ``*`` (so the per-unit-of-work transaction and
  ``set_config`` are paid here too: this isolates the policies' cost; compare against the code before 0015
  for the whole cost);
- ``every``: RLS on, wall ``*`` (the admin key, auth mode none, the worker);
- ``one_workspace``: RLS on, wall = the recalled workspace (a workspace key).
Direct to Postgres as ``memorylayer_app`` (no proxy): the database's share of a recall, undiluted by HTTP.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from psycopg.conninfo import make_conninfo

from bench.common import query_words, sentence, summarise
from shared.db import rls
from shared.db.pool import Database
from shared.domain.requests import BatchCreate, BatchRequest, RecallRequest

TABLES_SQL = (
    "SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relrowsecurity"
)


def run(memories: int, samples: int) -> dict:
    import psycopg

    from shared.app.services import Services
    from shared.core.settings import Settings
    from shared.db.migrate import apply_migrations
    from shared.local.postgres import OWNER_ROLE, EmbeddedPostgres

    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-bench-rls-")) / "pg", ephemeral=True)
    try:
        owner = make_conninfo(pg.dsn, user=OWNER_ROLE)
        apply_migrations(owner)
        settings = Settings(
            database_url=make_conninfo(pg.dsn, user="memorylayer_app"),
            embedding_provider="hash",
            db_pool_max=4,
        )
        db = Database.from_settings(settings, purpose="api")
        services = Services.build(settings, db=db)
        rng = random.Random(16)
        workspaces = ["ws_bench_a", "ws_bench_b", "ws_bench_c"]
        with rls.visible(rls.EVERY):
            for ws in workspaces:  # the recalled workspace holds a third of the rows
                for start in range(0, memories, 500):
                    ops = [
                        BatchCreate(op="create", content=sentence(rng))
                        for _ in range(min(500, memories - start))
                    ]
                    services.memories.batch(ws, BatchRequest(operations=ops))
            services.threads.worker.index_vectors()
        with psycopg.connect(owner, autocommit=True) as conn:
            conn.execute("ANALYZE")
            walled = [r[0] for r in conn.execute(TABLES_SQL)]

        control = psycopg.connect(owner, autocommit=True)

        def set_rls(on: bool) -> None:
            for table in walled:
                control.execute(f"ALTER TABLE {table} {'ENABLE' if on else 'DISABLE'} ROW LEVEL SECURITY")

        queries = [query_words(rng) for _ in range(samples)]
        modes = {
            "no_rls": (False, rls.EVERY),
            "every": (True, rls.EVERY),
            "one_workspace": (True, (workspaces[0],)),
        }
        timings: dict[str, list[float]] = {mode: [] for mode in modes}
        hits: dict[str, int] = dict.fromkeys(modes, 0)
        block = 20
        for start in range(-block, samples, block):  # the first block warms up
            for mode, (on, wall) in modes.items():
                set_rls(on)
                for query in queries[max(start, 0) : max(start, 0) + block]:
                    req = RecallRequest(query=query, limit=10)
                    with rls.visible(wall):
                        started = time.perf_counter()
                        found = services.recaller.recall([workspaces[0]], req)
                        elapsed = (time.perf_counter() - started) * 1000
                    if start >= 0:
                        timings[mode].append(elapsed)
                        hits[mode] += len(found["memories"])
        set_rls(True)
        control.close()
        services.close()
        base = summarise(timings["no_rls"])
        out = {"memories_per_workspace": memories, "workspaces": len(workspaces), "recall": {}}
        for mode in modes:
            s = summarise(timings[mode])
            out["recall"][mode] = {
                **s,
                "p50_ratio": round(s["p50_ms"] / base["p50_ms"], 3),
                "p95_ratio": round(s["p95_ms"] / base["p95_ms"], 3),
                "results": hits[mode],
            }
        return out
    finally:
        pg.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=4000)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    print(json.dumps(run(args.memories, args.samples), indent=2))


if __name__ == "__main__":
    main()
