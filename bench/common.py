"""Shared pieces of the benchmarks: a throwaway stack over real HTTP, synthetic text, latency statistics.

>>> summarise([1.0, 2.0, 3.0, 4.0])["p50_ms"]
2.5
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from shared.core.settings import Settings

WORDS = ["redis", "login", "timeout", "pool", "deploy", "friday", "report", "quarterly", "alice", "bob", "coffee", "editor", "dark", "mode", "pasta", "trip", "lisbon", "porto", "budget", "invoice", "meeting", "monday", "design", "review", "database", "index", "vector", "search", "memory", "agent", "python", "lambda", "queue", "worker", "retry", "cache", "latency", "error", "fix", "release", "branch", "merge", "ticket", "customer", "email", "calendar", "birthday", "sister", "painting", "guitar", "camping", "hiking", "museum", "concert", "recipe", "garden", "dog", "cat", "school"]  # fmt: skip

# Natural text is Zipfian: a few words are everywhere, most are rare. The vocabulary is the words above (the
# most frequent) followed by 4,000 pronounceable pseudo-words, drawn with weight 1/rank^1.07.
_SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "po", "da", "fi", "gu", "he", "ja", "bo"]
VOCABULARY = WORDS + [
    _SYLLABLES[i % 16] + _SYLLABLES[(i // 16) % 16] + _SYLLABLES[(i // 256) % 16] + ("n" if i % 3 else "r")
    for i in range(4000)
]
_WEIGHTS = [1 / (rank + 1) ** 1.07 for rank in range(len(VOCABULARY))]


def sentence(rng: random.Random, n: int = 12) -> str:
    """A synthetic memory: ``n`` Zipf-distributed words and a unique tag (so no two are duplicates)."""
    return " ".join(rng.choices(VOCABULARY, weights=_WEIGHTS, k=n)) + f" #{rng.randrange(10**9)}"


def query_words(rng: random.Random, n: int = 3) -> str:
    """A query drawn from the same distribution as the text."""
    return " ".join(rng.choices(VOCABULARY, weights=_WEIGHTS, k=n))


# The rare-word workload: memories and 3-word queries drawn uniformly from 6,000 pseudo-words, so no
# query word is common and the full-text arm cannot lean on one (the Zipf workload above flatters a ranker that
# slows on common words).
UNIFORM_VOCABULARY = [
    f"{a}{b}{c}{d}" for a in "bdfgklmnprstvz" for b in "aeiou" for c in "bdfgklmnprstvz" for d in ("an", "ek", "ot", "ur", "ix", "ol", "im")
][:6000]  # fmt: skip


def uniform_sentence(rng: random.Random, n: int = 12) -> str:
    """A memory of ``n`` uniformly drawn rare words and a unique tag."""
    return " ".join(rng.choices(UNIFORM_VOCABULARY, k=n)) + f" #{rng.randrange(10**9)}"


def uniform_query(rng: random.Random, n: int = 3) -> str:
    return " ".join(rng.choices(UNIFORM_VOCABULARY, k=n))


# The two workloads bench.compare and bench.recall_versions run, as (memory text, query) generators: ``zipf``
# (natural-text-like, a few words are everywhere) and ``uniform`` (rare words, no common ones).
WORKLOADS: dict[str, tuple[Callable[[random.Random], str], Callable[[random.Random], str]]] = {
    "zipf": (sentence, query_words),
    "uniform": (uniform_sentence, uniform_query),
}


def wait_vectors_indexed(http, ws: str, *, max_wait_s: float | None = None) -> float:
    """Wait until workspace ``ws`` has no bulk-written rows waiting for the HNSW graph (polling its stats over
    ``http``, an ``httpx.Client`` on the stack); returns the seconds waited. ``None``: no time limit."""
    started = time.monotonic()
    while max_wait_s is None or time.monotonic() - started < max_wait_s:
        if not http.get(f"/v1/workspaces/{ws}").json()["stats"]["vectors_pending"]:
            break
        time.sleep(0.1)
    return round(time.monotonic() - started, 1)


RESULTS = Path("bench/results")


def save_result(name: str, data: object) -> Path:
    """Write a run's figures to ``bench/results/<name>``: JSON for data, the text itself for a ``str``.

    >>> save_result("example.json", {"p50_ms": 2.5})        # doctest: +SKIP
    PosixPath('bench/results/example.json')
    """
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return path


def summarise(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(statistics.median(ordered), 3), "p95_ms": round(p95, 3), "n": len(ordered)}


@contextmanager
def local_stack(
    embedding_provider: str = "hash", *, extra_env: bool = False, **overrides: object
) -> Iterator[tuple[str, Settings]]:
    """A fresh embedded Postgres, migrations, and the real app under uvicorn; yields (base_url, settings).

    With ``extra_env`` the settings also come from MEMORYLAYER_* variables (a queue URL, say), and the database
    URL is published there too, so Lambda handlers run in-process find the same database.
    """
    from shared.api.app import create_app
    from shared.app.services import Services
    from shared.db.migrate import apply_migrations
    from shared.local.postgres import EmbeddedPostgres
    from shared.local.server import serve_in_thread

    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-bench-")) / "pg", ephemeral=True)
    try:
        if extra_env:
            os.environ.update(
                MEMORYLAYER_DATABASE_URL=pg.dsn, MEMORYLAYER_EMBEDDING_PROVIDER=embedding_provider
            )
            settings = Settings(db_pool_max=16, auth_mode="none")
        else:
            settings = Settings(
                database_url=pg.dsn,
                embedding_provider=embedding_provider,
                db_pool_max=16,
                **{"auth_mode": "none", **overrides},  # type: ignore[arg-type]
            )
        apply_migrations(pg.dsn, embedding_dimensions=settings.embedding_dimensions or 384)
        services = Services.build(settings)
        try:
            with serve_in_thread(create_app(settings, services=services)) as base_url:
                yield base_url, settings
        finally:
            services.close()
    finally:
        pg.stop()


def wait_healthy(
    base_url: str, process: subprocess.Popen[bytes], timeout_s: float, log_path: Path | None = None
) -> None:
    """Return once ``base_url``/health answers 200; raise if ``process`` exits first or ``timeout_s`` passes
    (naming ``log_path``, where the server writes, when there is one)."""
    see = f"; see {log_path}" if log_path else ""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}{see}")
        try:
            if httpx.get(f"{base_url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{base_url} not healthy after {timeout_s:.0f} s{see}")
