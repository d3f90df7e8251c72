"""Load 1k and 10k memories through the HTTP API and measure remember and recall.

    python -m bench.api_load [--sizes 1000,10000] [--samples 200] [--seconds 10]

For each size: bulk-load through POST /v1/memories/batch (and report its throughput), then time sequential
single remembers and recalls (p50/p95), then recall throughput from 8 concurrent clients, then one batch of
1000 new memories at a time (5 times, each once the indexer is idle: the acknowledgement cost of a batch on
its own; the bulk-load figure includes the indexer competing for the same 2 cores). The baseline, in the
same run and over the same HTTP stack, is GET /health: the floor any request pays here. Ratios are ours/floor.
"""

from __future__ import annotations

import argparse
import random
import threading
import time

import httpx

from bench.common import local_stack, query_words, save_result, sentence, summarise, wait_vectors_indexed


def timed(fn, n: int) -> list[float]:
    out = []
    for i in range(n):
        started = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - started) * 1000)
    return out


def concurrent_throughput(base_url: str, ws: str, queries: list[str], clients: int, seconds: float) -> dict:
    done, errors = [0] * clients, [0] * clients
    stop = time.monotonic() + seconds

    def worker(k: int) -> None:
        with httpx.Client(base_url=base_url, timeout=30, headers={"X-Workspace-ID": ws}) as c:
            i = k
            while time.monotonic() < stop:
                r = c.post("/v1/memories/recall", json={"query": queries[i % len(queries)], "limit": 10})
                if r.status_code == 200:
                    done[k] += 1
                else:
                    errors[k] += 1
                i += clients

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    return {"requests_per_s": round(sum(done) / elapsed, 1), "errors": sum(errors), "clients": clients}


def run(sizes: list[int], samples: int, seconds: float) -> dict:
    rng = random.Random(7)
    results: dict = {}
    with local_stack("hash") as (base_url, _), httpx.Client(base_url=base_url, timeout=60) as http:
        floor = summarise(timed(lambda _: http.get("/health"), samples))
        results["baseline_health"] = floor
        for size in sizes:
            ws = f"bench_{size}"
            h = {"X-Workspace-ID": ws}
            bulk = size - samples
            started = time.perf_counter()
            for start in range(0, bulk, 1000):
                ops = [{"op": "create", "content": sentence(rng)} for _ in range(min(1000, bulk - start))]
                r = http.post("/v1/memories/batch", json={"operations": ops}, headers=h)
                assert r.status_code == 200 and r.json()["failed"] == 0, r.text
            bulk_rate = bulk / (time.perf_counter() - started)
            # Steady state: wait until the bulk rows have joined the HNSW graph (reported separately).
            wait_vectors_indexed(http, ws)
            indexed_rate = bulk / (time.perf_counter() - started)
            remember = summarise(
                timed(
                    lambda _, h=h: http.post("/v1/memories", json={"content": sentence(rng)}, headers=h),
                    samples,
                )
            )
            queries = [query_words(rng) for _ in range(samples)]
            recall = summarise(
                timed(
                    lambda i, h=h, queries=queries: http.post(
                        "/v1/memories/recall", json={"query": queries[i], "limit": 10}, headers=h
                    ),
                    samples,
                )
            )
            parallel = concurrent_throughput(base_url, ws, queries, 8, seconds)
            batch_ms = []
            for _ in range(5):
                wait_vectors_indexed(http, ws)
                ops = [{"op": "create", "content": sentence(rng)} for _ in range(1000)]
                began = time.perf_counter()
                r = http.post("/v1/memories/batch", json={"operations": ops}, headers=h)
                batch_ms.append((time.perf_counter() - began) * 1000)
                assert r.status_code == 200 and r.json()["successful"] == 1000, r.text[:300]
            batch = summarise(batch_ms)
            results[str(size)] = {
                "batch_1000": batch,
                "batch_1000_per_s": round(1000 / (batch["p50_ms"] / 1000)),
                "batch_insert_per_s": round(bulk_rate),
                "batch_insert_and_index_per_s": round(indexed_rate),
                "remember": remember,
                "recall": recall,
                "recall_8_clients": parallel,
                "remember_p50_vs_floor": round(remember["p50_ms"] / floor["p50_ms"], 1),
                "recall_p50_vs_floor": round(recall["p50_ms"] / floor["p50_ms"], 1),
            }
    return results


def table(results: dict) -> str:
    floor = results["baseline_health"]
    lines = [
        f"Baseline (same run): GET /health p50 {floor['p50_ms']} ms, p95 {floor['p95_ms']} ms",
        "",
        "| memories | bulk load /s (acknowledged / indexed) | one batch of 1000: p50 ms (memories/s) | "
        "remember p50 / p95 ms | recall p50 / p95 ms | recall ×floor | 8-client recall req/s |",
        "|---|---|---|---|---|---|---|",
    ]
    for size, r in results.items():
        if size == "baseline_health":
            continue
        lines.append(
            f"| {int(size):,} | {r['batch_insert_per_s']:,} / {r['batch_insert_and_index_per_s']:,} | "
            f"{r['batch_1000']['p50_ms']:.0f} ({r['batch_1000_per_s']:,}) | {r['remember']['p50_ms']} / {r['remember']['p95_ms']} | "
            f"{r['recall']['p50_ms']} / {r['recall']['p95_ms']} | {r['recall_p50_vs_floor']} | "
            f"{r['recall_8_clients']['requests_per_s']} ({r['recall_8_clients']['errors']} errors) |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    results = run([int(s) for s in args.sizes.split(",")], args.samples, args.seconds)
    save_result("api_load.json", results)
    print(table(results))


if __name__ == "__main__":
    main()
