"""What a write costs the database, in CPU: the figure docs/scaling.md sizes one Aurora writer with.

    python -m bench.write_cost [--scale 0.1] [--writes 400] [--batches 20] [--recalls 400]

The table ``bench.tenants`` builds (1,000 long-tailed workspaces, ``--scale`` × 847,793 rows, the graph built),
served by the API as the app role. Then, one kind at a time and sequentially: ``--writes`` single remembers
(``POST /v1/memories``, random workspaces: each joins the HNSW graph at once), ``--batches`` batches of 100
(``POST /v1/memories/batch``: pending rows, the graph later), ``--recalls`` recalls, and as the baseline the same
number of ``GET /v1/memories/{id}`` reads (one indexed row through the same wall and pool). For each: the CPU
seconds Postgres spent (user + system of the postmaster and every backend, from /proc, before and after; a
backend that exited counts in the postmaster's reaped children), per operation, and as a multiple of the baseline
read. The batches go to one workspace and are timed until their rows are in the graph (the indexer moves them in
row by row), so their figure is a bulk write's whole cost. The bulk build's CPU per row is the graph build's (one process here) over its rows.

Cores are this machine's (x86-64, shared): a Graviton core of Aurora is not the same core. Use the ratios, and
the absolute figures as an order of magnitude. Prints markdown; writes bench/results/write_cost_<scale>.json.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from bench.common import query_words, save_result, sentence, wait_vectors_indexed
from bench.tenants import Workspace, build_graph, copy_workspaces, new_database, serving, workspace_sizes

TICKS = os.sysconf("SC_CLK_TCK")


def postgres_cpu_s(data_dir: Path) -> float:
    """User + system CPU seconds of the postmaster and its live children (its own plus its waited-for children's:
    a backend that exited and was reaped counts in the postmaster's cutime/cstime)."""
    postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == postmaster:
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
        elif ppid == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


def measured(data_dir: Path, n: int, op: Callable[[int], None]) -> dict[str, float | None]:
    """Postgres CPU ms and wall ms per call of ``op`` over ``n`` calls."""
    before, started = postgres_cpu_s(data_dir), time.perf_counter()
    for i in range(n):
        op(i)
    wall = time.perf_counter() - started
    cpu = postgres_cpu_s(data_dir) - before
    return {"n": n, "db_cpu_ms": round(cpu * 1000 / n, 3), "wall_ms": round(wall * 1000 / n, 2)}


def run(scale: float, writes: int, batches: int, recalls: int, *, count: int = 1000) -> dict[str, Any]:
    """Load ``count`` workspaces at ``scale`` into a throwaway Postgres, measure, return the figures."""
    from shared.local.postgres import EmbeddedPostgres

    sizes = workspace_sizes(count, scale)
    workspaces = [Workspace(f"t{i:04d}", size, 1_000 + i) for i, size in enumerate(sizes)]
    data_dir = Path(tempfile.mkdtemp(prefix="ml-writecost-")) / "pg"
    pg = EmbeddedPostgres.start(data_dir, ephemeral=True)
    try:
        dbname = f"writecost_{uuid.uuid4().hex[:6]}"
        owner = new_database(pg.dsn, dbname)
        copy_s = copy_workspaces(owner, workspaces)
        cpu_before = postgres_cpu_s(data_dir)
        build_s = build_graph(owner)
        build_cpu = postgres_cpu_s(data_dir) - cpu_before
        rows = sum(sizes)
        rng = random.Random(20261204)
        ids: list[tuple[str, str]] = []
        with (
            serving(pg.dsn, {"shared": (dbname, owner)}) as urls,
            httpx.Client(base_url=urls["shared"]) as http,
        ):

            def headers() -> dict[str, str]:
                return {"X-Workspace-ID": rng.choice(workspaces).id}

            def remember(_: int) -> None:
                h = headers()
                r = http.post("/v1/memories", json={"content": sentence(rng)}, headers=h)
                r.raise_for_status()
                ids.append((h["X-Workspace-ID"], r.json()["memory"]["id"]))

            bulk_ws = workspaces[0].id

            def batch(i: int) -> None:
                ops = [{"op": "create", "content": sentence(rng)} for _ in range(100)]
                r = http.post(
                    "/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": bulk_ws}
                )
                r.raise_for_status()
                if i == batches - 1:
                    wait_vectors_indexed(http, bulk_ws)

            def recall(_: int) -> None:
                r = http.post(
                    "/v1/memories/recall", json={"query": query_words(rng), "limit": 10}, headers=headers()
                )
                r.raise_for_status()

            def read(i: int) -> None:
                ws, memory_id = ids[i % len(ids)]
                http.get(f"/v1/memories/{memory_id}", headers={"X-Workspace-ID": ws}).raise_for_status()

            for _ in range(20):  # warm the pool, the caches and the plans
                remember(0)
                recall(0)
                read(0)
            figures = {
                "remember": measured(data_dir, writes, remember),
                "read (baseline)": measured(data_dir, writes, read),
                "recall": measured(data_dir, recalls, recall),
                "batch of 100": measured(data_dir, batches, batch),
            }
        base = figures["read (baseline)"]["db_cpu_ms"]
        for f in figures.values():
            cpu = f["db_cpu_ms"]
            f["x_baseline"] = round(cpu / base, 1) if base and cpu is not None else None
        return {
            "scale": scale,
            "workspaces": count,
            "rows": rows,
            "copy_s": round(copy_s, 1),
            "graph_build_s": round(build_s, 1),
            "graph_build_cpu_ms_per_row": round(build_cpu * 1000 / rows, 3),
            "operations": figures,
            "load_1m": os.getloadavg()[0],
        }
    finally:
        pg.stop()


def table(r: dict[str, Any]) -> str:
    lines = [
        f"{r['rows']:,} rows in {r['workspaces']:,} workspaces (load average {r['load_1m']:.1f}); graph build "
        f"{r['graph_build_cpu_ms_per_row']} CPU ms a row",
        "",
        "| operation | n | Postgres CPU ms each | × the baseline read | wall ms each |",
        "|---|---|---|---|---|",
    ]
    for name, f in r["operations"].items():
        lines.append(f"| {name} | {f['n']} | {f['db_cpu_ms']} | {f['x_baseline']} | {f['wall_ms']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--writes", type=int, default=400)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--recalls", type=int, default=400)
    args = parser.parse_args()
    result = run(args.scale, args.writes, args.batches, args.recalls)
    print(table(result))
    print(f"results: {save_result(f'write_cost_{args.scale:g}.json', result)}")


if __name__ == "__main__":
    main()
