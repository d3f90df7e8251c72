"""One workspace of N memories: bulk load through the HTTP batch API, full HNSW indexing, recall latency and
throughput against a 10k baseline of the same run, and the database bytes per memory.

    python -m bench.scale --size 1000000 [--baseline 10000] [--queries 200] [--seconds 20] [--workload zipf]

A throwaway embedded Postgres (fsync off, shared_buffers --shared-buffers), migrations as the owner, and the
API as its own process (``memorylayer serve``: the client's Python does not share the server's GIL) logged in
as the app role, with the owner's DSN for the InlineIndexer's bulk builds (shared/domain/indexing/). `hash`
embeddings (384-d), ``bench.common`` texts, 1000 memories per request from ``--loaders`` concurrent clients.

Timed separately: the load (first request to last acknowledgement), the indexing (from then until the
workspace reports no vector pending: the quiet period, the build, ANALYZE, publishing), and end to end. Recall:
sequential p50/p95 over HTTP, then 8 concurrent clients for ``--seconds``, at the baseline and at N. Bytes:
pg_relation_size of the heap, its TOAST and each index of ``memories``; pg_total_relation_size. Prints markdown
and writes bench/results/scale_<N>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
from psycopg.conninfo import make_conninfo

from bench.api_load import concurrent_throughput
from bench.common import WORKLOADS, save_result, summarise, wait_healthy
from shared.local.server import free_port


def load(base_url: str, ws: str, n: int, text, rng_seed: int, loaders: int) -> float:
    """``n`` memories into ``ws``, 1000 per request, ``loaders`` clients at once; returns the seconds taken.

    The request bodies are made before the clock starts: the clients share the server's 2 cores here, and making
    the texts and their JSON took about a third of a core during a load (in production the clients are
    elsewhere). What the clients still do while timed is send bytes and read the answers."""
    bodies = []
    for start in range(0, n, 1000):
        rng = random.Random(rng_seed * 1_000_000 + start)
        ops = [{"op": "create", "content": text(rng)} for _ in range(min(1000, n - start))]
        bodies.append(json.dumps({"operations": ops}).encode())
    lock = threading.Lock()
    errors: list[str] = []

    def worker() -> None:
        headers = {"X-Workspace-ID": ws, "Content-Type": "application/json"}
        with httpx.Client(base_url=base_url, timeout=300, headers=headers) as http:
            while True:
                with lock:
                    if not bodies or errors:
                        return
                    body = bodies.pop()
                r = http.post("/v1/memories/batch", content=body)
                if r.status_code != 200 or r.json()["failed"]:
                    with lock:
                        errors.append(r.text[:300])

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(loaders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise RuntimeError(f"bulk load failed: {errors[0]}")
    return time.perf_counter() - started


def wait_indexed(owner_dsn: str, ws: str) -> tuple[float, float | None]:
    """(seconds until ``ws`` has no row outside the published graph, seconds of that a bulk build was running
    for: None if none was seen). Asked of the database directly, as the owner, by a probe that stops at the first
    pending row: the workspace stats endpoint counts all of its rows, which at 1M, every half second, would take
    a core from the build being timed."""
    started = time.perf_counter()
    build_started: float | None = None
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        while True:
            pending, building = conn.execute(  # type: ignore[misc]
                "SELECT EXISTS (SELECT FROM memories WHERE workspace_id = %s AND deleted_at IS NULL AND "
                "vector_gen > g.published), g.building IS NOT NULL FROM vector_index_generations g WHERE dims = 384",
                (ws,),
            ).fetchone()
            if building and build_started is None:
                build_started = time.perf_counter()
            if not pending:
                break
            time.sleep(0.5)
    done = time.perf_counter()
    return done - started, None if build_started is None else done - build_started


def recall_figures(base_url: str, ws: str, queries: list[str], seconds: float) -> dict[str, Any]:
    with httpx.Client(base_url=base_url, timeout=60, headers={"X-Workspace-ID": ws}) as http:
        for q in queries[:20]:  # warm-up: caches, the plan-reusing function, the scope count
            http.post("/v1/memories/recall", json={"query": q, "limit": 10})
        samples = []
        for q in queries:
            began = time.perf_counter()
            r = http.post("/v1/memories/recall", json={"query": q, "limit": 10})
            samples.append((time.perf_counter() - began) * 1000)
            assert r.status_code == 200, r.text[:300]
    return {
        "sequential": summarise(samples),
        "clients_8": concurrent_throughput(base_url, ws, queries, 8, seconds),
    }


def explain(app_dsn: str, owner_dsn: str, ws: str, queries: list[str]) -> str:
    """``EXPLAIN (ANALYZE, BUFFERS)`` of recall's statement for ``queries`` as the app role, planned with the
    request's values (the ad-hoc path: the plan-reusing function, which the API takes for this scope, shows only
    its Function Scan), each after one warm run; then the function's own time for the same query, for scale."""
    from shared.core.settings import Settings
    from shared.db import rls
    from shared.db.pool import Database
    from shared.domain.requests import RecallRequest
    from shared.domain.retrieval.recall import Recaller
    from shared.providers.embeddings.hash import HashEmbedder

    settings = Settings(
        database_url=app_dsn, database_owner_url=owner_dsn, embedding_provider="hash", auth_mode="none"
    )
    db = Database.from_settings(settings, purpose="worker")
    recaller = Recaller(db, HashEmbedder(384), settings)
    out = []
    try:
        with rls.visible([ws]):
            # Warm: caches, and the workspace's count (the server has one cached; without it the statement
            # would count the workspace's rows for the IDF).
            recaller.recall([ws], RecallRequest(query=queries[0], limit=10))
        with rls.visible([ws]), db.connection() as conn:
            for q in queries:
                sql, params = recaller.statement([ws], RecallRequest(query=q, limit=10), conn)
                conn.execute(sql, params).fetchall()
                plan = "\n".join(
                    re.sub(r"'\[[^]]*\]'", "'[...]'", r["QUERY PLAN"])
                    for r in conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
                )
                hot = recaller._plan_reused(conn, sql, params)
                timing = []
                for _ in range(3):
                    began = time.perf_counter()
                    conn.execute(hot, params).fetchall()
                    timing.append((time.perf_counter() - began) * 1000)
                out.append(
                    f"-- query {q!r}: through {'the function' if hot != sql else 'the ad-hoc statement'} "
                    f"{min(timing):.1f} ms (best of 3)\n{plan}\n"
                )
    finally:
        db.close()
    return "\n".join(out)


