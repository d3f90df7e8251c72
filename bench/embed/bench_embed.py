"""Embedding throughput and latency: the container over HTTP vs the in-process ``local`` provider, on CPU.

    $ .venv/bin/python bench/embed/bench_embed.py               # ~30 s, prints a markdown table
    $ .venv/bin/python bench/embed/bench_embed.py --seconds 1   # quicker, noisier

Both run int8 ONNX all-MiniLM-L6-v2 with 2 intra-op threads. The container is started as a subprocess
(``python -m functions.embed.server``) and called on ``POST /invocations`` by one client, one request at a
time, so those rows compare per-call cost. The ``clients`` rows have 16 threads each sending one sentence per
request, which is where dynamic batching pays: with the default 5 ms window and with none. The client shares
the machine's cores with the server. Sentences are synthetic, 8-12 words, like typical memories.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from shared.providers.embeddings.local import LocalOnnxEmbedder  # noqa: E402

_VOCABULARY = (
    "the user asked about redis timeout login deploy failed database memory cache latency service agent "
    "prefers dark mode meeting tomorrow invoice payment retry queue worker python lambda cluster region "
    "customer support ticket escalated yesterday weekly report metrics dashboard alert threshold"
)
WORDS = _VOCABULARY.split()


def sentences(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choices(WORDS, k=rng.randint(8, 12))).capitalize() + "." for _ in range(count)]


@dataclass
class Row:
    path: str
    batch: int
    requests: int
    sentences_per_s: float
    p50_ms: float
    p95_ms: float
    note: str = ""


def measure(path: str, batch: int, call: Callable[[list[str]], object], seconds: float) -> Row:
    """Call ``call`` with ``batch`` sentences back to back for ``seconds`` (after a warm-up)."""
    pool = sentences(max(256, batch * 8))
    for i in range(3):
        call(pool[i * batch % len(pool) :][:batch] or pool[:batch])
    latencies: list[float] = []
    started = time.perf_counter()
    i = 0
    while time.perf_counter() - started < seconds or len(latencies) < 5:
        start = (i * batch) % (len(pool) - batch + 1)
        t0 = time.perf_counter()
        call(pool[start : start + batch])
        latencies.append(time.perf_counter() - t0)
        i += 1
    elapsed = time.perf_counter() - started
    return Row(path, batch, len(latencies), len(latencies) * batch / elapsed, *percentiles(latencies))


def percentiles(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered) * 1000, p95 * 1000


def concurrent(url: str, clients: int, seconds: float, label: str) -> Row:
    """``clients`` threads each sending one sentence per request; reports the batches the server formed."""
    pool = sentences(512)
    stats_before = httpx.get(f"{url}/stats").json()
    latencies: list[float] = []
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def client(index: int) -> None:
        with httpx.Client(base_url=url, timeout=30) as http:
            n = index
            while time.perf_counter() < deadline:
                t0 = time.perf_counter()
                http.post("/invocations", json={"inputs": [pool[n % len(pool)]]}).raise_for_status()
                with lock:
                    latencies.append(time.perf_counter() - t0)
                n += clients

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as executor:
        list(executor.map(client, range(clients)))
    elapsed = time.perf_counter() - started
    stats = httpx.get(f"{url}/stats").json()
    batches = stats["batches"] - stats_before["batches"]
    texts = stats["texts"] - stats_before["texts"]
    note = f"{batches} model calls, mean batch {texts / max(batches, 1):.1f}"
    return Row(label, 1, len(latencies), len(latencies) / elapsed, *percentiles(latencies), note)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_container(max_wait_ms: float) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "MEMORYLAYER_EMBED_PORT": str(port), "EMBED_MAX_WAIT_MS": str(max_wait_ms)}
    process = subprocess.Popen(
        [sys.executable, "-m", "functions.embed.server"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/ping", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("container did not start")


def table(rows: list[Row]) -> str:
    lines = [
        "| path | batch | requests | sentences/s | p50 ms | p95 ms | note |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.path} | {r.batch} | {r.requests} | {r.sentences_per_s:.0f} | {r.p50_ms:.1f} | "
            f"{r.p95_ms:.1f} | {r.note} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.5, help="measuring time per row")
    parser.add_argument("--batches", default="1,8,64")
    parser.add_argument("--clients", type=int, default=16, help="clients in the concurrent rows")
    args = parser.parse_args()
    sizes = [int(b) for b in args.batches.split(",")]
    rows: list[Row] = []

    local = LocalOnnxEmbedder(batch_size=64, intra_op_threads=2)
    local.warm_up()
    rows += [measure("local (in-process)", b, local.embed, args.seconds) for b in sizes]
    del local  # free its threads before the server competes for the 2 cores

    for wait_ms in (5.0, 0.0):
        process, url = start_container(wait_ms)
        try:
            with httpx.Client(base_url=url, timeout=30) as http:

                def call(texts: list[str], http: httpx.Client = http) -> object:
                    reply = http.post("/invocations", json={"inputs": texts})
                    reply.raise_for_status()
                    return reply.json()

                label = f"container HTTP, wait {wait_ms:g} ms"
                if wait_ms:  # sequential rows once: a lone caller never waits (see batcher.py)
                    rows += [measure(label, b, call, args.seconds) for b in sizes]
            rows.append(concurrent(url, args.clients, args.seconds, f"{label}, {args.clients} clients"))
        finally:
            process.terminate()
            process.wait(timeout=10)

    print(f"\nCPU: {os.cpu_count()} cores; int8 ONNX all-MiniLM-L6-v2, 2 intra-op threads\n")
    print(table(rows))


if __name__ == "__main__":
    main()
