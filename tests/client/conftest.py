"""Fixtures for the client tests: both SDK clients behind one interface, and a chat store per test.

``sdk`` is parametrised over the sync client and the async one; the async client runs on a private event loop
behind a small adapter, so one test body exercises every method of both. ``stack_url`` is the whole local
stack as ``make dev`` runs it (the app, moto's SQS and the extraction handler polling it), for thread jobs.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from memorylayer import MemoryLayerClient, SyncMemoryLayerClient


class AsyncAdapter:
    """Calls the async client's coroutine methods to completion; async generators come back as lists."""

    def __init__(self, client: MemoryLayerClient) -> None:
        self.client = client
        self.loop = asyncio.new_event_loop()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.client, name)
        if inspect.iscoroutinefunction(attr):
            return lambda *a, **k: self.loop.run_until_complete(attr(*a, **k))
        if inspect.isasyncgenfunction(attr):

            async def collect(*a: Any, **k: Any) -> list[Any]:
                return [item async for item in attr(*a, **k)]

            return lambda *a, **k: self.loop.run_until_complete(collect(*a, **k))
        return attr

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()


@contextmanager
def open_sdk(kind: str, base_url: str, ws: str) -> Iterator[Any]:
    """The sync client, or the async one behind :class:`AsyncAdapter` (``kind``: sync or async)."""
    if kind == "sync":
        with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
            yield client
        return
    adapter = AsyncAdapter(MemoryLayerClient(base_url, workspace_id=ws))
    try:
        yield adapter
    finally:
        adapter.close()


@pytest.fixture(params=["sync", "async"])
def sdk(request: pytest.FixtureRequest, base_url: str, ws: str) -> Iterator[Any]:
    with open_sdk(request.param, base_url, ws) as client:
        yield client


@pytest.fixture(scope="module")
def stack_url(pipeline: tuple[str, Any]) -> str:
    """The whole local stack's URL (tests/conftest.py ``pipeline``): the app, moto's SQS, the extraction handler."""
    return pipeline[0]
