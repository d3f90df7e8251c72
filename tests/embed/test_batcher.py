"""DynamicBatcher on its own, with a counting fake model (no HTTP, no ONNX)."""

from __future__ import annotations

import asyncio
import threading

import numpy as np
import pytest

from functions.embed.batcher import DynamicBatcher
from shared.providers.embeddings.local import Encoded


class FakeModel:
    """Vector i is [len(text), 0, ...]; records every call's size."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[int] = []
        self.fail = fail
        self.threads: set[str] = set()

    def encode(self, texts: list[str]) -> Encoded:
        self.threads.add(threading.current_thread().name)
        self.calls.append(len(texts))
        if self.fail:
            raise RuntimeError("model exploded")
        vectors = np.zeros((len(texts), 4), dtype=np.float32)
        vectors[:, 0] = [len(t) for t in texts]
        return Encoded(vectors, [len(t) for t in texts])


async def run(model: FakeModel, jobs: list[list[str]], **options: float) -> list[Encoded]:
    batcher = DynamicBatcher(model.encode, **options)  # type: ignore[arg-type]
    await batcher.start()
    try:
        return await asyncio.gather(*(batcher.submit(texts) for texts in jobs))
    finally:
        await batcher.stop()


async def test_concurrent_requests_become_one_call_and_results_split_back() -> None:
    model = FakeModel()
    jobs = [["x" * (i + 1)] * (i % 3 + 1) for i in range(32)]
    results = await run(model, jobs, max_batch=256, max_wait_ms=50)
    assert model.calls == [sum(len(j) for j in jobs)]
    for texts, result in zip(jobs, results, strict=True):
        assert result.vectors[:, 0].tolist() == [len(t) for t in texts]
        assert result.token_counts == [len(t) for t in texts]
    assert model.threads == {"embed-model_0"}  # off the event loop


async def test_batches_respect_max_batch() -> None:
    model = FakeModel()
    await run(model, [["a"] * 3 for _ in range(10)], max_batch=8, max_wait_ms=50)
    assert all(size <= 8 for size in model.calls)
    assert sum(model.calls) == 30 and len(model.calls) == 5  # 2 jobs of 3 per call


async def test_an_oversized_request_runs_alone() -> None:
    model = FakeModel()
    results = await run(model, [["a"] * 20, ["b"]], max_batch=8, max_wait_ms=5)
    assert model.calls == [20, 1] and len(results[0].vectors) == 20


async def test_waits_for_company_only_after_concurrent_traffic() -> None:
    model = FakeModel()
    batcher = DynamicBatcher(model.encode, max_batch=64, max_wait_ms=300)
    await batcher.start()
    loop = asyncio.get_running_loop()
    try:
        started = loop.time()
        for _ in range(3):  # a lone sequential caller never pays the wait
            await batcher.submit(["solo"])
        assert loop.time() - started < 0.25
        await asyncio.gather(*(batcher.submit(["burst"]) for _ in range(4)))  # a shared batch...
        started = loop.time()
        await batcher.submit(["after the burst"])  # ...so the next one waits for company, once
        assert 0.25 <= loop.time() - started < 2.0
        started = loop.time()
        await batcher.submit(["quiet again"])
        assert loop.time() - started < 0.25
        assert model.calls == [1, 1, 1, 4, 1, 1]
    finally:
        await batcher.stop()


async def test_model_failure_reaches_every_waiter_and_batcher_survives() -> None:
    model = FakeModel(fail=True)
    batcher = DynamicBatcher(model.encode, max_batch=64, max_wait_ms=20)
    await batcher.start()
    try:
        outcomes = await asyncio.gather(*(batcher.submit(["t"]) for _ in range(4)), return_exceptions=True)
        assert all(isinstance(o, RuntimeError) for o in outcomes)
        model.fail = False
        assert (await batcher.submit(["ok"])).vectors.shape == (1, 4)
        assert batcher.stats.failures == 1 and batcher.stats.batches == 1
    finally:
        await batcher.stop()


async def test_submit_before_start_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="not started"):
        await DynamicBatcher(FakeModel().encode).submit(["x"])
