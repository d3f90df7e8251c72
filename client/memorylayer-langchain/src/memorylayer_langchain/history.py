"""``MemoryLayerChatMessageHistory``: LangChain's chat message history kept in a MemoryLayer thread.

    history = MemoryLayerChatMessageHistory("alice", workspace_id="ws_123")
    chain = RunnableWithMessageHistory(prompt | model, lambda sid: MemoryLayerChatMessageHistory(sid))

A session is the conversation thread ``<thread_prefix><session id>`` (created on the first message). Appending
is one request per ``add_messages`` and queues the server's fact extraction, so what the user says becomes
recallable memories ("I moved to Porto" → "User lives in Porto") in any later chat of the workspace.
``clear()`` deletes the thread; memories already extracted from it stay (the thread was their evidence, not
their owner).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Self

from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import BaseMessage
from memorylayer import (
    DEFAULT_TIMEOUT_S,
    ConflictError,
    DecomposeResult,
    MemoryLayerClient,
    NotFoundError,
    SyncMemoryLayerClient,
)

from memorylayer_langchain.convert import from_thread_message, thread_id_for, to_thread_message

__all__ = ["MemoryLayerChatMessageHistory"]

_PAGE = 1000  # the server's page limit for thread messages
_APPEND = 500  # the server's limit of messages per append


def _missing_thread(exc: NotFoundError) -> bool:
    return exc.code in (None, "thread_not_found")


class MemoryLayerChatMessageHistory(BaseChatMessageHistory):
    """Chat history for LangChain in a MemoryLayer conversation thread.

    ``base_url``, ``api_key`` and ``workspace_id`` default to ``MEMORYLAYER_URL``, ``MEMORYLAYER_API_KEY`` and
    ``MEMORYLAYER_WORKSPACE_ID``, as the SDK's. ``user_id`` attributes the thread (and what is extracted from it)
    to a user; ``thread_prefix`` is put before the session id to name the thread.
    """

    def __init__(
        self,
        session_id: str,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace_id: str | None = None,
        *,
        user_id: str | None = None,
        thread_prefix: str = "langchain-",
        timeout: float = DEFAULT_TIMEOUT_S,
        max_retries: int = 3,
    ) -> None:
        self.session_id = session_id
        self.thread_id = thread_id_for(thread_prefix, session_id)
        self.user_id = user_id
        self._options: dict[str, Any] = dict(
            base_url=base_url,
            api_key=api_key,
            workspace_id=workspace_id,
            timeout=timeout,
            max_retries=max_retries,
        )
        self._sync: SyncMemoryLayerClient | None = None
        self._async: MemoryLayerClient | None = None

    def __repr__(self) -> str:
        return f"MemoryLayerChatMessageHistory(session_id={self.session_id!r}, thread_id={self.thread_id!r})"

    # ------------------------------------------------------------------ clients and lifecycle
    @property
    def client(self) -> SyncMemoryLayerClient:
        if self._sync is None:
            self._sync = SyncMemoryLayerClient(**self._options)
        return self._sync

    @property
    def aclient(self) -> MemoryLayerClient:
        if self._async is None:
            self._async = MemoryLayerClient(**self._options)
        return self._async

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()

    async def aclose(self) -> None:
        if self._async is not None:
            await self._async.aclose()
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

    def _new_thread(self) -> dict[str, Any]:
        return {
            "thread_id": self.thread_id,
            "title": self.session_id,
            "user_id": self.user_id,
            "metadata": {"source": "memorylayer-langchain", "session_id": self.session_id},
        }

    @staticmethod
    def _rows(messages: Sequence[BaseMessage]) -> list[list[dict[str, Any]]]:
        rows = [to_thread_message(m, f"lc_{uuid.uuid4().hex}") for m in messages]
        return [rows[i : i + _APPEND] for i in range(0, len(rows), _APPEND)]

    # ------------------------------------------------------------------ sync
    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """Every message of the session, oldest first."""
        out: list[BaseMessage] = []
        try:
            while True:
                page = self.client.list_messages(self.thread_id, limit=_PAGE, offset=len(out)).messages
                out += [from_thread_message(m) for m in page]
                if len(page) < _PAGE:
                    return out
        except NotFoundError as exc:
            if _missing_thread(exc):
                return []
            raise

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        for chunk in self._rows(messages):
            try:
                self.client.append_messages(self.thread_id, chunk)
            except NotFoundError as exc:
                if not _missing_thread(exc):
                    raise
                with contextlib.suppress(ConflictError):  # created meanwhile by another writer
                    self.client.create_thread(**self._new_thread())
                self.client.append_messages(self.thread_id, chunk)

    def clear(self) -> None:
        with contextlib.suppress(NotFoundError):
            self.client.delete_thread(self.thread_id)

    def extract_facts(self) -> DecomposeResult:
        """Extract memories from the session's new messages now, instead of waiting for the queue."""
        return self.client.decompose_thread(self.thread_id)

    # ------------------------------------------------------------------ async
    async def aget_messages(self) -> list[BaseMessage]:
        out: list[BaseMessage] = []
        try:
            while True:
                page = (
                    await self.aclient.list_messages(self.thread_id, limit=_PAGE, offset=len(out))
                ).messages
                out += [from_thread_message(m) for m in page]
                if len(page) < _PAGE:
                    return out
        except NotFoundError as exc:
            if _missing_thread(exc):
                return []
            raise

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        for chunk in self._rows(messages):
            try:
                await self.aclient.append_messages(self.thread_id, chunk)
            except NotFoundError as exc:
                if not _missing_thread(exc):
                    raise
                with contextlib.suppress(ConflictError):
                    await self.aclient.create_thread(**self._new_thread())
                await self.aclient.append_messages(self.thread_id, chunk)

    async def aclear(self) -> None:
        with contextlib.suppress(NotFoundError):
            await self.aclient.delete_thread(self.thread_id)

    async def aextract_facts(self) -> DecomposeResult:
        return await self.aclient.decompose_thread(self.thread_id)
