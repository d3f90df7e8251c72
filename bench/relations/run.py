"""The knowledge-work benchmark: Hit@5 and MRR@10 of recall with the relational arm on and
off, over the generated connector corpus (bench/relations/corpus.py), and recall p50 with and without the arm.

    .venv/bin/python -m bench.relations.run                      # quality, 570 records, 115 questions
    .venv/bin/python -m bench.relations.run --filler 9430        # the same at 10,000 memories, with latency

Loaded through the HTTP batch API (connector envelopes are normalised there, as on POST /v1/memories), hash
embedder, real Postgres. Latency: the same questions with ``include_relations`` true and false, interleaved,
server-side ``search_latency_ms`` and client HTTP time; ratios are within this one run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

import httpx
import psycopg

from bench.common import sentence
from bench.locomo.metrics import percentile
from bench.locomo.stack import running_stack
from bench.relations.corpus import Corpus, generate

WS = "kw_bench"


def load(client: httpx.Client, corpus: Corpus, filler: int, rng: random.Random) -> list[str]:
    """Store the records (and ``filler`` unrelated memories); returns the record memory ids in order."""
    ids: list[str] = []
    ops = [{"op": "create", "content": r.content, "metadata": r.metadata} for r in corpus.records]
    for start in range(0, len(ops), 100):
        r = client.post("/v1/memories/batch", json={"operations": ops[start : start + 100]},
                        headers={"X-Workspace-ID": WS})  # fmt: skip
        r.raise_for_status()
        assert r.json()["failed"] == 0, r.json()
        ids += [x["memory_id"] for x in r.json()["results"]]
    for start in range(0, filler, 1000):
        chunk = [{"op": "create", "content": sentence(rng)} for _ in range(min(1000, filler - start))]
        client.post(
            "/v1/memories/batch", json={"operations": chunk}, headers={"X-Workspace-ID": WS}
        ).raise_for_status()
    return ids


def evaluate(
    client: httpx.Client, corpus: Corpus, ids: list[str], arm: bool, errors: list[str] | None = None
) -> tuple[dict, list[float], list[float]]:
    """Hit@5, MRR@10 and n per question kind (and "all"), and the latencies. With ``errors`` given, a failed
    request counts as a miss and its message is collected (the reference answers some recalls with a 500)."""
    hits: dict[str, list[float]] = defaultdict(list)
    rr: dict[str, list[float]] = defaultdict(list)
    server, http = [], []
    for q in corpus.questions:
        gold = {ids[i] for i in q.gold}
        started = time.perf_counter()
        r = client.post("/v1/memories/recall", json={"query": q.query, "limit": 10, "include_relations": arm},
                        headers={"X-Workspace-ID": WS})  # fmt: skip
        http.append((time.perf_counter() - started) * 1000)
        if errors is not None and r.status_code >= 500:
            errors.append(f"{q.kind}: {r.status_code} {r.text[:200]}")
            got: list[str] = []
        else:
            r.raise_for_status()
            server.append(r.json()["search_latency_ms"])
            got = [m["id"] for m in r.json()["memories"]]
        first = next((i for i, m in enumerate(got[:10]) if m in gold), None)
        for key in (q.kind, "all"):
            hits[key].append(1.0 if first is not None and first < 5 else 0.0)
            rr[key].append(0.0 if first is None else 1.0 / (first + 1))
    table = {k: (sum(hits[k]) / len(hits[k]), sum(rr[k]) / len(rr[k]), len(hits[k])) for k in hits}
    return table, server, http


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--filler", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=1, help="latency: interleaved rounds of all questions")
    args = parser.parse_args()
    corpus = generate()
    rng = random.Random(11)
    with running_stack("hash") as stack, httpx.Client(base_url=stack.base_url, timeout=120) as client:
        started = time.perf_counter()
        ids = load(client, corpus, args.filler, rng)
        with psycopg.connect(stack.dsn, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
            n = conn.execute("SELECT count(*) FROM memories WHERE workspace_id = %s", (WS,)).fetchone()[0]
            rels = conn.execute(
                "SELECT count(*) FROM entity_relations WHERE workspace_id = %s", (WS,)
            ).fetchone()[0]
        print(f"{n} memories ({len(corpus.records)} records, {rels} relations) loaded in "
              f"{time.perf_counter() - started:.1f} s; {len(corpus.questions)} questions", flush=True)  # fmt: skip
        lat: dict[bool, tuple[list[float], list[float]]] = {True: ([], []), False: ([], [])}
        tables = {}
        for _ in range(args.rounds):
            for arm in (False, True):
                tables[arm], server, http = evaluate(client, corpus, ids, arm)
                lat[arm][0].extend(server)
                lat[arm][1].extend(http)
        for kind in tables[True]:
            off, on = tables[False][kind], tables[True][kind]
            print(f"{kind:22s} n={on[2]:3d}  Hit@5 off {off[0]:.3f} on {on[0]:.3f}   "
                  f"MRR@10 off {off[1]:.3f} on {on[1]:.3f}")  # fmt: skip
        for arm in (False, True):
            server, http = lat[arm]
            print(f"arm {'on ' if arm else 'off'}: server p50 {percentile(server, 50):.1f} ms "
                  f"p95 {percentile(server, 95):.1f} ms; HTTP p50 {percentile(http, 50):.1f} ms "
                  f"p95 {percentile(http, 95):.1f} ms")  # fmt: skip
        print(f"p50 ratio on/off: server {percentile(lat[True][0], 50) / max(percentile(lat[False][0], 50), 0.1):.2f}, "
              f"HTTP {percentile(lat[True][1], 50) / percentile(lat[False][1], 50):.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
