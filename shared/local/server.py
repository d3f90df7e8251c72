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


def proxy_options(settings: object) -> dict:
    """uvicorn reads ``X-Forwarded-For`` only from the configured proxies (uvicorn's own default trusts
    127.0.0.1, so any local client could name any address and step round the failed-auth limit)."""
    trusted = getattr(settings, "trusted_proxies", None)
    return {"proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or ""}


@contextmanager
def serve_in_thread(
    app, *, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning"
) -> Iterator[str]:
    port = port or free_port()
    # No access log: a line per request costs CPU on the hot path, and nothing reads it here. uvicorn picks
    # uvloop and httptools when installed (the ``local`` extra).
    settings = getattr(getattr(app, "state", None), "settings", None)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        lifespan="off",
        access_log=False,
        **proxy_options(settings),
    )
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
