"""Recall cost of two versions of our code, interleaved in the same run, on the uniform rare-word workload.

    git worktree add /work/wt-r-base f44dab6        # the old version, once
    .venv/bin/python -m bench.recall_versions --base /work/wt-r-base [--size 10000] [--samples 200] [--seconds 8]

Each version runs as ``bench.compare.ours_server`` (throwaway embedded Postgres, the app under uvicorn, hash
embeddings) from its own tree, in its own process. Both get the same corpus: ``size`` memories of 12 words
drawn uniformly from a 6,000-word vocabulary (every word is rare: the text arm cannot lean on a common one),
batch-loaded and indexed. Then, in ``rounds`` alternating turns (old, new, old, new…): ``samples`` sequential
recalls (3 uniform words, limit 10) and 8 client threads recalling for ``seconds``. Before measuring, a fixed
set of queries is asked of both and their ranked contents and relevance scores compared (ids differ between
the two databases; boosted scores hold recency, which differs with the time each was loaded). Two databases
also build two HNSW graphs (random levels), so even one version against itself differs on some queries: this
line is a sanity check, not the identity test (that is tests/integration/test_recall_golden.py). Prints p50/p95 and req/s per version and the new/old ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.common import WORKLOADS, summarise, wait_vectors_indexed

# The memories and queries of the workload (bench.compare runs both); ``--workload`` picks one.
memory_text, query_text = WORKLOADS["uniform"]

CLIENTS = 8
WS = "bench_uniform"


class Server:
    def __init__(self, name: str, tree: Path) -> None:
        self.name, self.tree = name, tree
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bench.compare.ours_server"],
            cwd=tree,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env={**os.environ, "PYTHONPATH": str(tree)},
        )
        assert self.proc.stdout is not None
        self.base_url = json.loads(self.proc.stdout.readline())["base_url"]

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


def load(server: Server, size: int) -> None:
    rng = random.Random(23)
    with httpx.Client(base_url=server.base_url, timeout=600, headers={"X-Workspace-ID": WS}) as c:
        for start in range(0, size, 1000):
            ops = [{"op": "create", "content": memory_text(rng)} for _ in range(min(1000, size - start))]
            c.post("/v1/memories/batch", json={"operations": ops}).raise_for_status()
        wait_vectors_indexed(c, WS, max_wait_s=600)


def ranked(server: Server, queries: list[str]) -> list[list[tuple[str, float]]]:
    with httpx.Client(base_url=server.base_url, timeout=60, headers={"X-Workspace-ID": WS}) as c:
        return [
            [
                (m["content"], m["relevance_score"])
                for m in c.post("/v1/memories/recall", json={"query": q, "limit": 10}).json()["memories"]
            ]
            for q in queries
        ]


def sequential(server: Server, seed: int, n: int) -> list[float]:
    rng = random.Random(seed)
    out = []
    with httpx.Client(base_url=server.base_url, timeout=60, headers={"X-Workspace-ID": WS}) as c:
        for _ in range(n):
            q = query_text(rng)
            started = time.perf_counter()
            c.post("/v1/memories/recall", json={"query": q, "limit": 10}).raise_for_status()
            out.append((time.perf_counter() - started) * 1000)
    return out


def concurrent(server: Server, seed: int, seconds: float) -> float:
    done = [0] * CLIENTS
    stop_at = [0.0]
    barrier = threading.Barrier(
        CLIENTS + 1, action=lambda: stop_at.__setitem__(0, time.monotonic() + seconds)
    )

    def worker(k: int) -> None:
        rng = random.Random(seed * 100 + k)
        with httpx.Client(base_url=server.base_url, timeout=120, headers={"X-Workspace-ID": WS}) as c:
            c.get("/health")
            barrier.wait()
            while time.monotonic() < stop_at[0]:
                done[k] += c.post(
                    "/v1/memories/recall", json={"query": query_text(rng), "limit": 10}
                ).is_success

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(CLIENTS)]
    for th in threads:
        th.start()
    barrier.wait()
    for th in threads:
        th.join()
    return sum(done) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="a worktree of the old version")
    parser.add_argument("--new", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="uniform")
    args = parser.parse_args()
    global memory_text, query_text
    memory_text, query_text = WORKLOADS[args.workload]
    servers = [Server("old", args.base), Server("new", args.new)]
    try:
        for s in servers:
            load(s, args.size)
        checks = [query_text(random.Random(1000 + i)) for i in range(50)]
        old_ranked, new_ranked = (ranked(s, checks) for s in servers)
        same = sum(a == b for a, b in zip(old_ranked, new_ranked, strict=True))
        print(f"identical top 10 (contents and relevance scores): {same}/{len(checks)}", flush=True)
        lat: dict[str, list[float]] = {s.name: [] for s in servers}
        rps: dict[str, list[float]] = {s.name: [] for s in servers}
        for r in range(args.rounds):
            for s in servers:
                sequential(s, 7, 20)  # warm
                lat[s.name] += sequential(s, 100 + r, args.samples)
                rps[s.name].append(concurrent(s, 200 + r, args.seconds))
        out: dict[str, Any] = {}
        for name in lat:
            out[name] = {
                "sequential": summarise(lat[name]),
                "req_per_s_8_threads": round(sum(rps[name]) / len(rps[name]), 1),
            }
            print(
                f"{name}: sequential {out[name]['sequential']}; 8 threads {out[name]['req_per_s_8_threads']} req/s"
            )
        p50 = {n: out[n]["sequential"]["p50_ms"] for n in out}
        print(
            f"new/old: sequential p50 {p50['new'] / p50['old']:.2f}x, 8-thread throughput "
            f"{out['new']['req_per_s_8_threads'] / out['old']['req_per_s_8_threads']:.2f}x"
        )
    finally:
        for s in servers:
            s.stop()


if __name__ == "__main__":
    main()
