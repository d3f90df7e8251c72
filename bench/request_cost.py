"""What one million remembers and one million recalls cost, from handler durations measured here.

    python -m bench.request_cost                 # 200 of each after 20 warm-ups, local ONNX embedder
    python -m bench.request_cost -n 500 --json

Drives the real memory Lambda handler in-process with real API Gateway v2 events against a throwaway embedded
Postgres (migrations applied), then prices the mean handler duration with infra/cost.py's PRICES: Lambda
(arm64 GB-seconds at the function's configured memory, per request), API Gateway HTTP API, and Aurora.

Durations are this machine's (x86_64, shared cores), not a Graviton Lambda's: read the figures as an order of
magnitude and as ratios between operations, never as a promise.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import platform
import random
import secrets
import statistics
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

from bench.common import query_words, sentence
from infra.cost import PRICES, PRICES_AS_OF

# Aurora is billed per ACU-second of capacity, not per query. Upper bound: the request holds this much
# capacity for its whole handler duration, one request at a time (concurrent requests share it).
AURORA_ACU_PER_REQUEST = 0.5
DEFAULT_MEMORY_MB = 1024  # infra SPECS["memory"].memory_mb when infra cannot be imported


@dataclass(frozen=True)
class OperationCost:
    """Measured durations of one operation and what a million of them cost (USD)."""

    operation: str
    n: int
    p50_ms: float
    mean_ms: float
    lambda_usd: float
    api_gateway_usd: float
    aurora_usd: float

    @property
    def total_usd(self) -> float:
        return round(self.lambda_usd + self.api_gateway_usd + self.aurora_usd, 2)


def function_memory_mb() -> int:
    """The memory function's configured size, from infra's function specs."""
    # jsii (imported by infra) prints a large end-of-life banner for node 20 unless told not to.
    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    try:
        from infra.functions import SPECS

        return int(SPECS["memory"].memory_mb)
    except Exception:  # the CDK app is being rewritten on another branch; its shape may change
        return DEFAULT_MEMORY_MB


def price_per_million(operation: str, samples_ms: list[float], memory_mb: int) -> OperationCost:
    """Price a million requests at the measured mean; Lambda bills each request's duration rounded up to 1 ms."""
    billed_s = statistics.fmean(math.ceil(ms) for ms in samples_ms) / 1000
    lambda_usd = 1e6 * (
        PRICES["lambda_request"] + billed_s * memory_mb / 1024 * PRICES["lambda_gb_second:arm64"]
    )
    aurora_usd = 1e6 * billed_s * AURORA_ACU_PER_REQUEST * PRICES["aurora_acu_hour"] / 3600
    return OperationCost(
        operation=operation,
        n=len(samples_ms),
        p50_ms=round(statistics.median(samples_ms), 2),
        mean_ms=round(statistics.fmean(samples_ms), 2),
        lambda_usd=round(lambda_usd, 2),
        api_gateway_usd=round(1e6 * PRICES["http_api_request"], 2),
        aurora_usd=round(aurora_usd, 2),
    )


def pick_embedder() -> str:
    """``local`` (the int8 MiniLM ONNX model the Lambda ships) if it loads here, else ``hash``."""
    from shared.core.settings import Settings
    from shared.providers.embeddings import create_embedder

    try:
        create_embedder(Settings(embedding_provider="local")).embed(["warm up"])
        return "local"
    except Exception as exc:  # onnxruntime or the model package missing on this machine
        print(f"local embedder unavailable ({exc!r}); using hash")
        return "hash"


@contextlib.contextmanager
def database() -> Iterator[str]:
    """A throwaway embedded Postgres with migrations applied; yields its DSN."""
    from shared.db.migrate import apply_migrations
    from shared.local.postgres import EmbeddedPostgres

    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-cost-")) / "pg", ephemeral=True)
    try:
        apply_migrations(pg.dsn)
        yield pg.dsn
    finally:
        pg.stop()


