"""``MemoryLayerChatStore``: a LlamaIndex ``BaseChatStore`` whose chats live in MemoryLayer.

    store = MemoryLayerChatStore(base_url="http://localhost:61001", workspace_id="ws_123")
    memory = ChatMemoryBuffer.from_defaults(chat_store=store, chat_store_key="alice")

Each message is one episodic memory in the chat's ordered stream (``sequence_key = <chat key>``):

- ``add_message`` is a single POST; the server assigns the next index atomically, so any number of threads
  or processes can append to one chat without losing or duplicating a message (no read, no client lock);
- ``get_messages`` pages ``GET /v1/memories?sequence_key=<key>`` in index order: never truncated, exact
  (case-sensitive) keys, and a deleted message never comes back;
- ``get_keys`` asks the server for the workspace's live stream keys.

With ``thread_messages=True`` every message is also appended to the conversation thread
``<thread_prefix><chat key>`` (``/v1/threads``), so the server extracts facts from the chat ("I live in Lisbon"
becomes the memory "User lives in Lisbon", recallable from any chat); ``extract_facts(key)`` runs that
extraction at once instead of waiting for the queue. The thread is a log: deleting chat messages does not retract
facts already extracted.

Indices: ``delete_message(key, idx)`` treats ``idx`` as the position in ``get_messages(key)`` (as LlamaIndex's
``SimpleChatStore`` does). That is the memory with ``message_index == idx`` until a deletion leaves a gap;
nothing is renumbered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Self

from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.llms import ChatMessage
from llama_index.core.storage.chat_store.base import BaseChatStore
from memorylayer import DEFAULT_TIMEOUT_S, Memory, MemoryLayerClient, NotFoundError, SyncMemoryLayerClient

from memorylayer_llamaindex.convert import (
    CHAT_KEY_TAG_PREFIX,
    _text_of,
    chat_message_to_memory_payload,
    get_message_index,
    memory_to_chat_message,
    message_role_to_string,
)
from memorylayer_llamaindex.env import env_api_key, env_url, env_workspace_id
from memorylayer_llamaindex.threads import ThreadWriter, thread_id_for

__all__ = ["MemoryLayerChatStore"]

_BATCH = 1000  # the server's batch limit (max_batch_operations)


def _ordered(memories: list[Memory], key: str) -> list[Memory]:
    exact = [m for m in memories if m.sequence_key in (None, key)]
    return sorted(exact, key=lambda m: (get_message_index(m), m.sequence_index or 0))


def _pick(memories: list[Memory], idx: int) -> Memory | None:
    """The memory at list position ``idx`` (negative counts from the end); None when out of range."""
    if -len(memories) <= idx < len(memories):
        return memories[idx]
    return None


def _delete_ops(memories: Sequence[Memory]) -> list[list[dict[str, Any]]]:
    ops = [{"op": "delete", "memory_id": m.id} for m in memories]
    return [ops[i : i + _BATCH] for i in range(0, len(ops), _BATCH)]


class MemoryLayerChatStore(BaseChatStore):
    """Persistent chat history for LlamaIndex, stored as MemoryLayer memories.

    Configuration: ``base_url`` (default ``MEMORYLAYER_URL``, else ``http://localhost:61001``), ``api_key``
    (Bearer; default ``MEMORYLAYER_API_KEY``; never serialised), ``workspace_id`` (``X-Workspace-ID``; default
    ``MEMORYLAYER_WORKSPACE_ID``, else the server's ``_default``), ``timeout`` (seconds),
    ``max_retries`` (idempotent requests and appends, on 429/502/503/504/connection errors),
    ``page_size`` (messages per read request) and ``write_concurrency`` (parallel POSTs of ``aset_messages``).

        with MemoryLayerChatStore(workspace_id="ws_123") as store:
            store.add_message("alice", ChatMessage(role="user", content="Hello!"))
            store.get_messages("alice")   # [ChatMessage(role=USER, content="Hello!")]
    """

    base_url: str = Field(default_factory=env_url, description="MemoryLayer API URL (MEMORYLAYER_URL)")
    api_key: str | None = Field(
        default_factory=env_api_key,
        description="API key (Bearer; MEMORYLAYER_API_KEY)",
        exclude=True,
        repr=False,
    )
    workspace_id: str | None = Field(
        default_factory=env_workspace_id, description="Workspace for isolation (MEMORYLAYER_WORKSPACE_ID)"
    )
    timeout: float = Field(default=DEFAULT_TIMEOUT_S, description="Request timeout in seconds")
    max_retries: int = Field(default=3, ge=0, description="Retries of idempotent requests")
    page_size: int = Field(default=1000, ge=1, le=1000, description="Messages fetched per request")
    write_concurrency: int = Field(default=8, ge=1, description="Parallel POSTs in aset_messages")
    thread_messages: bool = Field(
        default=False, description="Also append each message to a conversation thread, for fact extraction"
    )
    thread_prefix: str = Field(default="llamaindex-", description="Thread id = prefix + chat key")

    _sync_client: SyncMemoryLayerClient | None = PrivateAttr(default=None)
    _async_client: MemoryLayerClient | None = PrivateAttr(default=None)

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace_id: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        **kwargs: Any,
    ) -> None:
        given = {"base_url": base_url, "api_key": api_key, "workspace_id": workspace_id}
        # What is left out comes from the environment (the fields' default factories).
        super().__init__(timeout=timeout, **{k: v for k, v in given.items() if v is not None}, **kwargs)

    @classmethod
    def class_name(cls) -> str:
        return "MemoryLayerChatStore"

    # ------------------------------------------------------------------ clients and lifecycle
    def _options(self) -> dict[str, Any]:
        return dict(
            base_url=self.base_url,
            api_key=self.api_key,
            workspace_id=self.workspace_id,
            timeout=self.timeout,
            max_retries=self.max_retries,
        )

    @property
    def client(self) -> SyncMemoryLayerClient:
        """The sync SDK client this store uses (created on first use)."""
        if self._sync_client is None:
            self._sync_client = SyncMemoryLayerClient(**self._options())
        return self._sync_client

    @property
    def aclient(self) -> MemoryLayerClient:
        """The async SDK client this store uses (created on first use)."""
        if self._async_client is None:
            self._async_client = MemoryLayerClient(**self._options())
        return self._async_client

    @property
    def threads(self) -> ThreadWriter:
        """Writes to ``/v1/threads`` (used when ``thread_messages`` is on)."""
        return ThreadWriter(client=self.client, aclient=self.aclient)

    def thread_id(self, key: str) -> str:
        """The thread a chat's messages go to: ``store.thread_id("alice") == "llamaindex-alice"``."""
        return thread_id_for(self.thread_prefix, key)

    def extract_facts(self, key: str) -> dict[str, Any]:
        """Extract memories from the chat's thread now; returns the API's decompose result."""
        return self.threads.decompose(self.thread_id(key))

    async def aextract_facts(self, key: str) -> dict[str, Any]:
        return await self.threads.adecompose(self.thread_id(key))

    @staticmethod
    def _thread_rows(pairs: Sequence[tuple[ChatMessage, Memory]]) -> list[dict[str, Any]]:
        # The memory id is the thread message's id: a retried append is not stored twice.
        return [
            {"id": memory.id, "role": message_role_to_string(message.role), "content": _text_of(message)}
            for message, memory in pairs
        ]

    def close(self) -> None:
        """Close the sync HTTP connections."""
        if self._sync_client is not None:
            self._sync_client.close()
            self._sync_client = None

    async def aclose(self) -> None:
        """Close the async (and sync) HTTP connections."""
        if self._async_client is not None:
            await self._async_client.aclose()
            self._async_client = None
        self.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ helpers
    def _payload(self, message: ChatMessage, key: str, index: int | None) -> dict[str, Any]:
        return chat_message_to_memory_payload(message, key, index, tag_prefix=CHAT_KEY_TAG_PREFIX)

    def _memories(self, key: str) -> list[Memory]:
        memories = list(self.client.iterate_memories(sequence_key=key, page_size=self.page_size))
        return _ordered(memories, key)

    async def _amemories(self, key: str) -> list[Memory]:
        memories = [
            m async for m in self.aclient.iterate_memories(sequence_key=key, page_size=self.page_size)
        ]
        return _ordered(memories, key)

    # ------------------------------------------------------------------ sync API
    def set_messages(self, key: str, messages: list[ChatMessage]) -> None:
        """Replace the chat: delete its messages, then write these with indices 0..n-1."""
        self.delete_messages(key)
        written = []
        for index, message in enumerate(messages):
            written.append(self.client.remember(**self._payload(message, key, index), idempotency_key=True))
        if self.thread_messages and messages:
            self.threads.append(
                self.thread_id(key), self._thread_rows(list(zip(messages, written, strict=True)))
            )

    def get_messages(self, key: str) -> list[ChatMessage]:
        """Every message of the chat, in order."""
        return [memory_to_chat_message(m) for m in self._memories(key)]

    def add_message(self, key: str, message: ChatMessage) -> None:
        """Append one message (one request; the server assigns the index atomically)."""
        memory = self.client.remember(**self._payload(message, key, None), idempotency_key=True)
        if self.thread_messages:
            self.threads.append(self.thread_id(key), self._thread_rows([(message, memory)]))

    def delete_messages(self, key: str) -> list[ChatMessage] | None:
        """Delete the whole chat; returns its messages, or None if it had none."""
        memories = self._memories(key)
        if not memories:
            return None
        for ops in _delete_ops(memories):
            self.client.batch_memories(ops)
        return [memory_to_chat_message(m) for m in memories]

    def delete_message(self, key: str, idx: int) -> ChatMessage | None:
        """Delete the message at position ``idx`` of ``get_messages(key)``; None if there is none."""
        target = _pick(self._memories(key), idx)
        return self._forget(target)

    def delete_last_message(self, key: str) -> ChatMessage | None:
        """Delete the newest message (the highest index); None if the chat is empty."""
        return self._forget(_pick(self._memories(key), -1))

    def get_keys(self) -> list[str]:
        """Every chat key with at least one message in the workspace."""
        return self.client.sequence_keys()

    def _forget(self, memory: Memory | None) -> ChatMessage | None:
        if memory is None:
            return None
        try:
            self.client.forget(memory.id)
        except NotFoundError:  # deleted concurrently by someone else
            return None
        return memory_to_chat_message(memory)

    # ------------------------------------------------------------------ async API
    async def aset_messages(self, key: str, messages: list[ChatMessage]) -> None:
        """Replace the chat; the new messages are written in parallel (explicit indices keep the order)."""
        await self.adelete_messages(key)
        gate = asyncio.Semaphore(self.write_concurrency)

        async def write(index: int, message: ChatMessage) -> Memory:
            async with gate:
                return await self.aclient.remember(**self._payload(message, key, index), idempotency_key=True)

        written = await asyncio.gather(*(write(i, m) for i, m in enumerate(messages)))
        if self.thread_messages and messages:
            rows = self._thread_rows(list(zip(messages, written, strict=True)))
            await self.threads.aappend(self.thread_id(key), rows)

    async def aget_messages(self, key: str) -> list[ChatMessage]:
        return [memory_to_chat_message(m) for m in await self._amemories(key)]

    async def async_add_message(self, key: str, message: ChatMessage) -> None:
        memory = await self.aclient.remember(**self._payload(message, key, None), idempotency_key=True)
        if self.thread_messages:
            await self.threads.aappend(self.thread_id(key), self._thread_rows([(message, memory)]))

    async def adelete_messages(self, key: str) -> list[ChatMessage] | None:
        memories = await self._amemories(key)
        if not memories:
            return None
        for ops in _delete_ops(memories):
            await self.aclient.batch_memories(ops)
        return [memory_to_chat_message(m) for m in memories]

    async def adelete_message(self, key: str, idx: int) -> ChatMessage | None:
        return await self._aforget(_pick(await self._amemories(key), idx))

    async def adelete_last_message(self, key: str) -> ChatMessage | None:
        return await self._aforget(_pick(await self._amemories(key), -1))

    async def aget_keys(self) -> list[str]:
        return await self.aclient.sequence_keys()

    async def _aforget(self, memory: Memory | None) -> ChatMessage | None:
        if memory is None:
            return None
        try:
            await self.aclient.forget(memory.id)
        except NotFoundError:
            return None
        return memory_to_chat_message(memory)
