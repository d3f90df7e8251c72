"""HNSW build speed against graph quality at a proxy size: the graph's build parameters and type, each
built over the same rows of ``memories`` in one throwaway database, interleaved, round after round.

    python -m bench.hnsw_build [--rows 200000] [--queries 200] [--rounds 2] [--workload uniform]
                               [--settings default,halfvec,ef32,ef40,halfvec_ef40,m12]

The rows go straight into ``memories`` (COPY as the owner; migrations applied; ``hash`` embeddings, 384-d, of
``bench.common`` texts) as a bulk write leaves them: pending, past the published generation. Each setting is then
built as production builds a generation's graph (``CREATE INDEX CONCURRENTLY``, the partial index over
``vector_gen <= G``, one parallel maintenance worker, ``--build-memory``) and timed; then the graph is walked as
recall's vector arm walks it, at the app role's session settings (migration 0010: ``hnsw.ef_search`` 100,
``hnsw.iterative_scan`` relaxed_order), ``LIMIT`` recall's candidate count (50 for a page of 10).

Graph quality is recall@10 against the exact answer (numpy over the same float32 vectors): of the walk's 10
nearest by exact distance, how many are within the exact 10th distance (+1e-6; hash embeddings tie often, so any
of the tied rows is a right answer). halfvec graphs are scored against the exact ``vector`` distances too (their
rounding counts against them). Prints markdown; writes bench/results/hnsw_build_<rows>_<workload>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from bench.common import WORKLOADS, save_result
from shared.providers.embeddings.hash import HashEmbedder

DIMS = 384
GEN = 1  # the rows' generation: the graph of generation 1 holds them all


@dataclass(frozen=True)
class Setting:
    name: str
    kind: str = "vector"  # or "halfvec"
    m: int = 16
    ef_construction: int = 64
    concurrently: bool = True

    def expression(self) -> str:
        return f"(embedding::{self.kind}({DIMS}))"

    def ddl(self, index: str) -> str:
        how = "CONCURRENTLY " if self.concurrently else ""
        return (
            f"CREATE INDEX {how}{index} ON memories USING hnsw ({self.expression()} {self.kind}_cosine_ops) "
            f"WITH (m = {self.m}, ef_construction = {self.ef_construction}) "
            f"WHERE deleted_at IS NULL AND vector_dims(embedding) = {DIMS} AND vector_gen <= {GEN}"
        )

    def walk(self) -> str:
        """Recall's graph arm, less the filters a default request folds away."""
        return (
            f"SELECT m.id, (m.embedding::vector({DIMS})) <=> %(q)s AS dist FROM memories m "
            f"WHERE m.workspace_id = %(ws)s AND m.deleted_at IS NULL AND m.status = 'active' "
            f"AND m.valid_to IS NULL AND m.embedding_model = %(model)s AND vector_dims(m.embedding) = {DIMS} "
            f"AND m.vector_gen <= {GEN} ORDER BY {self.expression()} <=> %(q)s::{self.kind}({DIMS}) LIMIT %(k)s"
        )


SETTINGS = {
    s.name: s
    for s in (
        Setting("default"),  # pgvector's defaults: m 16, ef_construction 64 (what index_ddl builds today)
        Setting("default_plain", concurrently=False),
        Setting("halfvec", kind="halfvec"),
        Setting("ef32", ef_construction=32),
        Setting("ef40", ef_construction=40),
        Setting("halfvec_ef40", kind="halfvec", ef_construction=40),
        Setting("m12", m=12),
        Setting("m12_ef40", m=12, ef_construction=40),
        Setting("halfvec_m12_ef40", kind="halfvec", m=12, ef_construction=40),
    )
}


