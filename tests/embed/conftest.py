"""Fixtures: provider stubs (one per test) and one real embedding container (per session, ONNX on CPU)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest
import uvicorn

from functions.embed.app import create_app
from functions.embed.config import EmbedConfig
from shared.providers.embeddings.http import RetryPolicy

from .stubs import StubRequest, StubResponse, StubServer

# Fast backoff: tests exercise the retry path, not the wall clock.
FAST_RETRY = RetryPolicy(max_retries=2, base_delay_s=0.01, max_delay_s=0.05)


@pytest.fixture
def stub_factory() -> Iterator[Callable[[Callable[[StubServer, StubRequest], StubResponse]], StubServer]]:
    started: list[StubServer] = []

    def make(wire: Callable[[StubServer, StubRequest], StubResponse]) -> StubServer:
        server = StubServer(wire).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


class RunningServer:
    """uvicorn serving an app on a socket we bound first (so the port is known before start)."""

    def __init__(self, app: object) -> None:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        self._server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    def start(self, timeout_s: float = 30.0) -> RunningServer:
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("embedding container did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._socket.close()


@pytest.fixture(scope="session")
def container_config() -> EmbedConfig:
    # A 20 ms window makes coalescing of concurrent requests deterministic enough to assert on.
    return EmbedConfig(max_wait_ms=20, max_batch=64, threads=2)


@pytest.fixture(scope="session")
def container(container_config: EmbedConfig) -> Iterator[RunningServer]:
    server = RunningServer(create_app(container_config)).start()
    yield server
    server.stop()