def sizes(owner_dsn: str) -> dict[str, Any]:
    """Bytes of memories' heap, TOAST (with its index), each index, and in total; rows; average column sizes."""
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE memories")
        (rows,) = conn.execute("SELECT count(*) FROM memories").fetchone()  # type: ignore[misc]
        heap, toast, total = conn.execute(  # type: ignore[misc]
            "SELECT pg_relation_size('memories'), "
            "coalesce(pg_total_relation_size(nullif(reltoastrelid, 0)), 0), pg_total_relation_size('memories') "
            "FROM pg_class WHERE oid = 'memories'::regclass"
        ).fetchone()
        indexes = dict(
            conn.execute(
                "SELECT indexrelid::regclass::text, pg_relation_size(indexrelid) FROM pg_index "
                "WHERE indrelid = 'memories'::regclass ORDER BY 2 DESC"
            ).fetchall()
        )
        columns = dict(
            zip(
                ("embedding", "tsv", "content", "metadata"),
                conn.execute(
                    "SELECT avg(pg_column_size(embedding)), avg(pg_column_size(tsv)), avg(pg_column_size(content)), "
                    "avg(pg_column_size(metadata)) FROM memories"
                ).fetchone()
                or (),
                strict=False,
            )
        )
    return {
        "rows": rows,
        "heap": heap,
        "toast": toast,
        "indexes": indexes,
        "total": total,
        "avg_column_bytes": {k: round(float(v or 0), 1) for k, v in columns.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--baseline", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--loaders", type=int, default=2)
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="zipf")
    parser.add_argument("--shared-buffers", default="4GB")
    parser.add_argument(
        "--pgdata",
        type=Path,
        help="keep the database here; a later run with the same path skips the loads and measures recall again",
    )
    parser.add_argument(
        "--explain", type=int, default=0, help="EXPLAIN (ANALYZE, BUFFERS) this many recalls at --size"
    )
    args = parser.parse_args()
    text, query = WORKLOADS[args.workload]
    rng = random.Random(20261201)

    from shared.db.migrate import apply_migrations
    from shared.local.postgres import EmbeddedPostgres

    reused = args.pgdata is not None and (args.pgdata / "PG_VERSION").exists()
    if args.pgdata is None:
        pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-scale-")) / "pg", ephemeral=True)
    else:
        pg = EmbeddedPostgres.start(args.pgdata)
    server: subprocess.Popen[bytes] | None = None
    try:
        if not reused:
            with psycopg.connect(pg.dsn, autocommit=True) as conn:
                conn.execute(f"ALTER SYSTEM SET shared_buffers = '{args.shared_buffers}'")
                conn.execute("ALTER SYSTEM SET max_wal_size = '8GB'")
            pg.restart()
        apply_migrations(pg.owner_dsn, embedding_dimensions=384)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        log_path = Path(tempfile.mkdtemp(prefix="ml-scale-log-")) / "server.log"
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")},
            "MEMORYLAYER_DATABASE_URL": make_conninfo(pg.dsn, user="memorylayer_app"),
            "MEMORYLAYER_DATABASE_OWNER_URL": pg.owner_dsn,
            "MEMORYLAYER_EMBEDDING_PROVIDER": "hash",
            "MEMORYLAYER_AUTH_MODE": "none",
            "MEMORYLAYER_DB_POOL_MAX": "16",
            "MEMORYLAYER_PORT": str(port),
        }
        with log_path.open("wb") as log:
            server = subprocess.Popen(
                [sys.executable, "-c", "from shared.cli import main; main()", "serve"],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_healthy(base_url, server, 60, log_path)
        results: dict[str, Any] = {
            "size": args.size,
            "workload": args.workload,
            "load_1m": os.getloadavg()[0],
        }
        for label, n in (("baseline", args.baseline), ("size", args.size)):
            ws = f"scale_{label}"
            seed = rng.randrange(10**6)  # drawn either way, so a reused run asks the same queries
            if reused:
                figures: dict[str, Any] = {"memories": n, "reused": str(args.pgdata)}
            else:
                load_s = load(base_url, ws, n, text, seed, args.loaders)
                index_s, build_s = wait_indexed(pg.owner_dsn, ws)
                print(f"{label}: {n:,} loaded in {load_s:.1f} s, indexed {index_s:.1f} s later", flush=True)
                figures = {
                    "memories": n,
                    "load_s": round(load_s, 1),
                    "load_per_s": round(n / load_s),
                    "index_s": round(index_s, 1),
                    "build_s": None if build_s is None else round(build_s, 1),
                    "end_to_end_s": round(load_s + index_s, 1),
                }
            queries = [query(rng) for _ in range(args.queries)]
            results[label] = {**figures, **recall_figures(base_url, ws, queries, args.seconds)}
            print(json.dumps(results[label]), flush=True)
            if label == "size" and args.explain:
                plans = explain(env["MEMORYLAYER_DATABASE_URL"], pg.owner_dsn, ws, queries[: args.explain])
                save_result(f"scale_{args.size}_explain.txt", plans)
        results["bytes"] = sizes(pg.owner_dsn)
        with psycopg.connect(pg.owner_dsn) as conn:
            results["generation"] = conn.execute(
                "SELECT published FROM vector_index_generations WHERE dims = 384"
            ).fetchone()[0]  # type: ignore[index]
        results["load_1m_end"] = os.getloadavg()[0]
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        pg.stop()
    save_result(f"scale_{args.size}{'_reused' if reused else ''}.json", results)
    print(table(results))


def table(r: dict[str, Any]) -> str:
    b, s, by = r["baseline"], r["size"], r["bytes"]
    lines = [
        f"Workload {r['workload']}, hash embeddings (384-d); load average at start {r['load_1m']:.1f}, at end "
        f"{r['load_1m_end']:.1f} (2 cores).",
        "",
        "| memories | load s (memories/s) | indexing after load s (of it the bulk build) | end to end s | "
        "recall p50 / p95 ms | 8-client recall req/s |",
        "|---|---|---|---|---|---|",
    ]
    for x in (b, s):
        loaded = (
            f"{x['load_s']} ({x['load_per_s']:,}) | {x['index_s']} ({x['build_s'] or 'row by row'}) | {x['end_to_end_s']}"
            if "load_s" in x
            else "reused | reused | reused"
        )
        lines.append(
            f"| {x['memories']:,} | {loaded} | "
            f"{x['sequential']['p50_ms']:.1f} / {x['sequential']['p95_ms']:.1f} | "
            f"{x['clients_8']['requests_per_s']} ({x['clients_8']['errors']} errors) |"
        )
    ratio = s["sequential"]["p50_ms"] / b["sequential"]["p50_ms"]
    lines += ["", f"recall p50 at {s['memories']:,} / at {b['memories']:,}: {ratio:.2f}×", ""]
    rows = by["rows"]
    gb = by["total"] / 1e9
    lines += [
        f"Bytes per memory ({rows:,} rows in the table, both workspaces):",
        "",
        "| relation | MB | bytes per memory |",
        "|---|---|---|",
        f"| heap | {by['heap'] / 1e6:,.0f} | {by['heap'] / rows:,.0f} |",
        f"| TOAST | {by['toast'] / 1e6:,.0f} | {by['toast'] / rows:,.0f} |",
    ]
    for name, size in by["indexes"].items():
        lines.append(f"| {name} | {size / 1e6:,.0f} | {size / rows:,.0f} |")
    lines += [
        f"| **total** (pg_total_relation_size) | {by['total'] / 1e6:,.0f} | {by['total'] / rows:,.0f} |",
        "",
        f"Average stored column sizes (bytes): {by['avg_column_bytes']}",
        f"Aurora standard storage at $0.10 per GB-month (us-east-1): {gb:.2f} GB → ${gb * 0.10:.2f} a month "
        f"for {rows:,} memories (I/O billed separately; I/O-Optimized storage: $0.225 → ${gb * 0.225:.2f}).",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
