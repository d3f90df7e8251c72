"""Dynamic batching: concurrent requests share one model call.

    batcher = DynamicBatcher(backend.encode, max_batch=64, max_wait_ms=5)
    await batcher.start()                                   # inside the server's event loop
    results = await asyncio.gather(*(batcher.submit([t]) for t in texts))
    batcher.stats.batches                                   # 32 one-text requests -> 1 model call

The first queued request opens a batch; more join until ``max_batch`` texts or ``max_wait_ms`` pass. Requests
that queue while the model is busy join the next batch at once, so under load, batches fill without a wait.
The wait is spent only when the previous batch held several requests: a lone sequential caller would gain
nothing from it and pay it on every call. One worker thread runs the model (its own threads do the parallel
work), keeping the event loop free for I/O.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass

from shared.providers.embeddings.local import Encoded


@dataclass
class BatchStats:
    requests: int = 0
    texts: int = 0
    batches: int = 0
    largest_batch: int = 0
    model_seconds: float = 0.0
    failures: int = 0

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass
class _Job:
    texts: list[str]
    future: asyncio.Future[Encoded]


class DynamicBatcher:
    def __init__(
        self, encode: Callable[[list[str]], Encoded], *, max_batch: int = 64, max_wait_ms: float = 5.0
    ):
        self._encode = encode
        self.max_batch = max(1, max_batch)
        self.max_wait_s = max(0.0, max_wait_ms / 1000)
        self.stats = BatchStats()
        self._queue: asyncio.Queue[_Job] | None = None
        self._task: asyncio.Task[None] | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed-model")
        self._last_batch_requests = 0

    async def start(self) -> None:
        """Start the collector on the running loop (the queue belongs to it)."""
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._run(), name="embed-batcher")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._executor.shutdown(wait=False, cancel_futures=True)

    @property
    def queued(self) -> int:
        return self._queue.qsize() if self._queue else 0

    async def submit(self, texts: list[str]) -> Encoded:
        """Embed ``texts`` as part of whatever batch forms; raises what the model raised."""
        if self._queue is None:
            raise RuntimeError("batcher not started")
        if not texts:
            return self._encode([])
        job = _Job(texts, asyncio.get_running_loop().create_future())
        await self._queue.put(job)
        return await job.future

    async def _collect(self, first: _Job) -> tuple[list[_Job], _Job | None]:
        """Jobs for one model call, and a job that did not fit (it opens the next batch)."""
        assert self._queue is not None
        jobs, size = [first], len(first.texts)
        # Concurrent traffic (the last batch was shared) is worth waiting for; a lone caller is not.
        wait = self.max_wait_s if self._last_batch_requests > 1 else 0.0
        deadline = asyncio.get_running_loop().time() + wait
        while size < self.max_batch:
            try:
                job = self._queue.get_nowait()
            except asyncio.QueueEmpty:
                remaining = deadline - asyncio.get_running_loop().time()
                if remaining <= 0:
                    break
                try:
                    job = await asyncio.wait_for(self._queue.get(), remaining)
                except TimeoutError:
                    break
            if job.future.done():  # the client went away while queued
                continue
            if size + len(job.texts) > self.max_batch:
                return jobs, job
            jobs.append(job)
            size += len(job.texts)
        return jobs, None

    async def _run(self) -> None:
        assert self._queue is not None
        carry: _Job | None = None
        while True:
            first = carry or await self._queue.get()
            carry = None
            if first.future.done():
                continue
            jobs, carry = await self._collect(first)
            await self._process(jobs)

    async def _process(self, jobs: list[_Job]) -> None:
        texts = [text for job in jobs for text in job.texts]
        self._last_batch_requests = len(jobs)
        started = time.perf_counter()
        try:
            result = await asyncio.get_running_loop().run_in_executor(self._executor, self._encode, texts)
            if len(result.vectors) != len(texts):
                raise RuntimeError(f"model returned {len(result.vectors)} vectors for {len(texts)} texts")
        except Exception as exc:  # every waiting request gets the failure; the collector keeps running
            self.stats.failures += 1
            for job in jobs:
                if not job.future.done():
                    job.future.set_exception(exc)
            return
        self._record(jobs, len(texts), time.perf_counter() - started)
        offset = 0
        for job in jobs:
            end = offset + len(job.texts)
            if not job.future.done():
                job.future.set_result(Encoded(result.vectors[offset:end], result.token_counts[offset:end]))
            offset = end

    def _record(self, jobs: list[_Job], size: int, seconds: float) -> None:
        self.stats.requests += len(jobs)
        self.stats.texts += size
        self.stats.batches += 1
        self.stats.largest_batch = max(self.stats.largest_batch, size)
        self.stats.model_seconds += seconds
