"""Conversation threads (``/v1/threads``), the route that feeds fact extraction: the chat store's
``thread_messages`` option and the memory block write through here.

    writer = ThreadWriter("http://localhost:61001", workspace_id="ws_123")
    writer.append("llamaindex-alice", [{"role": "user", "content": "I live in Lisbon."}])
    writer.decompose("llamaindex-alice")   # extract now: "User lives in Lisbon" becomes a memory

The SDK has no thread methods yet, so this speaks plain httpx. A thread is created on its first append.
"""

from __future__ import annotations

from typing import Any

import httpx
from memorylayer import DEFAULT_TIMEOUT_S, thread_id_for
from memorylayer.errors import error_for_status

__all__ = ["ThreadWriter", "thread_id_for"]


def _raise(response: httpx.Response) -> None:
    if response.is_success:
        return
    try:
        body: Any = response.json()
    except ValueError:
        body = {"detail": response.text}
    raise error_for_status(
        response.status_code, body, method=response.request.method, url=str(response.request.url)
    )


def _missing_thread(response: httpx.Response) -> bool:
    if response.status_code != 404:
        return False
    try:
        detail = response.json().get("detail")
    except ValueError:
        return False
    return isinstance(detail, dict) and detail.get("code") == "thread_not_found"


class ThreadWriter:
    """Appends chat messages to threads, sync or async, creating each thread on first use."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        workspace_id: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        root = base_url.rstrip("/")
        self.base_url = root[: -len("/v1")] if root.endswith("/v1") else root
        self.headers = {"Accept": "application/json"}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        if workspace_id:
            self.headers["X-Workspace-ID"] = workspace_id
        self.timeout = timeout
        self._transport = transport
        self._async_transport = async_transport

    def _sync(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.base_url, headers=self.headers, timeout=self.timeout, transport=self._transport
        )

    def _async(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.base_url,
            headers=self.headers,
            timeout=self.timeout,
            transport=self._async_transport,
        )

    @staticmethod
    def _new_thread(thread_id: str) -> dict[str, Any]:
        return {"id": thread_id, "title": thread_id, "metadata": {"source": "memorylayer-llamaindex"}}

    def append(self, thread_id: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """Append messages (each ``{"role", "content"}`` and optionally ``"id"``: a replayed id is not stored
        twice). Returns the API's ``MessagesAppendResponse``."""
        path = f"/v1/threads/{thread_id}/messages"
        with self._sync() as http:
            response = http.post(path, json={"messages": messages})
            if _missing_thread(response):
                created = http.post("/v1/threads", json=self._new_thread(thread_id))
                if created.status_code != 409:  # created meanwhile by another writer: fine
                    _raise(created)
                response = http.post(path, json={"messages": messages})
            _raise(response)
            return response.json()

    async def aappend(self, thread_id: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        path = f"/v1/threads/{thread_id}/messages"
        async with self._async() as http:
            response = await http.post(path, json={"messages": messages})
            if _missing_thread(response):
                created = await http.post("/v1/threads", json=self._new_thread(thread_id))
                if created.status_code != 409:
                    _raise(created)
                response = await http.post(path, json={"messages": messages})
            _raise(response)
            return response.json()

    def decompose(self, thread_id: str) -> dict[str, Any]:
        """Extract memories from the thread's unprocessed messages now (instead of waiting for the queue)."""
        with self._sync() as http:
            response = http.post(f"/v1/threads/{thread_id}/decompose")
            _raise(response)
            return response.json()

    async def adecompose(self, thread_id: str) -> dict[str, Any]:
        async with self._async() as http:
            response = await http.post(f"/v1/threads/{thread_id}/decompose")
            _raise(response)
            return response.json()
