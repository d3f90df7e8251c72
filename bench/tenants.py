"""Many workspaces in one table: recall of a small, a median and the largest workspace among N long-tailed
tenants, each against the same workspace loaded alone in its own database in the same run, and "the floor":
recall's two arms as bare SQL on the same data.

    python -m bench.tenants [--workspaces 1000] [--scale 1.0] [--queries 200] [--seconds 10] [--rounds 1]
                            [--index-ab] [--dedicated-ab] [--plans-ab] [--dedicated-min-rows N]

Sizes: most workspaces hold 100–2,000 memories (log-uniform), one in a hundred 5k–50k (geometric from the
largest down), 847,793 rows in all at ``--scale 1``; ``--scale`` multiplies every size (0.1: the same shape,
84,763 rows, the largest 5k). Measured: the workspace nearest 1,000 × scale ("small"), the median one, the one
nearest 10,000 × scale ("10k"), the largest.

One throwaway embedded Postgres, one database for all the workspaces and one per measured workspace holding it
alone (same ids, texts and vectors). Rows are COPYed straight into ``memories`` as the owner (``hash``
embeddings, ``bench.common`` Zipf texts), pending as a bulk write leaves them, then each database's graph is built
the way the bulk indexer builds it (``shared/domain/indexing/bulk.rebuild``: the table-wide graph, and a graph of
its own for each workspace from ``--dedicated-min-rows``, by default ``vector_index.DEDICATED_MIN_ROWS`` × scale so
a scaled run has the full run's shape; none for a workspace holding most of its table, so none alone) and its
statistics refreshed (``analyze_memories``). Each database is served by its own API process logged in as the app
role (as ``bench.scale``), its ``recall_sorted_max_rows`` × scale too. Per workspace, shared table and alone
alternating ``--rounds`` times (each round in the other order): sequential recall p50/p95 over HTTP (after 20
warm-ups) and 8-client throughput for ``--seconds``.

The floor, per query on the same databases as the owner (no wall, no fusion): one vector top-k (recall's graph
walk: the published generation's partial index, or the workspace's own graph when it has one, ef_search 100,
iterative scan) and one full-text top-k (``tsv @@`` the query's words ORed, ``ts_rank`` order); k = 50, recall's
candidates for a page of 10.

``--index-ab``: then the shared table alone, as before migration 0046 (only the table-wide ``memories_tsv``, built
again, and ``memories_ws_tsv`` dropped) and as now (``memories_ws_tsv`` built again, which drops ``memories_tsv``
as the migrations' contract step does), alternated ``--rounds`` times: the lever on the same data in the same
run. ``--dedicated-ab``: likewise without the workspaces' own graphs (dropped, unrecorded: the table-wide graph
answers) and with them (built again), for the measured workspaces that have one, the floor's vector arm beside
(each switch waits out the API's cached view, ``OWN_GRAPH_RECHECK_S``). ``--plans-ab``: likewise through a second
API on the shared table with ``recall_kept_plans`` off (every statement planned ad hoc) and the usual one (the
functions whose plans are kept). Prints markdown; writes
bench/results/tenants_<scale>.json.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg.conninfo import make_conninfo

from bench.common import query_words, save_result, sentence, summarise, wait_healthy
from bench.scale import recall_figures
from shared.core.settings import Settings
from shared.domain.retrieval.text_query import to_tsquery_text
from shared.local.server import free_port
from shared.providers.embeddings.hash import HashEmbedder

DIMS = 384
K = 50  # recall's candidates per arm for a page of 10
AD_HOC = "shared_ad_hoc"  # --plans-ab: the API on the shared table that plans every recall ad hoc
COPY_CHUNK = 50_000  # rows per COPY transaction (the statement triggers' transition tables stay moderate)
BUILD_MEMORY_MB = (
    2560  # maintenance_work_mem of the graph builds: an 850k-row graph fits (bench.scale: 1M needs ~2.5 GB)
)


@dataclass(frozen=True)
class Workspace:
    id: str
    size: int
    seed: int


def workspace_sizes(count: int, scale: float, seed: int = 20261204) -> list[int]:
    """``count`` long-tailed sizes: one in a hundred (at least one) geometric from 50,000 down to 5,000, the rest
    log-uniform over 100–2,000; each times ``scale`` (at least 5).

    >>> sizes = workspace_sizes(1000, 1.0)
    >>> max(sizes), sum(sizes)
    (50000, 847793)
    >>> max(workspace_sizes(1000, 0.1))
    5000
    """
    rng = random.Random(seed)
    big = max(1, count // 100)
    sizes = [round(50_000 * 0.1 ** (j / max(1, big - 1))) for j in range(big)]
    sizes += [round(math.exp(rng.uniform(math.log(100), math.log(2_000)))) for _ in range(count - big)]
    rng.shuffle(sizes)
    return [max(5, round(s * scale)) for s in sizes]


def measured(workspaces: list[Workspace], scale: float) -> dict[str, Workspace]:
    """The four measured: nearest 1,000 × scale, the median size, nearest 10,000 × scale, the largest."""
    by_size = sorted(workspaces, key=lambda w: (w.size, w.id))
    small = min(workspaces, key=lambda w: (abs(w.size - 1_000 * scale), w.id))
    ten_k = min(workspaces, key=lambda w: (abs(w.size - 10_000 * scale), w.id))
    return {"small": small, "median": by_size[len(by_size) // 2], "10k": ten_k, "largest": by_size[-1]}


def copy_workspaces(owner_dsn: str, workspaces: list[Workspace], *, generation: int = 1) -> float:
    """COPY every workspace's memories (texts and vectors a function of its seed, so a workspace loaded in another
    database is the same rows) into ``memories`` as pending rows of ``generation``; returns the seconds."""
    embedder = HashEmbedder(DIMS)
    started = time.perf_counter()
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        register_vector(conn)
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO workspaces (id, name) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                [(w.id, w.id) for w in workspaces],
            )
        rows = 0
        copy_sql = (
            "COPY memories (id, workspace_id, content, content_hash, dedup_key, type, embedding, embedding_model, "
            "vector_gen) FROM STDIN (FORMAT BINARY)"
        )
        pending = list(workspaces)
        while pending:
            with conn.transaction(), conn.cursor() as cur, cur.copy(copy_sql) as copy:
                copy.set_types(["text", "text", "text", "text", "text", "text", "vector", "text", "int8"])
                in_chunk = 0
                while pending and in_chunk < COPY_CHUNK:
                    w = pending.pop(0)
                    rng = random.Random(w.seed)
                    texts = [sentence(rng) for _ in range(w.size)]
                    for i, (content, vector) in enumerate(zip(texts, embedder.embed(texts), strict=True)):
                        key = f"{w.id}_{i}"
                        copy.write_row(
                            (
                                f"mem_{key}",
                                w.id,
                                content,
                                key,
                                key,
                                "fact",
                                vector,
                                embedder.model_id,
                                generation,
                            )
                        )
                    in_chunk += w.size
            rows += in_chunk
    return time.perf_counter() - started


def build_graph(owner_dsn: str) -> float:
    """The bulk indexer's build of the next graph over every row, then the worker's statistics refresh."""
    from shared.domain.indexing import bulk

    started = time.perf_counter()
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        bulk.rebuild(conn, DIMS, memory_mb=BUILD_MEMORY_MB, drop_grace_s=0)
        conn.execute("SELECT analyze_memories()")
    return time.perf_counter() - started


def new_database(superuser_dsn: str, name: str) -> str:
    """A database bootstrapped as the local stack's and migrated as the owner; returns the owner's DSN."""
    from shared.db.migrate import apply_migrations
    from shared.local.postgres import OWNER_ROLE, bootstrap_owner

    with psycopg.connect(superuser_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    with psycopg.connect(make_conninfo(superuser_dsn, dbname=name), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        bootstrap_owner(conn)
    owner = make_conninfo(superuser_dsn, user=OWNER_ROLE, dbname=name)
    apply_migrations(owner, embedding_dimensions=DIMS)
    return owner


@contextmanager
def serving(
    superuser_dsn: str,
    databases: dict[str, tuple[str, str]],
    settings: dict[str, dict[str, str]] | None = None,
) -> Iterator[dict[str, str]]:
    """The API as its own process on each database (name -> (database, owner's DSN)), logged in as the app role,
    all started at once, with ``settings[name]`` (environment variables) if given; yields name -> base URL."""
    started: dict[str, tuple[str, subprocess.Popen[bytes], Path]] = {}
    try:
        for name, (dbname, owner_dsn) in databases.items():
            port = free_port()
            log_path = Path(tempfile.mkdtemp(prefix="ml-tenants-log-")) / "server.log"
            env = {
                **{k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")},
                "MEMORYLAYER_DATABASE_URL": make_conninfo(
                    superuser_dsn, user="memorylayer_app", dbname=dbname
                ),
                "MEMORYLAYER_DATABASE_OWNER_URL": owner_dsn,
                "MEMORYLAYER_EMBEDDING_PROVIDER": "hash",
                "MEMORYLAYER_AUTH_MODE": "none",
                "MEMORYLAYER_DB_POOL_MAX": "16",
                "MEMORYLAYER_PORT": str(port),
                **(settings or {}).get(name, {}),
            }
            with log_path.open("wb") as log:
                server = subprocess.Popen(
                    [sys.executable, "-c", "from shared.cli import main; main()", "serve"],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            started[name] = (f"http://127.0.0.1:{port}", server, log_path)
        for url, server, log_path in started.values():
            wait_healthy(url, server, 120, log_path)
        yield {name: url for name, (url, _, _) in started.items()}
    finally:
        for _, server, _ in started.values():
            server.terminate()
        for _, server, _ in started.values():
            server.wait(timeout=30)


def floor(owner_dsn: str, ws: str, queries: list[str]) -> dict[str, Any]:
    """The two arms as bare SQL, per query (after 5 warm-ups): a vector top-k (walking the workspace's own graph
    when it has one: the id literal, as recall names it) and a full-text top-k."""
    from shared.db import vector_index

    embedder = HashEmbedder(DIMS)
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        register_vector(conn)
        conn.execute("SET hnsw.ef_search = 100")
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        gen = vector_index.published(conn, DIMS)
        own = ws in vector_index.dedicated(conn, DIMS, gen)
        vector_sql = (
            f"SELECT id FROM memories WHERE workspace_id = %s AND deleted_at IS NULL "
            f"AND vector_dims(embedding) = {DIMS} AND vector_gen <= {gen} "
            + (f"AND workspace_id = {vector_index.workspace_literal(ws)} " if own else "")
            + f"ORDER BY embedding::vector({DIMS}) <=> %s LIMIT {K}"
        )
        text_sql = (
            "SELECT m.id FROM memories m, to_tsquery('english', %s) q WHERE m.workspace_id = %s "
            f"AND m.deleted_at IS NULL AND m.tsv @@ q ORDER BY ts_rank(m.tsv, q) DESC LIMIT {K}"
        )
        vectors = embedder.embed(queries)
        vec_ms: list[float] = []
        text_ms: list[float] = []
        both_ms: list[float] = []
        pairs = list(zip(queries, vectors, strict=True))
        for i, (q, v) in enumerate(pairs[:5] + pairs):  # the first five twice: warm-ups, not counted
            began = time.perf_counter()
            conn.execute(vector_sql, (ws, v)).fetchall()
            middle = time.perf_counter()
            conn.execute(text_sql, (to_tsquery_text(q), ws)).fetchall()
            ended = time.perf_counter()
            if i >= min(5, len(pairs)):
                vec_ms.append((middle - began) * 1000)
                text_ms.append((ended - middle) * 1000)
                both_ms.append((ended - began) * 1000)
    return {
        "vector": summarise(vec_ms),
        "text": summarise(text_ms),
        "both": summarise(both_ms),
        "own_graph": own,
    }


def run(
    count: int,
    scale: float,
    queries_n: int,
    seconds: float,
    rounds: int,
    *,
    superuser_dsn: str | None = None,
    index_ab: bool = False,
    dedicated_ab: bool = False,
    plans_ab: bool = False,
    dedicated_min_rows: int | None = None,
) -> dict[str, Any]:
    """Load, measure, and return the figures. ``superuser_dsn``: use that server (its databases made here are
    dropped at the end) instead of a throwaway one tuned for the run. ``index_ab``: then, on the shared table
    only, recall without the per-workspace text index and with it again, ``rounds`` times (the lever alone, same
    data, same run). ``dedicated_ab``: likewise without the large workspaces' own graphs and with them.
    ``plans_ab``: likewise with every recall statement planned ad hoc (a second API on the shared table with
    ``recall_kept_plans`` off) and through the functions whose plans are kept, alternated.
    ``dedicated_min_rows``: the own-graph threshold of the builds here (default DEDICATED_MIN_ROWS × scale, so a
    scaled run has the full run's shape)."""
    from shared.db import vector_index
    from shared.local.postgres import EmbeddedPostgres

    threshold = (
        round(vector_index.DEDICATED_MIN_ROWS * scale) if dedicated_min_rows is None else dedicated_min_rows
    )
    # The APIs' sorting threshold, scaled likewise: each workspace is served by the function it would be at scale 1.
    sorted_max = round(Settings().recall_sorted_max_rows * scale)

    sizes = workspace_sizes(count, scale)
    workspaces = [Workspace(f"t{i:04d}", size, 1_000 + i) for i, size in enumerate(sizes)]
    chosen = measured(workspaces, scale)
    rng = random.Random(20261204)
    queries = {label: [query_words(rng) for _ in range(queries_n)] for label in chosen}
    results: dict[str, Any] = {
        "workspaces": count,
        "scale": scale,
        "rows": sum(sizes),
        "measured": {label: {"id": w.id, "memories": w.size} for label, w in chosen.items()},
        "load_1m": os.getloadavg()[0],
        "dedicated_min_rows": threshold,
        "sorted_max_rows": sorted_max,
    }
    with ExitStack() as stack:
        # This process builds the graphs (bulk.rebuild); the threshold is put back after, for whoever runs next in it.
        stack.callback(setattr, vector_index, "DEDICATED_MIN_ROWS", vector_index.DEDICATED_MIN_ROWS)
        vector_index.DEDICATED_MIN_ROWS = threshold
        if superuser_dsn is None:
            pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-tenants-")) / "pg", ephemeral=True)
            stack.callback(pg.stop)
            with psycopg.connect(pg.dsn, autocommit=True) as conn:
                conn.execute("ALTER SYSTEM SET shared_buffers = '1GB'")
            pg.restart()
            superuser_dsn = pg.dsn
        prefix = f"tenants_{uuid.uuid4().hex[:6]}"
        # name -> (its workspaces, its database, the owner's DSN)
        databases: dict[str, tuple[list[Workspace], str, str]] = {}
        dsn = superuser_dsn
        stack.callback(lambda: drop_databases(dsn, [dbname for _, dbname, _ in databases.values()]))
        for name, held in [("shared", workspaces), *((label, [w]) for label, w in chosen.items())]:
            dbname = f"{prefix}_{name}"
            databases[name] = (held, dbname, new_database(superuser_dsn, dbname))
        with psycopg.connect(databases["shared"][2]) as conn:
            results["text_indexes"] = [
                r[0]
                for r in conn.execute(
                    "SELECT indexrelid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                    "WHERE indrelid = 'memories'::regclass AND c.relam = (SELECT oid FROM pg_am WHERE amname = 'gin') "
                    "AND pg_get_indexdef(indexrelid) LIKE '%%tsv%%' ORDER BY 1"
                )
            ]
        for name, (held, _, owner) in databases.items():
            load_s = copy_workspaces(owner, held)
            build_s = build_graph(owner)
            results.setdefault("load", {})[name] = {
                "rows": sum(w.size for w in held),
                "copy_s": round(load_s, 1),
                "graph_and_stats_s": round(build_s, 1),
            }
            print(
                f"{name}: {sum(w.size for w in held):,} rows, COPY {load_s:.1f} s, graph {build_s:.1f} s",
                flush=True,
            )
        with psycopg.connect(databases["shared"][2]) as conn:
            gen = vector_index.published(conn, DIMS)
            results["own_graphs"] = sorted(vector_index.dedicated(conn, DIMS, gen))
        print(f"own graphs (at least {threshold:,} rows): {results['own_graphs']}", flush=True)
        served = {name: (dbname, owner) for name, (_, dbname, owner) in databases.items()}
        if plans_ab:
            served[AD_HOC] = served["shared"]
        urls = stack.enter_context(
            serving(
                superuser_dsn,
                served,
                {
                    name: {
                        "MEMORYLAYER_RECALL_SORTED_MAX_ROWS": str(sorted_max),
                        **({"MEMORYLAYER_RECALL_KEPT_PLANS": "false"} if name == AD_HOC else {}),
                    }
                    for name in served
                },
            )
        )
        for label, w in chosen.items():
            figures: dict[str, list[dict[str, Any]]] = {"shared": [], "alone": []}
            for r in range(rounds):
                sides = (("shared", "shared"), ("alone", label))
                # Each round in the other order: a box whose load drifts favours neither side.
                for side, db in sides if r % 2 == 0 else sides[::-1]:
                    figures[side].append(recall_figures(urls[db], w.id, queries[label], seconds))
            floors = {
                side: floor(databases[db][2], w.id, queries[label])
                for side, db in (("shared", "shared"), ("alone", label))
            }
            results[label] = {"recall": figures, "floor": floors}
            print(json.dumps({label: results[label]}), flush=True)
        if index_ab:
            results["index_ab"] = measure_index_ab(
                databases["shared"][2], urls["shared"], chosen, queries, seconds, rounds
            )
        if dedicated_ab:
            results["dedicated_ab"] = measure_dedicated_ab(
                databases["shared"][2],
                urls["shared"],
                {label: w for label, w in chosen.items() if w.id in results["own_graphs"]},
                queries,
                seconds,
                rounds,
            )
        if plans_ab:
            results["plans_ab"] = measure_plans_ab(
                urls[AD_HOC], urls["shared"], chosen, queries, seconds, rounds
            )
    results["load_1m_end"] = os.getloadavg()[0]
    return results


def measure_index_ab(
    owner_dsn: str,
    url: str,
    chosen: dict[str, Workspace],
    queries: dict[str, list[str]],
    seconds: float,
    rounds: int,
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each measured workspace's recall in the shared table with only the table-wide ``memories_tsv`` (as before
    migration 0046), then with only ``memories_ws_tsv`` (built as migrate builds it, which drops the table-wide one:
    without rebuilding that one first, "without" would have no text index at all)."""
    from shared.db.migrate import TABLE_TEXT_INDEX, WORKSPACE_TEXT_INDEX, ensure_workspace_text_index

    figures: dict[str, dict[str, list[dict[str, Any]]]] = {
        label: {"without": [], "with": []} for label in chosen
    }
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        for _ in range(rounds):
            for phase in ("without", "with"):
                if phase == "without":
                    conn.execute(
                        f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {TABLE_TEXT_INDEX} ON memories USING gin (tsv) "
                        "WHERE deleted_at IS NULL"
                    )
                    conn.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {WORKSPACE_TEXT_INDEX}")
                else:
                    ensure_workspace_text_index(conn)
                conn.execute("ANALYZE memories")
                for label, w in chosen.items():
                    figures[label][phase].append(recall_figures(url, w.id, queries[label], seconds))
                print(phase, json.dumps({k: v[phase][-1] for k, v in figures.items()}), flush=True)
    return figures


def measure_dedicated_ab(
    owner_dsn: str,
    url: str,
    chosen: dict[str, Workspace],
    queries: dict[str, list[str]],
    seconds: float,
    rounds: int,
) -> dict[str, Any]:
    """Each measured workspace that has its own graph, recalled in the shared table without the own graphs (every
    one dropped, its record deleted: the table-wide graph answers, as before) and with them (built again as the
    indexer builds them for the published generation), alternated; and the floor's vector arm each time. After
    each switch, the API's record of which workspace has one is left to expire (OWN_GRAPH_RECHECK_S)."""
    from shared.db import vector_index
    from shared.domain.indexing.bulk import BUILD_PARALLEL_WORKERS
    from shared.domain.indexing.generations import OWN_GRAPH_RECHECK_S

    figures: dict[str, Any] = {
        label: {"without": [], "with": [], "floor": {"without": [], "with": []}} for label in chosen
    }
    builds: list[float] = []
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        gen = vector_index.published(conn, DIMS)
        for _ in range(rounds):
            for phase in ("without", "with"):
                if phase == "without":
                    for ws in vector_index.dedicated(conn, DIMS, gen):
                        conn.execute(
                            f"DROP INDEX CONCURRENTLY IF EXISTS {vector_index.dedicated_name(DIMS, gen, ws)}"
                        )
                    conn.execute("DELETE FROM vector_dedicated_graphs")
                else:
                    began = time.perf_counter()
                    with vector_index.build_memory(
                        conn, memory_mb=BUILD_MEMORY_MB, parallel_workers=BUILD_PARALLEL_WORKERS
                    ):
                        vector_index.build_dedicated(conn, DIMS, gen)
                    builds.append(time.perf_counter() - began)
                time.sleep(OWN_GRAPH_RECHECK_S + 1)
                for label, w in chosen.items():
                    figures[label][phase].append(recall_figures(url, w.id, queries[label], seconds))
                    figures[label]["floor"][phase].append(floor(owner_dsn, w.id, queries[label]))
                print(phase, json.dumps({k: v[phase][-1] for k, v in figures.items()}), flush=True)
    return {"workspaces": figures, "build_s": [round(b, 1) for b in builds]}


def measure_plans_ab(
    ad_hoc_url: str,
    kept_url: str,
    chosen: dict[str, Workspace],
    queries: dict[str, list[str]],
    seconds: float,
    rounds: int,
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each measured workspace's recall in the shared table through the API that plans every recall statement
    ad hoc, then through the one that calls the functions whose plans are kept, alternated."""
    figures: dict[str, dict[str, list[dict[str, Any]]]] = {
        label: {"ad_hoc": [], "kept": []} for label in chosen
    }
    for _ in range(rounds):
        for phase, url in (("ad_hoc", ad_hoc_url), ("kept", kept_url)):
            for label, w in chosen.items():
                figures[label][phase].append(recall_figures(url, w.id, queries[label], seconds))
            print(phase, json.dumps({k: v[phase][-1] for k, v in figures.items()}), flush=True)
    return figures


def drop_databases(superuser_dsn: str, names: list[str]) -> None:
    with psycopg.connect(superuser_dsn, autocommit=True) as conn:
        for name in names:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def med(side: list[dict[str, Any]], key: str) -> float:
    """The median over rounds of one figure of ``recall_figures``: ``p50_ms``, ``p95_ms``, or ``rps`` (8 clients)."""
    return statistics.median(
        x["sequential"][key] if key != "rps" else x["clients_8"]["requests_per_s"] for x in side
    )


def table(r: dict[str, Any]) -> str:
    lines = [
        f"{r['workspaces']:,} workspaces, {r['rows']:,} memories (scale {r['scale']}), hash embeddings; load average "
        f"{r['load_1m']:.1f} at the start, {r['load_1m_end']:.1f} at the end (2 cores).",
        "",
        "| workspace (memories) | recall p50 / p95 ms, shared table | alone | p50 × alone | p95 × alone | "
        "8-client req/s shared / alone | throughput × alone | floor ms shared: vector + text (alone) | "
        "HTTP p50 × floor, shared / alone |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, m in r["measured"].items():
        x = r[label]
        shared, alone = x["recall"]["shared"], x["recall"]["alone"]
        fs, fa = x["floor"]["shared"], x["floor"]["alone"]
        p50s, p95s, p50a, p95a = (
            med(shared, "p50_ms"),
            med(shared, "p95_ms"),
            med(alone, "p50_ms"),
            med(alone, "p95_ms"),
        )
        rps, rpa = med(shared, "rps"), med(alone, "rps")
        lines.append(
            f"| {label} ({m['memories']:,}) | {p50s:.1f} / {p95s:.1f} | {p50a:.1f} / {p95a:.1f} | "
            f"**{p50s / p50a:.2f}×** | {p95s / p95a:.2f}× | {rps:.1f} / {rpa:.1f} | {rps / max(rpa, 1e-9):.2f}× | "
            f"{fs['vector']['p50_ms']:.1f} + {fs['text']['p50_ms']:.1f} "
            f"({fa['vector']['p50_ms']:.1f} + {fa['text']['p50_ms']:.1f}) | "
            f"{p50s / fs['both']['p50_ms']:.1f}× / {p50a / fa['both']['p50_ms']:.1f}× |"
        )
    if r.get("dedicated_ab", {}).get("workspaces"):
        builds = r["dedicated_ab"]["build_s"]
        lines += [
            "",
            f"The own graphs alone, shared table (`--dedicated-ab`; own graph from {r['dedicated_min_rows']:,} "
            f"rows: {len(r['own_graphs'])} workspaces; their build {min(builds):.0f}–{max(builds):.0f} s): "
            "without them, then with them, alternated:",
            "",
            "| workspace (memories) | recall p50 / p95 ms without | with | p50 with ÷ without | p95 | "
            "8-client req/s without / with | floor vector ms without / with |",
            "|---|---|---|---|---|---|---|",
        ]
        for label, m in r["measured"].items():
            if label not in r["dedicated_ab"]["workspaces"]:
                continue
            ab = r["dedicated_ab"]["workspaces"][label]
            p50o, p95o, p50w, p95w = (
                med(ab["without"], "p50_ms"),
                med(ab["without"], "p95_ms"),
                med(ab["with"], "p50_ms"),
                med(ab["with"], "p95_ms"),
            )
            fo = statistics.median(f["vector"]["p50_ms"] for f in ab["floor"]["without"])
            fw = statistics.median(f["vector"]["p50_ms"] for f in ab["floor"]["with"])
            lines.append(
                f"| {label} ({m['memories']:,}) | {p50o:.1f} / {p95o:.1f} | {p50w:.1f} / {p95w:.1f} | "
                f"**{p50w / p50o:.2f}×** | {p95w / p95o:.2f}× | "
                f"{med(ab['without'], 'rps'):.1f} / {med(ab['with'], 'rps'):.1f} | {fo:.1f} / {fw:.1f} |"
            )
    if "plans_ab" in r:
        lines += _ab_table(
            r,
            "plans_ab",
            ("ad_hoc", "kept"),
            "Plans kept, shared table (`--plans-ab`): an API that plans every recall statement ad hoc, then the "
            "one that calls the functions whose plans are kept, alternated:",
            ("ad hoc", "kept plans"),
        )
    if "index_ab" in r:
        lines += _ab_table(
            r,
            "index_ab",
            ("without", "with"),
            "The lever alone, shared table (`--index-ab`): only `memories_tsv`, then only `memories_ws_tsv`, "
            "alternated:",
            ("without", "with"),
        )
    return "\n".join(lines)


def _ab_table(
    r: dict[str, Any], key: str, phases: tuple[str, str], heading: str, names: tuple[str, str]
) -> list[str]:
    """The lines of an A/B's table: each measured workspace's recall in ``phases`` (before, after), medians of
    the rounds, and the after ÷ before ratios."""
    lines = [
        "",
        heading,
        "",
        f"| workspace (memories) | recall p50 / p95 ms {names[0]} | {names[1]} | p50 {names[1]} ÷ {names[0]} | "
        f"p95 | 8-client req/s {names[0]} / {names[1]} |",
        "|---|---|---|---|---|---|",
    ]
    for label, m in r["measured"].items():
        before, after = (r[key][label][phase] for phase in phases)
        p50o, p95o, p50w, p95w = (
            med(before, "p50_ms"),
            med(before, "p95_ms"),
            med(after, "p50_ms"),
            med(after, "p95_ms"),
        )
        lines.append(
            f"| {label} ({m['memories']:,}) | {p50o:.1f} / {p95o:.1f} | {p50w:.1f} / {p95w:.1f} | "
            f"**{p50w / p50o:.2f}×** | {p95w / p95o:.2f}× | {med(before, 'rps'):.1f} / {med(after, 'rps'):.1f} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workspaces", type=int, default=1000)
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every workspace's size")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0, help="of 8-client throughput per measurement")
    parser.add_argument("--rounds", type=int, default=1, help="shared and alone alternated this many times")
    parser.add_argument(
        "--index-ab",
        action="store_true",
        help="then recall in the shared table without the per-workspace text index and with it, --rounds times",
    )
    parser.add_argument(
        "--dedicated-ab",
        action="store_true",
        help="then recall in the shared table without the large workspaces' own graphs and with them, --rounds times",
    )
    parser.add_argument(
        "--plans-ab",
        action="store_true",
        help="then recall in the shared table planned ad hoc and through the kept plans, --rounds times",
    )
    parser.add_argument(
        "--dedicated-min-rows",
        type=int,
        default=None,
        help="own graph from this many rows (default: vector_index.DEDICATED_MIN_ROWS × scale)",
    )
    parser.add_argument("--out", default=None, help="results file name (default tenants_<scale>.json)")
    args = parser.parse_args()
    results = run(
        args.workspaces,
        args.scale,
        args.queries,
        args.seconds,
        args.rounds,
        index_ab=args.index_ab,
        dedicated_ab=args.dedicated_ab,
        plans_ab=args.plans_ab,
        dedicated_min_rows=args.dedicated_min_rows,
    )
    save_result(args.out or f"tenants_{args.scale}.json", results)
    print(table(results))


if __name__ == "__main__":
    main()