def load(dsn: str, rows: int, workload: str, seed: int) -> tuple[list[str], np.ndarray]:
    """``rows`` memories of one workspace, pending (generation GEN); returns their ids and vectors."""
    text, _ = WORKLOADS[workload]
    rng = random.Random(seed)
    embedder = HashEmbedder(DIMS)
    ids: list[str] = []
    vectors = np.zeros((rows, DIMS), dtype=np.float32)
    with psycopg.connect(dsn, autocommit=True) as conn:
        register_vector(conn)
        conn.execute("INSERT INTO workspaces (id, name) VALUES ('hnsw', 'hnsw') ON CONFLICT DO NOTHING")
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY memories (id, workspace_id, content, content_hash, dedup_key, type, embedding, "
                "embedding_model, vector_gen) FROM STDIN (FORMAT BINARY)"
            ) as copy,
        ):
            copy.set_types(["text", "text", "text", "text", "text", "text", "vector", "text", "int8"])
            for start in range(0, rows, 1000):
                texts = [text(rng) for _ in range(min(1000, rows - start))]
                for j, (content, vector) in enumerate(zip(texts, embedder.embed(texts), strict=True)):
                    i = start + j
                    ids.append(f"mem_{i:08d}")
                    vectors[i] = vector
                    key = f"k{i}"
                    copy.write_row(
                        (ids[-1], "hnsw", content, key, key, "fact", vector, embedder.model_id, GEN)
                    )
        conn.execute("VACUUM ANALYZE memories")
    return ids, vectors


def exact(vectors: np.ndarray, queries: np.ndarray, k: int) -> np.ndarray:
    """Each query's exact k-th nearest cosine distance (the vectors are unit length)."""
    dist = 1.0 - queries @ vectors.T
    return np.sort(np.partition(dist, k - 1, axis=1)[:, :k], axis=1)[:, k - 1]


