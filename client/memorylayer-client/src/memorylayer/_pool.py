"""The few lines where the async and sync clients really differ: the httpx pool and how to wait.

``client.py`` uses the ``Async*``/``async_*`` names; ``generate_sync.py`` renames them to the ``Sync*``/
``sync_*`` twins below when it writes ``sync_client.py``, so each pair must keep the same shape.

    pool = SyncPool(base_url="http://localhost:61001", headers={}, timeout=5.0)
    pool.get().get("/health").json()   # {"status": "healthy"}
    pool.close()
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

import httpx


class AsyncPool:
    """One ``httpx.AsyncClient``, reopened when called from another event loop or after ``aclose``."""

    def __init__(
        self,
        *,
        base_url: str,
        headers: Mapping[str, str],
        timeout: float,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._base_url, self._headers, self._timeout = base_url, dict(headers), timeout
        self._transport = transport
        self._http: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self) -> httpx.AsyncClient:
        # An AsyncClient's pool belongs to one event loop; a sync framework that runs each call in its own
        # asyncio.run() would otherwise reuse connections bound to a closed loop.
        loop = asyncio.get_running_loop()
        if self._http is None or self._loop is not loop or self._http.is_closed:
            self._http = httpx.AsyncClient(
                base_url=self._base_url,
                headers=self._headers,
                timeout=self._timeout,
                transport=self._transport,
            )
            self._loop = loop
        return self._http

    async def aclose(self) -> None:
        http, self._http = self._http, None
        if http is not None and self._loop is asyncio.get_running_loop():
            await http.aclose()


class SyncPool:
    """One thread-safe ``httpx.Client``, reopened after ``close``."""

    def __init__(
        self,
        *,
        base_url: str,
        headers: Mapping[str, str],
        timeout: float,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._base_url, self._headers, self._timeout = base_url, dict(headers), timeout
        self._transport = transport
        self._http: httpx.Client | None = None

    def get(self) -> httpx.Client:
        if self._http is None or self._http.is_closed:
            self._http = httpx.Client(
                base_url=self._base_url,
                headers=self._headers,
                timeout=self._timeout,
                transport=self._transport,
            )
        return self._http

    def close(self) -> None:
        http, self._http = self._http, None
        if http is not None:
            http.close()


async def async_sleep(seconds: float) -> None:
    await asyncio.sleep(seconds)


def sync_sleep(seconds: float) -> None:
    time.sleep(seconds)


# A presigned upload goes straight to the bucket: its own connection, none of the API's headers (S3 refuses an
# Authorization header it did not sign), the policy's fields first and the file last.
async def async_post_form(
    url: str, fields: Mapping[str, str], filename: str, data: bytes, content_type: str, timeout: float
) -> httpx.Response:
    async with httpx.AsyncClient(timeout=timeout) as http:
        return await http.post(url, data=dict(fields), files={"file": (filename, data, content_type)})


def sync_post_form(
    url: str, fields: Mapping[str, str], filename: str, data: bytes, content_type: str, timeout: float
) -> httpx.Response:
    with httpx.Client(timeout=timeout) as http:
        return http.post(url, data=dict(fields), files={"file": (filename, data, content_type)})
