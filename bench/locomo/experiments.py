"""Lever experiments: one stack, one ingestion, many ranking variants (bench/locomo/variants.py) compared.

    .venv/bin/python -m bench.locomo.experiments 'base={}' 'bm25={"text_scoring": "bm25"}'

Each argument is ``name=JSON`` of ``Variant`` fields (``weights`` → FusionWeights(vector, keyword)).
Prints one line per variant: Hit@5 / Recall@5 / MRR@10 on every conversation, and the recall p50.
"""

from __future__ import annotations

import json
import sys

import httpx
import psycopg

from bench.locomo import data
from bench.locomo.run import ask, evaluate, ingest
from bench.locomo.stack import running_stack
from bench.locomo.variants import Variant, use_variant
from shared.retrieval.recall import FusionWeights


def main(argv: list[str]) -> None:
    variants = [(a.split("=", 1)[0], json.loads(a.split("=", 1)[1])) for a in argv]
    conversations = data.load()
    with running_stack("local") as stack, httpx.Client(base_url=stack.base_url, timeout=60) as client:
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
        for name, changes in variants:
            weights = changes.pop("weights", None)
            recaller.weights = FusionWeights(*weights) if weights else base_weights
            use_variant(recaller, Variant(**changes))
            cells, lat = [], []
            for conv in conversations:
                run = evaluate(conv, {"ml": lambda q, ws=workspaces[conv.sample_id]: ask(client, ws, q)})[
                    "ml"
                ]
                m = run.summary()["metrics"]["overall"]
                cells.append(f"{conv.sample_id} {m['hit@5']:.3f} {m['recall@5']:.3f} {m['mrr@10']:.3f}")
                lat.append(run.summary()["latency_ms"]["p50"])
            print(f"{name:28s} | " + " | ".join(cells) + f" | p50 {max(lat):.1f} ms", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
