"""Recall latency at 10k memories (hash embedder, batch-loaded through the HTTP API), new ranking vs the old.

    .venv/bin/python -m bench.locomo.latency [--size 10000] [--samples 200]

Two corpora: ``zipf`` (chat-like turns over a 5,000-word Zipfian vocabulary, two speakers, sessions of 20
turns as ordered streams) and ``harsh`` (bench.common's 12 words out of 60: every 3-word OR query matches
about half the workspace, the full-text arm's worst case).
"""

from __future__ import annotations

import argparse
import random
import time

import httpx
import psycopg

from bench.common import sentence
from bench.locomo.metrics import percentile
from bench.locomo.stack import running_stack
from bench.locomo.variants import Variant, use_variant
from shared.domain.retrieval.recall import FusionWeights

OLD = Variant(
    fusion="rrf", text_scoring="rank_cd", reply_weight=0, lead_weight=0, speaker_boost=0, time_cue_boost=0
)
SPEAKERS = ("Jon", "Gina")


def zipf_words(rng: random.Random, vocab: list[str], weights: list[float], n: int) -> str:
    return " ".join(rng.choices(vocab, weights, k=n))


def load(
    client: httpx.Client, ws: str, size: int, kind: str, rng: random.Random
) -> tuple[list[str], list[str]]:
    vocab = [f"w{i}" for i in range(5000)]
    weights = [1 / (i + 1) for i in range(5000)]
    texts = []
    for _ in range(size):
        texts.append(zipf_words(rng, vocab, weights, rng.randint(6, 30)) if kind == "zipf" else sentence(rng))
    for start in range(0, size, 1000):
        chunk = enumerate(texts[start : start + 1000], start)
        ops = [
            {
                "op": "create",
                "content": f"{SPEAKERS[i % 2]}: {t}",
                "metadata": {"speaker": SPEAKERS[i % 2]},
                "event_time": "2023-05-08T13:56:00Z",
            }
            for i, t in chunk
        ]
        client.post(
            "/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws}
        ).raise_for_status()
    if kind == "zipf":
        queries = [
            f"When did {rng.choice(SPEAKERS)} " + zipf_words(rng, vocab, weights, 4) + "?" for _ in range(200)
        ]
    else:
        queries = [" ".join(rng.sample(texts[rng.randrange(size)].split()[:-1], 3)) for _ in range(200)]
    return texts, queries


def streams(dsn: str, ws: str) -> None:
    """Batch create has no sequence_key: group the rows into sessions of 20, as a chat client's streams."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            "WITH o AS (SELECT id, row_number() OVER (ORDER BY created_at, id) - 1 AS n FROM memories "
            "WHERE workspace_id = %s) UPDATE memories m SET sequence_key = 'session_' || (o.n / 20), "
            "sequence_index = o.n %% 20 FROM o WHERE m.id = o.id",
            (ws,),
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(7)
    with running_stack("hash") as stack, httpx.Client(base_url=stack.base_url, timeout=60) as client:
        recaller = stack.services.recaller
        new_weights = recaller.weights
        for kind in ("zipf", "harsh"):
            ws = f"latency_{kind}"
            _, queries = load(client, ws, args.size, kind, rng)
            streams(stack.dsn, ws)
            with psycopg.connect(stack.dsn, autocommit=True) as conn:
                conn.execute("VACUUM ANALYZE memories")
            recaller.forget_word_stats()  # the zipf run's statistics know nothing of the harsh words
            for name, variant, weights in (
                ("new", None, new_weights),
                ("old", OLD, FusionWeights(1.0, 1.0)),
                ("new", None, new_weights),
            ):
                use_variant(recaller, variant)
                recaller.weights = weights
                client_ms, server_ms = [], []
                for q in (queries * 2)[: args.samples]:
                    started = time.perf_counter()
                    r = client.post(
                        "/v1/memories/recall", json={"query": q, "limit": 10}, headers={"X-Workspace-ID": ws}
                    )
                    client_ms.append((time.perf_counter() - started) * 1000)
                    server_ms.append(r.json()["search_latency_ms"])
                print(
                    f"{kind:5s} {args.size} memories, {name}: HTTP p50 {percentile(client_ms, 50):.1f} ms "
                    f"p95 {percentile(client_ms, 95):.1f} ms; server p50 {percentile(server_ms, 50):.1f} ms "
                    f"p95 {percentile(server_ms, 95):.1f} ms",
                    flush=True,
                )
        use_variant(recaller, None)
        recaller.weights = new_weights


if __name__ == "__main__":
    main()
