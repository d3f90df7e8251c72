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

from shared.api.app import create_app
from shared.api.services import Services
from shared.bootstrap import process_services
from shared.local.server import serve_in_thread
from shared.local.sqs import SqsPoller, local_sqs
from shared.settings import Settings, get_settings


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
def stack_url(app_url: str) -> Iterator[str]:
    """The app with a real extraction queue (moto SQS) and the extraction Lambda handler polling it."""
    with local_sqs(visibility_timeout_s=1) as queues, pytest.MonkeyPatch.context() as env:
        for key, value in {
            "DATABASE_URL": app_url,
            "EMBEDDING_PROVIDER": "hash",
            "EXTRACTION_QUEUE_URL": queues.queue_url,
            "SQS_ENDPOINT_URL": queues.endpoint_url,
            "AUTH_MODE": "none",
        }.items():
            env.setenv(f"MEMORYLAYER_{key}", value)
        get_settings.cache_clear()
        process_services.cache_clear()
        settings = Settings()
        services = Services.build(settings)
        from functions.extraction.handler import handler

        try:
            with serve_in_thread(create_app(settings, services=services)) as url, SqsPoller(queues, handler):
                yield url
        finally:
            services.close()
            process_services("worker").close()
            process_services.cache_clear()
            get_settings.cache_clear()