def timed(call: Callable[[], dict[str, Any]], expect: int) -> float:
    """Milliseconds one handler invocation takes; its EMF metrics output is discarded."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        # The memory handler publishes no application metrics on these routes; Powertools warns on each call.
        warnings.filterwarnings("ignore", "No application metrics to publish")
        started = time.perf_counter()
        out = call()
        elapsed = (time.perf_counter() - started) * 1000
    if out["statusCode"] != expect:
        raise RuntimeError(f"expected {expect}, got {out['statusCode']}: {out.get('body')}")
    return elapsed


def api_key(workspace: str) -> str:
    """A read-write key for ``workspace``: the requests authenticate (and are counted) as in AWS."""
    from shared.core.settings import get_settings
    from shared.db.pool import Database
    from shared.domain.auth import ApiKeys

    db = Database.from_settings(get_settings(), purpose="cli")
    try:
        return ApiKeys(db).create([workspace])[1]
    finally:
        db.close()


def measure(n: int, warmup: int, seed: int = 7) -> dict[str, list[float]]:
    """Handler durations (ms) of ``n`` remembers then ``n`` recalls in one workspace, after warm-ups."""
    from functions.memory.handler import handler
    from shared.local.api_gateway import http_v2
    from shared.local.lambda_context import LambdaContext

    rng = random.Random(seed)
    workspace = f"ws_cost_{uuid.uuid4().hex[:8]}"
    headers = {"X-Workspace-ID": workspace, "Authorization": f"Bearer {api_key(workspace)}"}
    context = LambdaContext.for_function("memorylayer-memory")

    def remember() -> dict[str, Any]:
        return handler(
            http_v2("POST", "/v1/memories", body={"content": sentence(rng)}, headers=headers), context
        )

    def recall() -> dict[str, Any]:
        body = {"query": query_words(rng)}
        return handler(http_v2("POST", "/v1/memories/recall", body=body, headers=headers), context)

    for _ in range(warmup):
        timed(remember, 201)
        timed(recall, 200)
    return {
        "remember": [timed(remember, 201) for _ in range(n)],
        "recall": [timed(recall, 200) for _ in range(n)],
    }


def run(n: int, warmup: int) -> tuple[str, int, list[OperationCost]]:
    embedder = pick_embedder()
    memory_mb = function_memory_mb()
    with database() as dsn:
        os.environ["MEMORYLAYER_DATABASE_URL"] = dsn
        os.environ["MEMORYLAYER_EMBEDDING_PROVIDER"] = embedder
        # As deployed: API keys on, so a cursor secret (in AWS a Secrets Manager ARN; the app refuses to start
        # without one). The burst is lifted: the bench prices requests, the limit would answer 429s; each
        # request still counts itself in Postgres.
        os.environ["MEMORYLAYER_AUTH_MODE"] = "api_key"
        os.environ["MEMORYLAYER_CONTEXT_CURSOR_SECRET"] = secrets.token_urlsafe(32)
        os.environ["MEMORYLAYER_RATE_LIMIT_BURST"] = str(10 * (n + warmup))
        os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "MemoryLayer")
        from shared.core.settings import get_settings

        get_settings.cache_clear()
        samples = measure(n, warmup)
        from functions.memory.handler import app

        app.state.services.close()
    return embedder, memory_mb, [price_per_million(op, ms, memory_mb) for op, ms in samples.items()]


def to_markdown(embedder: str, memory_mb: int, costs: list[OperationCost]) -> str:
    rows = [
        f"| {c.operation} | {c.n} | {c.p50_ms:.1f} | {c.mean_ms:.1f} | {c.lambda_usd:.2f} | "
        f"{c.api_gateway_usd:.2f} | {c.aurora_usd:.2f} | **{c.total_usd:.2f}** |"
        for c in costs
    ]
    return "\n".join(
        [
            f"Per million requests, USD (us-east-1 list prices of {PRICES_AS_OF}); embedder `{embedder}`, "
            f"memory function {memory_mb} MB arm64; Aurora = handler duration × {AURORA_ACU_PER_REQUEST} ACU "
            "(upper bound, one request at a time).",
            "",
            "| operation | n | p50 ms | mean ms | Lambda | API Gateway | Aurora ACU | total |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
            *rows,
        ]
    )


def doc_block(embedder: str, costs: list[OperationCost]) -> str:
    """The ``bench:request-cost`` block of infra/README.md: the machine, the run and its table."""
    rows = [
        f"| {c.operation} | {c.p50_ms:.1f} | {c.mean_ms:.1f} | {c.lambda_usd:.2f} | {c.api_gateway_usd:.2f} | "
        f"{c.aurora_usd:.2f} | **{c.total_usd:.2f}** |"
        for c in costs
    ]
    n = " and ".join(f"{c.n} {c.operation}s" for c in costs)
    return "\n".join(
        [
            f"Measured on {date.today().isoformat()} on this machine ({platform.machine()}, {os.cpu_count()} "
            f"cores; a Graviton Lambda will differ: read the ratios, not the milliseconds), {n}, embedder "
            f"`{embedder}`:",
            "",
            "| operation | p50 ms | mean ms | Lambda | API Gateway | Aurora ACU (upper bound) | USD per million |",
            "|---|---:|---:|---:|---:|---:|---:|",
            *rows,
        ]
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.request_cost", description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=200, help="measured requests of each kind")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="rewrite the measured table in infra/README.md")
    args = parser.parse_args(argv)
    embedder, memory_mb, costs = run(args.n, args.warmup)
    if args.write:
        from infra.doc_blocks import write_blocks

        write_blocks({"bench:request-cost": doc_block(embedder, costs)}, family="bench")
    if args.json:
        out = {"embedder": embedder, "memory_mb": memory_mb, "prices_as_of": PRICES_AS_OF}
        print(
            json.dumps(
                {**out, "operations": [asdict(c) | {"total_usd": c.total_usd} for c in costs]}, indent=2
            )
        )
    else:
        print(to_markdown(embedder, memory_mb, costs))


if __name__ == "__main__":
    main()
