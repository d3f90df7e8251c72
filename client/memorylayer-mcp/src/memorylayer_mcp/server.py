"""MemoryLayer as MCP tools, for coding and desktop agents (Claude Desktop, Claude Code, any MCP client).

    $ MEMORYLAYER_URL=http://127.0.0.1:61001 MEMORYLAYER_WORKSPACE_ID=ws_me memorylayer-mcp            # stdio
    $ memorylayer-mcp --transport streamable-http --port 61101                     # http://127.0.0.1:61101/mcp

    >>> server = build_server(Config(url="http://127.0.0.1:61001", workspace_id="ws_me"))  # doctest: +SKIP

The server holds no state of its own: every tool is one or two HTTP calls to the MemoryLayer API, through the
SDK (``memorylayer-client``) where it has the route and plain httpx where it does not (sessions, answer).
A failed call comes back to the model as a tool error (``is_error``) with the API's status, code and message,
so it can correct its arguments instead of guessing.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

import httpx
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from memorylayer import MemoryLayerClient
from memorylayer.errors import MemoryLayerError
from memorylayer.models import Memory
from pydantic import Field

__all__ = ["Config", "MemoryLayerTools", "build_server", "main"]

T = TypeVar("T")

INSTRUCTIONS = """\
Long-term memory that outlives this conversation. Recall before answering questions about the user, their \
projects, preferences or past decisions; remember durable facts, decisions and preferences as short \
self-contained sentences (one fact per memory, names instead of pronouns). Use context_pack at the start of a \
task for a ready-to-read briefing, answer for a grounded answer with citations, associate to link related \
memories, forget for what is wrong or was asked to be forgotten."""

MEMORY_TYPES = Literal["episodic", "semantic", "procedural", "working"]
COMMON_RELATIONSHIPS = (
    "related_to, similar_to, causes, leads_to, solves, supports, contradicts, supersedes, depends_on, "
    "part_of, before, after"
)


@dataclass(frozen=True)
class Config:
    """Where the API is and who we are: ``Config.from_env()`` reads MEMORYLAYER_URL, MEMORYLAYER_API_KEY and
    MEMORYLAYER_WORKSPACE_ID (and MEMORYLAYER_SESSION_ID, the session context_pack uses by default)."""

    url: str = "http://127.0.0.1:61001"
    api_key: str | None = None
    workspace_id: str | None = None
    session_id: str = "mcp"
    timeout: float = 30.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Config:
        env = dict(os.environ if env is None else env)
        return cls(
            url=env.get("MEMORYLAYER_URL") or cls.url,
            api_key=env.get("MEMORYLAYER_API_KEY") or None,
            workspace_id=env.get("MEMORYLAYER_WORKSPACE_ID") or None,
            session_id=env.get("MEMORYLAYER_SESSION_ID") or cls.session_id,
        )


def _brief(memory: Memory) -> dict[str, Any]:
    """What a model needs of a memory: no embedding, no bookkeeping."""
    out: dict[str, Any] = {"id": memory.id, "content": memory.content, "type": memory.type}
    if memory.subtype:
        out["subtype"] = memory.subtype
    if memory.tags:
        out["tags"] = memory.tags
    out["importance"] = round(memory.importance, 3)
    if memory.relevance_score is not None:
        out["relevance"] = round(memory.relevance_score, 4)
    out["created_at"] = memory.created_at.isoformat()
    if memory.event_time is not None:
        out["event_time"] = memory.event_time.isoformat()
    return out


def _tool_error(exc: MemoryLayerError) -> ToolError:
    status = f"HTTP {exc.status_code}" if exc.status_code else "transport error"
    code = f" {exc.code}" if exc.code else ""
    return ToolError(f"MemoryLayer refused ({status}{code}): {exc.message}")


class MemoryLayerTools:
    """The tools' bodies, over one SDK client and one httpx client (for routes the SDK lacks).

    Kept apart from the MCP wiring so the tools can be called directly:
    ``await MemoryLayerTools(Config()).recall("what does Alice drink?")``.
    """

    def __init__(self, config: Config, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.config = config
        self.sdk = MemoryLayerClient(
            config.url,
            api_key=config.api_key,
            workspace_id=config.workspace_id,
            timeout=config.timeout,
            transport=transport,
        )
        headers = {"Accept": "application/json"}
        if config.api_key:
            headers["Authorization"] = f"Bearer {config.api_key}"
        if config.workspace_id:
            headers["X-Workspace-ID"] = config.workspace_id
        self.http = httpx.AsyncClient(
            base_url=self.sdk.base_url, headers=headers, timeout=config.timeout, transport=transport
        )

    async def aclose(self) -> None:
        await self.sdk.aclose()
        await self.http.aclose()

    async def _sdk(self, call: Awaitable[T]) -> T:
        try:
            return await call
        except MemoryLayerError as exc:
            raise _tool_error(exc) from exc

    async def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            response = await self.http.post(path, json=body)
        except httpx.TransportError as exc:
            raise ToolError(f"MemoryLayer unreachable at {self.config.url}: {exc}") from exc
        if response.is_success:
            return response.json()
        detail = _detail(response)
        raise ToolError(
            f"MemoryLayer refused (HTTP {response.status_code} {detail.get('code', '')}): {detail}"
        )

    async def remember(self, content: str, **options: Any) -> dict[str, Any]:
        memory = await self._sdk(
            self.sdk.remember(content, **{k: v for k, v in options.items() if v is not None})
        )
        return {"stored": True, "memory": _brief(memory)}

    async def recall(self, query: str, **options: Any) -> dict[str, Any]:
        result = await self._sdk(
            self.sdk.recall(query, **{k: v for k, v in options.items() if v is not None})
        )
        return {
            "memories": [_brief(m) for m in result.memories],
            "retrieval_confidence": result.retrieval_confidence,
        }

    async def forget(self, memory_id: str, hard: bool = False) -> dict[str, Any]:
        await self._sdk(self.sdk.forget(memory_id, hard=hard))
        return {"forgotten": memory_id, "hard": hard}

    async def associate(
        self, source_id: str, target_id: str, relationship: str, strength: float = 0.5
    ) -> dict[str, Any]:
        edge = await self._sdk(self.sdk.associate(source_id, target_id, relationship, strength=strength))
        return {
            "association": {
                "id": edge.id,
                "source_id": edge.source_id,
                "target_id": edge.target_id,
                "relationship": edge.relationship,
                "strength": edge.strength,
            }
        }

    async def context_pack(
        self, topic: str | None = None, budget_tokens: int = 2048, session_id: str | None = None
    ) -> dict[str, Any]:
        session = session_id or self.config.session_id
        body = {"topic": topic, "budget_tokens": budget_tokens}
        path = f"/v1/sessions/{session}/context-pack"
        try:
            pack = await self._post(path, body)
        except ToolError as exc:
            if "session_not_found" not in str(exc):
                raise
            # A pack belongs to a session; the agent's first pack opens it (an id the client chose, so the next
            # process reuses it).
            await self._post("/v1/sessions", {"session_id": session, "ttl_seconds": 86400})
            pack = await self._post(path, body)
        return {
            "session_id": session,
            "rendered": pack.get("rendered", ""),
            "open_threads": pack.get("open_threads", []),
            "item_ids": [item["id"] for item in pack.get("items", [])],
            "cursor": pack.get("cursor"),
        }

    async def answer(self, query: str, limit: int = 8) -> dict[str, Any]:
        result = await self._post("/v1/memories/answer", {"query": query, "limit": limit})
        return {
            "answer": result.get("answer"),
            "abstained": result.get("abstained"),
            "citations": result.get("citations", []),
            "evidence": [
                {"id": e.get("id"), "content": e.get("content")} for e in result.get("evidence", [])
            ],
            "llm_configured": result.get("llm_configured"),
            "retrieval_confidence": result.get("retrieval_confidence"),
        }


def _detail(response: httpx.Response) -> dict[str, Any]:
    try:
        detail = response.json().get("detail")
    except ValueError:
        return {"message": response.text[:300]}
    if isinstance(detail, dict):
        return detail
    return {"message": detail}


def build_server(config: Config, *, transport: httpx.AsyncBaseTransport | None = None) -> MCPServer:
    """The MCP server with its six tools; ``transport`` is for tests that talk to an in-process app."""
    tools = MemoryLayerTools(config, transport=transport)

    @asynccontextmanager
    async def lifespan(_: MCPServer) -> AsyncIterator[None]:
        try:
            yield None
        finally:
            await tools.aclose()

    server: MCPServer = MCPServer(
        name="memorylayer",
        title="MemoryLayer",
        instructions=INSTRUCTIONS,
        version="0.3.0",
        lifespan=lifespan,
    )
    write = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    read = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(
        title="Remember",
        annotations=write,
        description=(
            "Store one durable fact, preference, decision or event in long-term memory. Write it as a short, "
            "self-contained sentence that will make sense months later without this conversation (names, not "
            "pronouns; absolute dates). Returns the stored memory with its id. Repeating an identical fact "
            "returns the existing memory instead of a duplicate."
        ),
    )
    async def remember(
        content: Annotated[
            str, Field(min_length=1, description="The fact to keep, e.g. 'Alice prefers tea.'")
        ],
        type: Annotated[
            MEMORY_TYPES | None,
            Field(
                description="semantic: facts and preferences; episodic: events; procedural: how-tos; "
                "working: short-lived task state. Left out, the server classifies it."
            ),
        ] = None,
        tags: Annotated[
            list[str] | None, Field(description="Labels to filter by later, e.g. ['project:atlas', 'prefs'].")
        ] = None,
        importance: Annotated[
            float | None,
            Field(ge=0, le=1, description="0 to 1; 0.5 if left out. Use 0.8+ for must-keep facts."),
        ] = None,
        subject_id: Annotated[
            str | None, Field(description="Who or what the memory is about (a person or entity id), if any.")
        ] = None,
    ) -> dict[str, Any]:
        return await tools.remember(
            content, type=type, tags=tags, importance=importance, subject_id=subject_id
        )

    @server.tool(
        title="Recall",
        annotations=read,
        description=(
            "Search long-term memory by meaning and keywords. Use it before answering anything about the "
            "user, their work or earlier sessions. Returns the best matches (id, content, type, tags, "
            "relevance) and how confident the retrieval is; an empty list means nothing relevant is known."
        ),
    )
    async def recall(
        query: Annotated[str, Field(min_length=1, description="What you want to know, in natural language.")],
        limit: Annotated[int, Field(ge=1, le=100, description="How many memories at most.")] = 10,
        tags: Annotated[
            list[str] | None, Field(description="Only memories carrying ALL of these tags.")
        ] = None,
        types: Annotated[list[MEMORY_TYPES] | None, Field(description="Only these memory types.")] = None,
        created_after: Annotated[
            str | None, Field(description="ISO-8601 date-time; only memories created after it.")
        ] = None,
        created_before: Annotated[
            str | None, Field(description="ISO-8601 date-time; only memories created before it.")
        ] = None,
    ) -> dict[str, Any]:
        return await tools.recall(
            query,
            limit=limit,
            tags=tags,
            types=types,
            created_after=created_after,
            created_before=created_before,
        )

    @server.tool(
        title="Forget",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False),
        description=(
            "Delete a memory by id (from recall or remember), e.g. when it is wrong or the user asks you to "
            "forget it. By default the memory is soft-deleted (kept in its history, no longer recalled)."
        ),
    )
    async def forget(
        memory_id: Annotated[
            str, Field(min_length=1, description="The memory's id, e.g. 'mem_0123456789abcdef'.")
        ],
        hard: Annotated[bool, Field(description="Erase it for good instead of a soft delete.")] = False,
    ) -> dict[str, Any]:
        return await tools.forget(memory_id, hard=hard)

    @server.tool(
        title="Associate",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
        description=(
            "Link two memories with a typed relationship, so recalling one brings the other along "
            "(e.g. a bug 'caused_by' a config change, a fix 'solves' a bug). Linking the same pair again with "
            "the same relationship returns the existing link."
        ),
    )
    async def associate(
        source_id: Annotated[str, Field(min_length=1, description="Id of the memory the link starts from.")],
        target_id: Annotated[str, Field(min_length=1, description="Id of the memory the link points to.")],
        relationship: Annotated[
            str,
            Field(
                pattern=r"^[a-z][a-z_]*$",
                description=f"A lowercase relationship type, e.g. {COMMON_RELATIONSHIPS}.",
            ),
        ],
        strength: Annotated[float, Field(ge=0, le=1, description="How strong the link is, 0 to 1.")] = 0.5,
    ) -> dict[str, Any]:
        return await tools.associate(source_id, target_id, relationship, strength)

    @server.tool(
        title="Context pack",
        annotations=read,
        description=(
            "A ready-to-read briefing for the current task: standing directives and preferences, working "
            "memory, open threads, contradictions, memories matching the topic and recent activity, packed "
            "into a token budget. Call it at the start of a task; read the 'rendered' text."
        ),
    )
    async def context_pack(
        topic: Annotated[
            str | None, Field(description="What the task is about, to pull in matching memories.")
        ] = None,
        budget_tokens: Annotated[
            int, Field(ge=32, le=200_000, description="Token budget of the briefing.")
        ] = 2048,
        session_id: Annotated[
            str | None,
            Field(description="The session the pack belongs to; left out, this server's configured session."),
        ] = None,
    ) -> dict[str, Any]:
        return await tools.context_pack(topic, budget_tokens, session_id)

    @server.tool(
        title="Answer",
        annotations=read,
        description=(
            "Answer a question from memory alone, citing the memory ids used. It abstains (answer null, "
            "abstained true) when nothing relevant is remembered, instead of guessing; without a configured "
            "LLM on the server it returns the evidence for you to read."
        ),
    )
    async def answer(
        query: Annotated[str, Field(min_length=1, description="The question, in natural language.")],
        limit: Annotated[int, Field(ge=1, le=50, description="How many memories to consider.")] = 8,
    ) -> dict[str, Any]:
        return await tools.answer(query, limit)

    return server


def main(argv: list[str] | None = None) -> None:
    """``memorylayer-mcp`` (stdio) or ``memorylayer-mcp --transport streamable-http --port 61101``."""
    parser = argparse.ArgumentParser(prog="memorylayer-mcp", description=__doc__.splitlines()[0])
    parser.add_argument("--transport", choices=("stdio", "streamable-http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="streamable-http only")
    parser.add_argument("--port", type=int, default=61101, help="streamable-http only")
    args = parser.parse_args(argv)
    server = build_server(Config.from_env())
    if args.transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=args.host, port=args.port)


if __name__ == "__main__":
    main()
