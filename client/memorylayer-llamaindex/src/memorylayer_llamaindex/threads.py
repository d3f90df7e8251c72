"""Conversation threads (``/v1/threads``), the route that feeds fact extraction: the chat store's
``thread_messages`` option and the memory block write through here.

    writer = ThreadWriter("http://localhost:61001", workspace_id="ws_123")
    writer.append("llamaindex-alice", [{"role": "user", "content": "I live in Lisbon."}])
    writer.decompose("llamaindex-alice")   # extract now: "User lives in Lisbon" becomes a memory

It speaks through the SDK's clients (the store's own when it passes them). A thread is created on its first
append.
"""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
from memorylayer import DEFAULT_TIMEOUT_S, MemoryLayerClient, SyncMemoryLayerClient, thread_id_for
from memorylayer.errors import ConflictError, NotFoundError

__all__ = ["ThreadWriter", "thread_id_for"]


def _missing_thread(error: NotFoundError) -> bool:
    return error.code == "thread_not_found"


def _new_thread(thread_id: str) -> dict[str, Any]:
    return {"thread_id": thread_id, "title": thread_id, "metadata": {"source": "memorylayer-llamaindex"}}


class ThreadWriter:
    """Appends chat messages to threads, sync or async, creating each thread on first use.

    Give ``client``/``aclient`` to write through SDK clients you already hold; otherwise the writer makes its
    own from ``base_url``, ``api_key`` and ``workspace_id`` when first needed.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace_id: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
        client: SyncMemoryLayerClient | None = None,
        aclient: MemoryLayerClient | None = None,
    ) -> None:
        self._options: dict[str, Any] = dict(
            base_url=base_url, api_key=api_key, workspace_id=workspace_id, timeout=timeout
        )
        self._transport = transport
        self._async_transport = async_transport
        self._client = client
        self._aclient = aclient

    @property
    def client(self) -> SyncMemoryLayerClient:
        if self._client is None:
            self._client = SyncMemoryLayerClient(**self._options, transport=self._transport)
        return self._client

    @property
    def aclient(self) -> MemoryLayerClient:
        if self._aclient is None:
            self._aclient = MemoryLayerClient(**self._options, transport=self._async_transport)
        return self._aclient

    def append(self, thread_id: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """Append messages (each ``{"role", "content"}`` and optionally ``"id"``: a replayed id is not stored
        twice). Returns the API's ``MessagesAppendResponse`` as a dict."""
        try:
            added = self.client.append_messages(thread_id, messages)
        except NotFoundError as error:
            if not _missing_thread(error):
                raise
            with contextlib.suppress(ConflictError):  # created meanwhile by another writer: fine
                self.client.create_thread(**_new_thread(thread_id))
            added = self.client.append_messages(thread_id, messages)
        return added.model_dump(mode="json")

    async def aappend(self, thread_id: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        try:
            added = await self.aclient.append_messages(thread_id, messages)
        except NotFoundError as error:
            if not _missing_thread(error):
                raise
            with contextlib.suppress(ConflictError):
                await self.aclient.create_thread(**_new_thread(thread_id))
            added = await self.aclient.append_messages(thread_id, messages)
        return added.model_dump(mode="json")

    def decompose(self, thread_id: str) -> dict[str, Any]:
        """Extract memories from the thread's unprocessed messages now (instead of waiting for the queue)."""
        return self.client.decompose_thread(thread_id).model_dump(mode="json")

    async def adecompose(self, thread_id: str) -> dict[str, Any]:
        return (await self.aclient.decompose_thread(thread_id)).model_dump(mode="json")
