"""Run the ASGI app under uvicorn in a background thread (tests, benchmarks and the local stack).

>>> with serve_in_thread(app, port=0) as base_url:        # doctest: +SKIP
...     httpx.get(f"{base_url}/health")
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serve_in_thread(
    app, *, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning"
) -> Iterator[str]:
    port = port or free_port()
    # No access log: a line per request costs CPU on the hot path, and nothing reads it here. uvicorn picks
    # uvloop and httptools when installed (the ``local`` extra).
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, lifespan="off", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn:{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not start on {host}:{port}")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