def quality(
    conn: psycopg.Connection[Any],
    setting: Setting,
    queries: np.ndarray,
    kth: np.ndarray,
    position: dict[str, int],
    vectors: np.ndarray,
    k: int,
) -> dict[str, Any]:
    """recall@10 of the graph walk (tie-tolerant), the walk's median ms, and whether the plan used the graph."""
    sql = setting.walk()
    plan = "\n".join(
        r[0]
        for r in conn.execute(
            "EXPLAIN " + sql, {"q": queries[0], "ws": "hnsw", "model": f"hash-{DIMS}@{DIMS}", "k": k}
        ).fetchall()
    )
    hits: list[float] = []
    ms: list[float] = []
    for q, tenth in zip(queries, kth, strict=True):
        began = time.perf_counter()
        found = conn.execute(sql, {"q": q, "ws": "hnsw", "model": f"hash-{DIMS}@{DIMS}", "k": k}).fetchall()
        ms.append((time.perf_counter() - began) * 1000)
        # Recall's vec CTE orders the arm's rows by the exact distance and keeps the best: so does this.
        dist = sorted(float(1.0 - vectors[position[row[0]]] @ q) for row in found)[:10]
        hits.append(sum(d <= tenth + 1e-6 for d in dist) / 10)
    return {
        "recall_at_10": round(statistics.fmean(hits), 4),
        "perfect_share": round(sum(h == 1.0 for h in hits) / len(hits), 3),
        "walk_p50_ms": round(statistics.median(ms), 2),
        "uses_graph": "idx_hnsw" in plan,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="uniform")
    parser.add_argument("--settings", default="default,halfvec,ef32,ef40,halfvec_ef40,m12")
    parser.add_argument("--build-memory", default="2GB")
    parser.add_argument("--parallel-workers", type=int, default=1)
    parser.add_argument(
        "--k", type=int, default=50, help="the walk's LIMIT: recall's candidates for a page of 10"
    )
    args = parser.parse_args()
    chosen = [SETTINGS[name] for name in args.settings.split(",")]

    from shared.db.migrate import apply_migrations
    from shared.local.postgres import EmbeddedPostgres

    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-hnsw-")) / "pg", ephemeral=True)
    results: dict[str, Any] = {
        "rows": args.rows,
        "workload": args.workload,
        "queries": args.queries,
        "k": args.k,
        "build_memory": args.build_memory,
        "parallel_workers": args.parallel_workers,
        "load_1m": [os.getloadavg()[0]],
        "builds": {s.name: [] for s in chosen},
    }
    try:
        with psycopg.connect(pg.dsn, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET shared_buffers = '2GB'")
            conn.execute("ALTER SYSTEM SET max_wal_size = '8GB'")
        pg.restart()
        apply_migrations(pg.owner_dsn, embedding_dimensions=DIMS)
        began = time.perf_counter()
        ids, vectors = load(pg.owner_dsn, args.rows, args.workload, 20261201)
        results["load_s"] = round(time.perf_counter() - began, 1)
        print(f"{args.rows:,} rows loaded in {results['load_s']} s", flush=True)
        _, query = WORKLOADS[args.workload]
        rng = random.Random(7)
        embedder = HashEmbedder(DIMS)
        queries = np.stack([embedder.embed_query(query(rng)) for _ in range(args.queries)])
        kth = exact(vectors, queries, 10)
        # How many rows are a right answer (within the 10th distance): hash embeddings tie, which makes recall@10
        # lenient where the 10th place is a tie of hundreds.
        right = ((1.0 - queries @ vectors.T) <= kth[:, None] + 1e-6).sum(axis=1)
        results["right_answers"] = {"p10": int(np.percentile(right, 10)), "p50": int(np.median(right))}
        print("right answers a query (p10, p50):", results["right_answers"], flush=True)
        position = {id_: i for i, id_ in enumerate(ids)}
        with psycopg.connect(pg.owner_dsn, autocommit=True) as conn:
            register_vector(conn)
            # The app role's session defaults (migration 0010), which recall walks the graph with.
            conn.execute("SET hnsw.ef_search = 100")
            conn.execute("SET hnsw.iterative_scan = 'relaxed_order'")
            conn.execute(f"SET maintenance_work_mem = '{args.build_memory}'")
            conn.execute(f"SET max_parallel_maintenance_workers = {int(args.parallel_workers)}")
            for round_ in range(args.rounds):
                # Interleaved: each round starts one setting later, so a busy minute does not always hit the same.
                order = chosen[round_ % len(chosen) :] + chosen[: round_ % len(chosen)]
                for setting in order:
                    conn.execute("DROP INDEX IF EXISTS idx_hnsw")
                    load_before = os.getloadavg()[0]
                    began = time.perf_counter()
                    conn.execute(setting.ddl("idx_hnsw"))
                    build_s = time.perf_counter() - began
                    (size,) = conn.execute("SELECT pg_relation_size('idx_hnsw')").fetchone()  # type: ignore[misc]
                    figures = {
                        "round": round_,
                        "build_s": round(build_s, 1),
                        "index_mb": round(size / 1e6, 1),
                        "load_1m": round(load_before, 2),
                        **quality(conn, setting, queries, kth, position, vectors, args.k),
                    }
                    results["builds"][setting.name].append(figures)
                    print(setting.name, json.dumps(figures), flush=True)
            conn.execute("DROP INDEX IF EXISTS idx_hnsw")
        results["load_1m"].append(os.getloadavg()[0])
    finally:
        pg.stop()
    save_result(f"hnsw_build_{args.rows}_{args.workload}.json", results)
    print(table(results))


def table(r: dict[str, Any]) -> str:
    base = (
        statistics.median(b["build_s"] for b in r["builds"]["default"]) if "default" in r["builds"] else None
    )
    lines = [
        f"{r['rows']:,} rows, {r['workload']} workload, {r['queries']} queries, walk LIMIT {r['k']}; load average "
        f"{r['load_1m'][0]:.1f} at start, {r['load_1m'][-1]:.1f} at end (2 cores).",
        "",
        "| setting | build s (each round) | build × default | index MB | recall@10 | all 10 right | walk p50 ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, builds in r["builds"].items():
        med = statistics.median(b["build_s"] for b in builds)
        ratio = f"{med / base:.2f}" if base else "-"
        lines.append(
            f"| {name} | {' / '.join(str(b['build_s']) for b in builds)} | {ratio} | {builds[0]['index_mb']} | "
            f"{statistics.fmean(b['recall_at_10'] for b in builds):.4f} | "
            f"{statistics.fmean(b['perfect_share'] for b in builds):.3f} | "
            f"{statistics.median(b['walk_p50_ms'] for b in builds)} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
