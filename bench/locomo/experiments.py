"""Lever experiments: one stack per embedder, one ingestion, many ranking variants (bench/locomo/variants.py)
compared under the two-way protocol (bench/locomo/protocol.py).

    .venv/bin/python -m bench.locomo.experiments 'base={}' 'b=0.3={"bm25_b": 0.3}' 'b=0.75={"bm25_b": 0.75}'
    .venv/bin/python -m bench.locomo.experiments --embedding local,e5 'base={}' 'w1={"weights": [1.0, 1.0]}'

Each argument is ``name=JSON`` of ``Variant`` fields (``weights`` → FusionWeights(vector, keyword)); the first
one is the baseline. With several embedders every variant runs on each (``e5/base`` …). Prints one line per
setting as it is measured, then the report: every setting per conversation with the macro average and
whether it beats the baseline on both conversations, and the two directions (the setting best on one
conversation, scored on the other) with their macro average — the held-out estimate of the knob.
"""

from __future__ import annotations

import argparse
import json
from functools import partial

import httpx
import psycopg

from bench.locomo import data
from bench.locomo.protocol import Figures, fmt, report
from bench.locomo.run import ask, evaluate, ingest, write_results
from bench.locomo.stack import EMBEDDINGS, running_stack
from bench.locomo.variants import Variant, use_variant
from shared.domain.retrieval.recall import FusionWeights


def measure(
    embedding: str, variants: list[tuple[str, dict]], only: list[str] | None
) -> dict[str, dict[str, Figures]]:
    """{variant: {conversation: overall figures}} with ``embedding``, every variant over one ingestion."""
    conversations = data.load(only=only)
    out: dict[str, dict[str, Figures]] = {}
    with running_stack(embedding) as stack, httpx.Client(base_url=stack.base_url, timeout=60) as client:
        recaller = stack.services.recaller
        base_weights = recaller.weights
        if any(v.get("text_column", "tsv") == "tsv_simple" for _, v in variants):
            # Experiment only: a `simple`-configuration copy of the text column (no stemming, no stop words).
            with psycopg.connect(stack.dsn, autocommit=True) as conn:
                conn.execute(
                    "ALTER TABLE memories ADD COLUMN tsv_simple tsvector "
                    "GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED"
                )
                conn.execute("CREATE INDEX ON memories USING gin (tsv_simple) WHERE deleted_at IS NULL")
        workspaces = {c.sample_id: ingest(client, c) for c in conversations}
        for name, raw in variants:
            changes = dict(raw)
            weights = changes.pop("weights", None)
            recaller.weights = FusionWeights(*weights) if weights else base_weights
            use_variant(recaller, Variant(**changes))
            per_conv, lat = {}, []
            for conv in conversations:
                ws = workspaces[conv.sample_id]
                run = evaluate(conv, {"ml": partial(ask, client, ws)})["ml"]
                per_conv[conv.sample_id] = {
                    k: v for k, v in run.summary()["metrics"]["overall"].items() if k != "n"
                }
                lat.append(run.summary()["latency_ms"]["p50"])
            out[name] = per_conv
            cells = " | ".join(f"{c} {fmt(m)}" for c, m in per_conv.items())
            print(f"{embedding}/{name:24s} | {cells} | p50 {max(lat):.1f} ms", flush=True)
        use_variant(recaller, None)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.locomo.experiments", description=__doc__)
    parser.add_argument("variants", nargs="+", help="name=JSON of Variant fields; the first is the baseline")
    parser.add_argument("--embedding", default="local", help=f"comma-separated, of {', '.join(EMBEDDINGS)}")
    parser.add_argument("--conversations", default="", help="comma-separated sample ids (default: all)")
    args = parser.parse_args(argv)
    variants = [(a.split("=", 1)[0], json.loads(a.split("=", 1)[1])) for a in args.variants]
    embeddings = [e.strip() for e in args.embedding.split(",") if e.strip()]
    only = [c.strip() for c in args.conversations.split(",") if c.strip()] or None
    scores: dict[str, dict[str, Figures]] = {}
    for embedding in embeddings:
        for name, per_conv in measure(embedding, variants, only).items():
            scores[f"{embedding}/{name}" if len(embeddings) > 1 else name] = per_conv
    print()
    print(report(scores))
    print(
        f"results: {write_results({'experiment': args.variants, 'embedding': embeddings, 'scores': scores})}"
    )


if __name__ == "__main__":
    main()
