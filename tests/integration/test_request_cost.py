"""``make cost``'s second half, ``python -m bench.request_cost``: the memory handler measured as deployed (API keys
on, so with a cursor secret and a key per request) runs to its table."""

from __future__ import annotations

import asyncio

import pytest

from bench import request_cost
from shared.core.settings import get_settings

# What run() sets for the handler; registered here first so the test leaves the environment as it found it.
_RUN_SETS = (
    "MEMORYLAYER_DATABASE_URL",
    "MEMORYLAYER_EMBEDDING_PROVIDER",
    "MEMORYLAYER_AUTH_MODE",
    "MEMORYLAYER_CONTEXT_CURSOR_SECRET",
    "MEMORYLAYER_RATE_LIMIT_BURST",
    "POWERTOOLS_METRICS_NAMESPACE",
)


def test_the_per_request_bench_runs_to_its_table(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _RUN_SETS:
        monkeypatch.setenv(name, "MemoryLayer" if name.startswith("POWERTOOLS") else "")
    # The ONNX model's load is not what this checks; the handler, the auth and the pricing are.
    monkeypatch.setattr(request_cost, "pick_embedder", lambda: "hash")
    get_settings.cache_clear()
    # Mangum asks for the main thread's event loop, as in Lambda; an async test before this one may have left
    # none set. A fresh one stays current afterwards (closing it would leave the same gap for the next test).
    asyncio.set_event_loop(asyncio.new_event_loop())
    try:
        embedder, memory_mb, costs = request_cost.run(n=3, warmup=1)
    finally:
        get_settings.cache_clear()
    assert embedder == "hash" and memory_mb > 0
    assert [c.operation for c in costs] == ["remember", "recall"]
    # Every request was served (timed() raises on any other status) and priced above API Gateway's share.
    assert all(c.n == 3 and c.total_usd > c.api_gateway_usd for c in costs)
    assert "| remember | 3 |" in request_cost.to_markdown(embedder, memory_mb, costs)
