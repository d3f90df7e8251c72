"""Dense association graphs (a security audit's worst case): traverse and recall expansion latency and response size.

    python -m bench.graph_bounds            # the audit's 4×10 traverse and 6×10 recall at depth 3, then 20×20 at 5
                                            # (and /v1/graph/analyze over the 20×20 graph)
    python -m bench.graph_bounds --json

n memories, every ordered pair linked once per relationship type (10 types): n·(n-1)·10 edges. Before the
bounded walk the traverse returned 50,460 paths (41 MB) and the recall expansion walked millions of rows.
Runs against a throwaway embedded Postgres and the real app under uvicorn; numbers are this machine's.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import httpx

from bench.common import local_stack, summarise
from shared.core import ontology

TYPES = list(ontology.RELATIONSHIPS)[:10]


def dense_graph(http: httpx.Client, ws: str, n: int) -> list[str]:
    h = {"X-Workspace-ID": ws}
    ids = []
    for i in range(n):
        r = http.post("/v1/memories", json={"content": f"dense graph node {i} about lighthouses"}, headers=h)
        ids.append(r.json()["memory"]["id"])
    for source in ids:
        for target in ids:
            for relationship in TYPES if source != target else []:
                http.post(
                    f"/v1/memories/{source}/associate",
                    json={"target_id": target, "relationship": relationship},
                    headers=h,
                ).raise_for_status()
    return ids


def imported_graph(http: httpx.Client, ws: str, n: int, types: int) -> list[str]:
    """A denser graph in one import request: n memories, every ordered pair × ``types`` relationships."""
    names = list(ontology.RELATIONSHIPS)[:types]
    memories = [{"id": f"n{i}", "content": f"wide graph node {i} about lighthouses"} for i in range(n)]
    edges = [
        {"source_id": f"n{i}", "target_id": f"n{j}", "relationship": rel, "strength": 0.5}
        for i in range(n)
        for j in range(n)
        if i != j
        for rel in names
    ]
    r = http.post(f"/v1/workspaces/{ws}/import", json={"data": {"memories": memories, "associations": edges}})
    r.raise_for_status()
    got = http.post("/v1/memories/recall", json={"query": "*", "limit": n}, headers={"X-Workspace-ID": ws})
    return [m["id"] for m in got.json()["memories"]]


def timed(http: httpx.Client, path: str, body: dict, ws: str, runs: int) -> dict[str, Any]:
    samples, size, status = [], 0, 0
    for _ in range(runs):
        started = time.perf_counter()
        r = http.post(path, json=body, headers={"X-Workspace-ID": ws})
        samples.append((time.perf_counter() - started) * 1000)
        size, status = len(r.content), r.status_code
    extra = r.json() if status == 200 else {}
    return {
        **summarise(samples),
        "status": status,
        "bytes": size,
        "total_paths": extra.get("total_paths"),
        "memories": len(extra.get("memories", [])) if "memories" in extra else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    with local_stack("hash") as (base_url, _settings), httpx.Client(base_url=base_url, timeout=300) as http:
        ids = dense_graph(http, "bench_traverse", 4)
        results["traverse_4x10_depth3"] = timed(
            http,
            f"/v1/memories/{ids[0]}/traverse",
            {"max_depth": 3, "direction": "both"},
            "bench_traverse",
            args.runs,
        )
        dense_graph(http, "bench_recall", 6)
        results["recall_6x10_depth3"] = timed(
            http,
            "/v1/memories/recall",
            {"query": "lighthouses", "traverse_depth": 3, "limit": 3, "include_associations": True},
            "bench_recall",
            args.runs,
        )
        ids = imported_graph(http, "bench_wide", 20, 20)
        results["traverse_20x20_depth5"] = timed(
            http, f"/v1/memories/{ids[0]}/traverse", {"max_depth": 5}, "bench_wide", args.runs
        )
        results["recall_20x20_depth5"] = timed(
            http,
            "/v1/memories/recall",
            {"query": "lighthouses", "traverse_depth": 5, "limit": 5, "max_expansion": 500},
            "bench_wide",
            args.runs,
        )
        # Graph analysis reads the whole (capped) association graph: 20 nodes, 380 pairs × 20 relationships
        results["graph_analyze_20x20"] = timed(http, "/v1/graph/analyze", {}, "bench_wide", args.runs)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for name, row in results.items():
            print(f"{name:24} " + " ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
