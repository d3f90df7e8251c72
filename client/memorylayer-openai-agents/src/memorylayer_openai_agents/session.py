"""``MemoryLayerSession``: the OpenAI Agents SDK's ``Session`` in a MemoryLayer conversation thread.

    session = MemoryLayerSession("user-42", workspace_id="ws_123")
    result = await Runner.run(agent, "Where do I live?", session=session)

The session is the thread ``<thread_prefix><session id>`` (created on the first item): the conversation survives
restarts, any process can continue it, and appending queues the server's fact extraction, so what the user says
becomes recallable memories in the workspace. ``clear_session()`` deletes the thread; memories already
extracted from it stay.
"""

from __future__ import annotations

import contextlib
import uuid
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from agents.memory import SessionSettings
from agents.memory.session_settings import resolve_session_limit
from memorylayer import (
    DEFAULT_TIMEOUT_S,
    ConflictError,
    DecomposeResult,
    MemoryLayerClient,
    Message,
    NotFoundError,
)

from memorylayer_openai_agents.items import from_thread_message, thread_id_for, to_thread_message

if TYPE_CHECKING:
    from agents.items import TResponseInputItem

__all__ = ["MemoryLayerSession"]

_PAGE = 1000  # the server's page limit for thread messages
_APPEND = 500  # the server's limit of messages per append
_POP_TRIES = 5  # a concurrent pop took the newest item: take the next newest


def _missing_thread(exc: NotFoundError) -> bool:
    return exc.code in (None, "thread_not_found")


class MemoryLayerSession:
    """Conversation history for the Agents SDK's ``Runner`` (the ``Session`` protocol) in a MemoryLayer thread.

    ``base_url``, ``api_key`` and ``workspace_id`` default to ``MEMORYLAYER_URL``, ``MEMORYLAYER_API_KEY`` and
    ``MEMORYLAYER_WORKSPACE_ID``, as the SDK's. ``user_id`` attributes the thread (and what is extracted from
    it) to a user. ``session_settings.limit`` is the default number of items ``get_items`` returns.
    """

    def __init__(
        self,
        session_id: str,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace_id: str | None = None,
        *,
        user_id: str | None = None,
        thread_prefix: str = "agents-",
        session_settings: SessionSettings | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_retries: int = 3,
        client: MemoryLayerClient | None = None,
    ) -> None:
        self.session_id = session_id
        self.session_settings = session_settings
        self.thread_id = thread_id_for(thread_prefix, session_id)
        self.user_id = user_id
        self.client = client or MemoryLayerClient(
            base_url, api_key, workspace_id, timeout=timeout, max_retries=max_retries
        )

    def __repr__(self) -> str:
        return f"MemoryLayerSession(session_id={self.session_id!r}, thread_id={self.thread_id!r})"

    async def aclose(self) -> None:
        await self.client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ the Session protocol
    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The conversation, oldest first; with ``limit``, its latest ``limit`` items (still oldest first)."""
        limit = resolve_session_limit(limit, self.session_settings)
        if limit is not None and limit == 0:
            return []
        if limit is None or limit < 0:  # negative: everything, as the SDK's SQLite session
            return [from_thread_message(m) for m in await self._all()]  # type: ignore[misc]
        newest = await self._newest(limit)
        return [from_thread_message(m) for m in reversed(newest)]  # type: ignore[misc]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append items in order (one request per 500); the thread is created on the first."""
        rows = [to_thread_message(item, f"oa_{uuid.uuid4().hex}") for item in items]
        for start in range(0, len(rows), _APPEND):
            await self._append(rows[start : start + _APPEND])

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the newest item; None when the session is empty."""
        for _ in range(_POP_TRIES):
            newest = await self._newest(1)
            if not newest:
                return None
            try:
                await self.client.delete_message(self.thread_id, newest[0].id)
            except NotFoundError:  # popped by someone else meanwhile: try the next newest
                continue
            return from_thread_message(newest[0])  # type: ignore[return-value]
        return None

    async def clear_session(self) -> None:
        """Delete the session's thread (its items); memories extracted from it stay."""
        with contextlib.suppress(NotFoundError):
            await self.client.delete_thread(self.thread_id)

    # ------------------------------------------------------------------ beyond the protocol
    async def extract_facts(self) -> DecomposeResult:
        """Extract memories from the session's new items now, instead of waiting for the queue."""
        return await self.client.decompose_thread(self.thread_id)

    # ------------------------------------------------------------------ thread access
    async def _all(self) -> list[Message]:
        out: list[Message] = []
        try:
            while True:
                page = (
                    await self.client.list_messages(self.thread_id, limit=_PAGE, offset=len(out))
                ).messages
                out += page
                if len(page) < _PAGE:
                    return out
        except NotFoundError as exc:
            if _missing_thread(exc):
                return []
            raise

    async def _newest(self, count: int) -> list[Message]:
        """The newest ``count`` messages, newest first."""
        out: list[Message] = []
        try:
            while len(out) < count:
                size = min(_PAGE, count - len(out))
                page = await self.client.list_messages(
                    self.thread_id, limit=size, offset=len(out), order="desc"
                )
                out += page.messages
                if len(page.messages) < size:
                    break
        except NotFoundError as exc:
            if _missing_thread(exc):
                return []
            raise
        return out

    async def _append(self, rows: list[dict[str, Any]]) -> None:
        try:
            await self.client.append_messages(self.thread_id, rows)
            return
        except NotFoundError as exc:
            if not _missing_thread(exc):
                raise
        with contextlib.suppress(ConflictError):  # created meanwhile by another writer
            await self.client.create_thread(
                thread_id=self.thread_id,
                title=self.session_id,
                user_id=self.user_id,
                metadata={"source": "memorylayer-openai-agents", "session_id": self.session_id},
            )
        await self.client.append_messages(self.thread_id, rows)
