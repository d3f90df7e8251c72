"""``MemoryLayerMemoryBlock``: long-term memory for LlamaIndex's ``Memory`` (``llama_index.core.memory``).

    from llama_index.core.memory import Memory
    from memorylayer_llamaindex import MemoryLayerMemoryBlock

    block = MemoryLayerMemoryBlock(base_url="http://localhost:61001", workspace_id="ws_123")
    memory = Memory.from_defaults(session_id="alice-2026-12-01", token_limit=4000, memory_blocks=[block])
    agent.run("Where do I live?", memory=memory)

Reading (``aget``, on every turn): the latest user message is the query. ``mode="recall"`` injects the best
matching long-term memories as a bullet list; ``mode="context_pack"`` injects the session's context pack
(directives, working memory, open threads, topic matches, recent activity, packed to ``budget_tokens``).
``Memory`` puts the text in the system message (or the latest user message, per its ``insert_method``).

Writing (``aput``, which ``Memory`` calls with the messages it ejects from its short-term FIFO queue):
``write="thread"`` appends them to the conversation thread ``<thread_prefix><session id>`` and, with
``extract_now``, asks the server to extract facts from them at once (rule-based without an LLM, the LLM
extractor with one): the server decides what to keep. ``write="remember"`` stores each user message verbatim;
``write="none"`` only reads. To have every message reach the thread as it is said (not only when it leaves
the FIFO queue), use ``MemoryLayerChatStore(thread_messages=True)`` as well, or a small ``token_limit``.
"""

from __future__ import annotations

import contextlib
from typing import Any, Literal

from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.llms import ChatMessage, MessageRole
from llama_index.core.memory.memory import BaseMemoryBlock
from memorylayer import DEFAULT_TIMEOUT_S, MemoryLayerClient
from memorylayer.errors import ConflictError, NotFoundError

from memorylayer_llamaindex.convert import _text_of, message_role_to_string
from memorylayer_llamaindex.env import env_api_key, env_url, env_workspace_id
from memorylayer_llamaindex.threads import ThreadWriter, thread_id_for

__all__ = ["MemoryLayerMemoryBlock"]


def _latest_user_text(messages: list[ChatMessage] | None) -> str:
    for message in reversed(messages or []):
        if message.role == MessageRole.USER:
            text = _text_of(message).strip()
            if text:
                return text
    return ""


class MemoryLayerMemoryBlock(BaseMemoryBlock[str]):
    """A ``BaseMemoryBlock`` that recalls from MemoryLayer and writes ejected chat turns back to it."""

    name: str = Field(default="memorylayer", description="The block's name in the memory template")
    description: str | None = Field(
        default="What is remembered about the user from earlier conversations.",
        description="Shown with the block's content",
    )
    priority: int = Field(default=1, description="Truncation priority (0 = never truncate)")
    base_url: str = Field(default_factory=env_url, description="MemoryLayer API URL (MEMORYLAYER_URL)")
    api_key: str | None = Field(
        default_factory=env_api_key,
        description="API key (Bearer; MEMORYLAYER_API_KEY)",
        exclude=True,
        repr=False,
    )
    workspace_id: str | None = Field(
        default_factory=env_workspace_id, description="Workspace (X-Workspace-ID; MEMORYLAYER_WORKSPACE_ID)"
    )
    timeout: float = Field(default=DEFAULT_TIMEOUT_S, description="Request timeout in seconds")
    mode: Literal["recall", "context_pack"] = Field(default="recall", description="What to inject")
    limit: int = Field(default=5, ge=1, le=100, description="Memories injected in recall mode")
    tags: list[str] = Field(default_factory=list, description="Recall only memories carrying all these tags")
    min_relevance: float | None = Field(default=None, description="Recall's relevance floor (None: server's)")
    budget_tokens: int = Field(default=1024, ge=32, description="Token budget of the context pack")
    session_id: str | None = Field(
        default=None, description="Context-pack session and thread key; None: the Memory's session_id"
    )
    write: Literal["thread", "remember", "none"] = Field(
        default="thread", description="How ejected turns are kept"
    )
    extract_now: bool = Field(default=True, description="Decompose the thread right after appending")
    thread_prefix: str = Field(default="llamaindex-", description="Thread id = prefix + session id")

    _client: MemoryLayerClient | None = PrivateAttr(default=None)

    @property
    def client(self) -> MemoryLayerClient:
        if self._client is None:
            self._client = MemoryLayerClient(
                self.base_url, api_key=self.api_key, workspace_id=self.workspace_id, timeout=self.timeout
            )
        return self._client

    @property
    def threads(self) -> ThreadWriter:
        return ThreadWriter(aclient=self.client)

    def _session(self, given: str | None) -> str:
        return self.session_id or given or "llamaindex"

    # ------------------------------------------------------------------ read
    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        query = _latest_user_text(messages)
        if self.mode == "context_pack":
            return await self._context_pack(query, self._session(block_kwargs.get("session_id")))
        if not query:
            return ""
        result = await self.client.recall(
            query, limit=self.limit, tags=self.tags or None, min_relevance=self.min_relevance
        )
        return "\n".join(f"- {memory.content}" for memory in result.memories)

    async def _context_pack(self, topic: str, session: str) -> str:
        pack = {"topic": topic or None, "budget_tokens": self.budget_tokens}
        try:
            answer = await self.client.context_pack(session, **pack)
        except NotFoundError:  # the first pack of this session opens it
            with contextlib.suppress(ConflictError):
                await self.client.create_session(session_id=session, ttl_seconds=86400)
            answer = await self.client.context_pack(session, **pack)
        return answer.rendered.strip()

    # ------------------------------------------------------------------ write
    async def _aput(self, messages: list[ChatMessage]) -> None:
        if self.write == "none" or not messages:
            return
        if self.write == "remember":
            for message in messages:
                text = _text_of(message).strip()
                if message.role == MessageRole.USER and text:
                    await self.client.remember(text, tags=["llamaindex"], idempotency_key=True)
            return
        given = next((m.additional_kwargs.get("session_id") for m in messages if m.additional_kwargs), None)
        thread = thread_id_for(self.thread_prefix, self._session(given))
        rows = [
            {"role": message_role_to_string(m.role), "content": _text_of(m)}
            for m in messages
            if _text_of(m).strip() and m.role in (MessageRole.USER, MessageRole.ASSISTANT)
        ]
        if not rows:
            return
        await self.threads.aappend(thread, rows)
        if self.extract_now:
            await self.threads.adecompose(thread)

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        """Drop the least relevant memories (the last lines) first, about 4 characters a token."""
        lines = content.splitlines()
        budget = max(0, len(content) - tokens_to_truncate * 4)
        while lines and len("\n".join(lines)) > budget:
            lines.pop()
        return "\n".join(lines) or None
