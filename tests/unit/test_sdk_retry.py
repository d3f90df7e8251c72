"""Retries against a tiny scripted HTTP server: 429/503 sequences, Retry-After, which methods retry."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from memorylayer import MemoryLayerClient, RateLimitError, ServerError, SyncMemoryLayerClient

NOW = "2026-01-01T00:00:00Z"
MEMORY = {
    "id": "mem_1",
    "workspace_id": "ws",
    "content": "c",
    "type": "episodic",
    "importance": 0.5,
    "created_at": NOW,
    "updated_at": NOW,
}


@dataclass
class Stub:
    """Answers each request with the next scripted (status, headers); then 200/201 with a memory."""

    url: str = ""
    script: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    seen: list[tuple[float, str, str]] = field(default_factory=list)  # (time, method, Idempotency-Key)


@pytest.fixture()
def stub() -> Iterator[Stub]:
    state = Stub()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            state.seen.append((time.monotonic(), self.command, self.headers.get("Idempotency-Key", "")))
            status, headers = state.script.pop(0) if state.script else (200, {})
            body = json.dumps(
                {"memory": MEMORY} if status < 400 else {"detail": {"code": f"s{status}"}}
            ).encode()
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


def gaps(stub: Stub) -> list[float]:
    times = [t for t, _, _ in stub.seen]
    return [b - a for a, b in zip(times, times[1:], strict=False)]


def test_get_retries_429_then_503_honouring_retry_after(stub: Stub) -> None:
    stub.script = [(429, {"Retry-After": "0.4"}), (503, {}), (200, {})]
    with SyncMemoryLayerClient(stub.url, backoff=0.05) as client:
        assert client.get_memory("mem_1").id == "mem_1"
    assert len(stub.seen) == 3
    first, second = gaps(stub)
    assert first >= 0.4  # Retry-After, not the 0.05 s backoff
    assert 0.04 <= second < 0.4  # plain backoff: 0.05 * 2**1


async def test_async_retries_and_gives_up_after_max_retries(stub: Stub) -> None:
    stub.script = [(503, {"Retry-After": "0"})] * 3
    async with MemoryLayerClient(stub.url, max_retries=2, backoff=0.01) as client:
        with pytest.raises(ServerError) as failed:
            await client.forget("mem_1")
    assert failed.value.status_code == 503 and failed.value.code == "s503"
    assert [m for _, m, _ in stub.seen] == ["DELETE"] * 3


def test_post_is_not_retried_without_idempotency_key(stub: Stub) -> None:
    stub.script = [(503, {})]
    with SyncMemoryLayerClient(stub.url, backoff=0.01) as client, pytest.raises(ServerError):
        client.remember("c")
    assert len(stub.seen) == 1


async def test_post_with_idempotency_key_is_retried_with_the_same_key(stub: Stub) -> None:
    stub.script = [(502, {}), (429, {"Retry-After": "0"})]
    async with MemoryLayerClient(stub.url, backoff=0.01) as client:
        assert (await client.remember("c", idempotency_key=True)).id == "mem_1"
    keys = {key for _, _, key in stub.seen}
    assert len(stub.seen) == 3 and len(keys) == 1 and keys != {""}


def test_500_is_not_retried(stub: Stub) -> None:
    stub.script = [(500, {})]
    with SyncMemoryLayerClient(stub.url, backoff=0.01) as client, pytest.raises(ServerError):
        client.get_memory("mem_1")
    assert len(stub.seen) == 1


def test_long_retry_after_raises_at_once_with_retry_after(stub: Stub) -> None:
    stub.script = [(429, {"Retry-After": "120"})]
    started = time.monotonic()
    with (
        SyncMemoryLayerClient(stub.url, max_retry_after=5) as client,
        pytest.raises(RateLimitError) as limited,
    ):
        client.get_memory("mem_1")
    assert limited.value.retry_after == 120 and time.monotonic() - started < 2
    assert len(stub.seen) == 1


def test_http_date_retry_after(stub: Stub) -> None:
    from email.utils import formatdate

    stub.script = [(503, {"Retry-After": formatdate(time.time() + 2, usegmt=True)})]
    with SyncMemoryLayerClient(stub.url, backoff=0.01) as client:
        client.get_memory("mem_1")
    assert len(stub.seen) == 2 and gaps(stub)[0] >= 0.5  # the date has 1 s resolution
