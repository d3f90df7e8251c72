"""MemoryLayer as MCP tools, for coding and desktop agents (Claude Desktop, Claude Code, any MCP client).

    $ MEMORYLAYER_URL=http://127.0.0.1:61001 MEMORYLAYER_WORKSPACE_ID=ws_me memorylayer-mcp            # stdio
    $ memorylayer-mcp --transport streamable-http --port 61101                     # http://127.0.0.1:61101/mcp

    >>> server = build_server(Config(url="http://127.0.0.1:61001", workspace_id="ws_me"))  # doctest: +SKIP

The server holds no state of its own: every tool is one or two HTTP calls to the MemoryLayer API, through the
SDK (``memorylayer-client``) where it has the route and plain httpx where it does not (sessions, answer, recall's
relation paths, the entity registry, the context environment).
A failed call comes back to the model as a tool error (``is_error``) with the API's status, code and message,
so it can correct its arguments instead of guessing.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import AsyncIterator, Awaitable, Sequence
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
memories, forget for what is wrong or was asked to be forgotten. relate records who/what relates to whom \
(Bob reviewed PR-12, billing depends on ledger) and entity looks an entity up with its relations. \
context_load / context_execute / context_inspect work on memories as data in this session's Python sandbox \
(variables persist between calls)."""

MEMORY_TYPES = Literal["episodic", "semantic", "procedural", "working"]
COMMON_RELATIONSHIPS = (
    "related_to, similar_to, causes, leads_to, solves, supports, contradicts, supersedes, depends_on, "
    "part_of, before, after"
)
ENTITY_RELATIONSHIPS = (
    "authored, reviewed, approved, decided, owns, responsible_for, member_of, employed_by, works_with, "
    "depends_on, requires, blocks, part_of, located_in, sent_to, references, supersedes, solves, causes, "
    "preferred_over"
)
ENTITY_TYPE = Field(
    default=None,
    pattern=r"^[a-z][a-z0-9_]{0,63}$",
    description="The entity's kind, e.g. person, org, project, service, ticket, document, place, concept. Given, "
    "the entity is created when no entity of that kind and name exists; left out, the name must already "
    "name an entity (or an alias of one).",
)

# Module level: the tools' annotations are strings (``from __future__ import annotations``) that the MCP SDK
# evaluates in this module's namespace.
SESSION_FIELD = Field(
    description="The session whose sandbox to use; left out, this server's configured session (opened "
    "on first use)."
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
        return await self._call("POST", path, json=body)

    async def _call(
        self,
        method: str,
        path: str,
        *,
        json: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        try:
            response = await self.http.request(method, path, json=json, params=params, headers=headers)
        except httpx.TransportError as exc:
            raise ToolError(f"MemoryLayer unreachable at {self.config.url}: {exc}") from exc
        if response.is_success:
            return response.json() if response.content else {}
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
        # Plain httpx, not the SDK: its RecallResult has no relation_paths yet.
        body = {"query": query, **{k: v for k, v in options.items() if v is not None}}
        result = await self._post("/v1/memories/recall", body)
        out: dict[str, Any] = {
            "memories": [_brief(Memory.model_validate(m)) for m in result.get("memories", [])],
            "retrieval_confidence": result.get("retrieval_confidence"),
        }
        paths = result.get("relation_paths") or []
        if paths:
            names = await self._entity_names()

            def name(entity_id: str) -> str:
                return str(names.get(entity_id, {}).get("canonical_name") or entity_id)

            # Relations as readable triples ("Bob Lee", "reviewed", "PR-12") instead of bare entity ids.
            out["relation_paths"] = [
                {
                    "relations": [
                        [name(r["source_entity_id"]), r["relationship"], name(r["target_entity_id"])]
                        for r in path.get("relations", [])
                    ],
                    "evidence_memory_ids": path.get("evidence_memory_ids", []),
                }
                for path in paths
            ]
        return out

    async def relate(
        self,
        statement: str,
        source: str,
        relationship: str,
        target: str,
        *,
        source_type: str | None = None,
        target_type: str | None = None,
        confidence: float = 1.0,
        tags: list[str] | None = None,
    ) -> dict[str, Any]:
        relation: dict[str, Any] = {
            "source_entity_name": source,
            "target_entity_name": target,
            "relationship": relationship,
            "confidence": confidence,
        }
        if source_type:
            relation["source_entity_type"] = source_type
        if target_type:
            relation["target_entity_type"] = target_type
        body: dict[str, Any] = {"content": statement, "type": "semantic", "relations": [relation]}
        if tags:
            body["tags"] = tags
        stored = (await self._post("/v1/memories", body))["memory"]
        written = stored.get("relation_write_result") or {}
        out: dict[str, Any] = {
            "memory": _brief(Memory.model_validate(stored)),
            "related": bool(written.get("relation_ids")),
            "relation_ids": written.get("relation_ids", []),
        }
        if written.get("errors"):
            # The memory is kept either way (the statement is still a fact); say why the relation is not.
            out["relation_errors"] = written["errors"]
        return out

    async def entity(
        self, name: str | None = None, entity_id: str | None = None, entity_type: str | None = None
    ) -> dict[str, Any]:
        if not entity_id:
            if not name:
                raise ToolError("give the entity's name or its id")
            params = {"name": name, **({"entity_type": entity_type} if entity_type else {})}
            found = await self._call("GET", "/v1/entities/resolve", params=params)
            entity_id = found["resolution"]["entity"]["id"]
        got = await self._call("GET", f"/v1/entities/{entity_id}")
        names = await self._entity_names()
        me = got["entity"]
        # The listing stops at 1000 entities: name the few other ends it missed one by one.
        ends = {r[k] for r in got.get("relations", []) for k in ("source_entity_id", "target_entity_id")}
        for missing in sorted(ends - names.keys() - {me["id"]})[:25]:
            names[missing] = (await self._call("GET", f"/v1/entities/{missing}"))["entity"]
        relations = []
        for r in got.get("relations", []):
            outgoing = r["source_entity_id"] == me["id"]
            other = r["target_entity_id"] if outgoing else r["source_entity_id"]
            relations.append(
                {
                    "direction": "outgoing" if outgoing else "incoming",
                    "relationship": r["relationship"],
                    "other_id": other,
                    "other_name": names.get(other, {}).get("canonical_name"),
                    "other_type": names.get(other, {}).get("entity_type"),
                    "confidence": r["confidence"],
                }
            )
        return {"entity": _entity_brief(me), "relations": relations}

    async def list_entities(self, limit: int = 100) -> dict[str, Any]:
        listed = await self._call("GET", "/v1/entities", params={"limit": limit})
        return {
            "entities": [_entity_brief(e) for e in listed.get("entities", [])],
            "total_count": listed.get("total_count"),
        }

    async def _entity_names(self) -> dict[str, dict[str, Any]]:
        listed = await self._call("GET", "/v1/entities", params={"limit": 1000})
        return {e["id"]: e for e in listed.get("entities", [])}

    async def _context(
        self,
        method: str,
        path: str,
        session_id: str | None,
        *,
        json: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        session = session_id or self.config.session_id
        headers = {"X-Session-ID": session}
        try:
            return await self._call(method, path, json=json, params=params, headers=headers)
        except ToolError as exc:
            if "session_not_found" not in str(exc):
                raise
            # A sandbox belongs to a session, as a context pack does: the first call opens it.
            await self._post("/v1/sessions", {"session_id": session, "ttl_seconds": 86400})
            return await self._call(method, path, json=json, params=params, headers=headers)

    async def context_execute(
        self, code: str, result_var: str | None = None, session_id: str | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"code": code, "return_result": True, "max_return_chars": 10_000}
        if result_var:
            body["result_var"] = result_var
        done = await self._context("POST", "/v1/context/execute", session_id, json=body)
        if done.get("error"):
            # The code ran and raised: the model must see it as a failure (nothing of the call was kept).
            raise ToolError(f"the code raised ({done.get('error_code') or 'error'}): {done['error']}")
        return done

    async def context_load(
        self,
        variable: str,
        query: str,
        limit: int = 50,
        tags: list[str] | None = None,
        types: Sequence[str] | None = None,
        session_id: str | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"var": variable, "query": query, "limit": limit}
        if tags:
            body["tags"] = tags
        if types:
            body["types"] = list(types)
        return await self._context("POST", "/v1/context/load", session_id, json=body)

    async def context_inspect(
        self, variable: str | None = None, preview_chars: int = 200, session_id: str | None = None
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"preview_chars": preview_chars}
        if variable:
            params["variable"] = variable
        return await self._context("POST", "/v1/context/inspect", session_id, params=params)

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


def _entity_brief(entity: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": entity["id"],
        "name": entity["canonical_name"],
        "type": entity["entity_type"],
        "aliases": entity.get("aliases", []),
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
    """The MCP server with its tools; ``transport`` is for tests that talk to an in-process app."""
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
        include_relations: Annotated[
            bool,
            Field(
                description="Also follow typed entity relations for relational questions ('who reviewed "
                "PR-12', 'what depends on billing'); the relations used come back as relation_paths."
            ),
        ] = True,
    ) -> dict[str, Any]:
        return await tools.recall(
            query,
            limit=limit,
            tags=tags,
            types=types,
            created_after=created_after,
            created_before=created_before,
            include_relations=include_relations,
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

    @server.tool(
        title="Relate",
        annotations=write,
        description=(
            "Record a typed, directed relation between two named entities (people, projects, services, "
            "tickets, documents…), together with the sentence that states it, e.g. statement 'Bob Lee reviewed "
            "PR-12.', source 'Bob Lee', relationship 'reviewed', target 'PR-12'. The statement is stored as a "
            "memory (its evidence); recall then answers relational questions ('who reviewed PR-12') by "
            "following the relation. Returns the memory, whether the relation was written, and why not if it "
            "was not (unknown relationship, an entity that does not exist and has no type given)."
        ),
    )
    async def relate(
        statement: Annotated[
            str, Field(min_length=1, description="A self-contained sentence stating the relation.")
        ],
        source: Annotated[
            str,
            Field(min_length=1, max_length=512, description="Name of the entity the relation starts from."),
        ],
        relationship: Annotated[
            str,
            Field(
                min_length=1,
                max_length=128,
                description=f"The relation type, e.g. {ENTITY_RELATIONSHIPS}. Reverse forms are accepted "
                "(reviewed_by, assigned_to) and stored in one direction; an unknown name is refused "
                "(relation_errors) while the statement is kept.",
            ),
        ],
        target: Annotated[
            str, Field(min_length=1, max_length=512, description="Name of the entity the relation points to.")
        ],
        source_type: Annotated[str | None, ENTITY_TYPE] = None,
        target_type: Annotated[str | None, ENTITY_TYPE] = None,
        confidence: Annotated[
            float, Field(ge=0, le=1, description="How sure the relation is, 0 to 1.")
        ] = 1.0,
        tags: Annotated[list[str] | None, Field(description="Labels for the stored statement.")] = None,
    ) -> dict[str, Any]:
        return await tools.relate(
            statement,
            source,
            relationship,
            target,
            source_type=source_type,
            target_type=target_type,
            confidence=confidence,
            tags=tags,
        )

    @server.tool(
        title="Entity",
        annotations=read,
        description=(
            "Look up one entity (person, project, service, ticket…) by name or alias, or by id, with all its "
            "live relations: each relation's direction, type and the other entity's name. Use it to answer "
            "'who owns X', 'what does X depend on' directly, or to check an entity's spelling before relate. "
            "An unknown name is an error (nothing is created)."
        ),
    )
    async def entity(
        name: Annotated[
            str | None, Field(max_length=512, description="The entity's name or an alias, any case.")
        ] = None,
        entity_id: Annotated[
            str | None, Field(max_length=128, description="The entity's id ('ent_…'), instead of a name.")
        ] = None,
        entity_type: Annotated[
            str | None, Field(max_length=64, description="Only an entity of this kind, e.g. person.")
        ] = None,
    ) -> dict[str, Any]:
        return await tools.entity(name, entity_id, entity_type)

    @server.tool(
        title="List entities",
        annotations=read,
        description=(
            "The entities this workspace knows (id, name, type, aliases), as relations and relate created "
            "them. Use it to see which names exist before looking one up or relating to it."
        ),
    )
    async def list_entities(
        limit: Annotated[int, Field(ge=1, le=1000, description="How many entities at most.")] = 100,
    ) -> dict[str, Any]:
        return await tools.list_entities(limit)

    @server.tool(
        title="Context: execute",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False),
        description=(
            "Run Python in this session's server-side sandbox, where variables persist between calls (load "
            "memories into one with context_load first). The value of the last expression comes back as "
            "'result' (its repr), print output as 'output'. Standard-library modules only (json, re, math, "
            "statistics, collections, itertools, datetime…); no files, network or processes. Code that "
            "raises is an error and keeps nothing of what it did."
        ),
    )
    async def context_execute(
        code: Annotated[
            str,
            Field(
                min_length=1,
                description="Python source, e.g. \"n = len([m for m in mems if 'redis' in m['content']])\\nn\".",
            ),
        ],
        result_var: Annotated[
            str | None,
            Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="Also store the result in this variable."),
        ] = None,
        session_id: Annotated[str | None, SESSION_FIELD] = None,
    ) -> dict[str, Any]:
        return await tools.context_execute(code, result_var, session_id)

    @server.tool(
        title="Context: load memories",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False),
        description=(
            "Recall memories into a sandbox variable as a list of plain dicts (id, content, type, tags, "
            "importance, created_at…), to count, filter or aggregate them with context_execute instead of "
            "reading them all. Returns how many were loaded."
        ),
    )
    async def context_load(
        variable: Annotated[
            str,
            Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="The variable to fill, e.g. 'mems'."),
        ],
        query: Annotated[str, Field(min_length=1, description="What to recall, in natural language.")],
        limit: Annotated[int, Field(ge=1, le=500, description="How many memories at most.")] = 50,
        tags: Annotated[
            list[str] | None, Field(description="Only memories carrying ALL of these tags.")
        ] = None,
        types: Annotated[list[MEMORY_TYPES] | None, Field(description="Only these memory types.")] = None,
        session_id: Annotated[str | None, SESSION_FIELD] = None,
    ) -> dict[str, Any]:
        return await tools.context_load(variable, query, limit, tags, types, session_id)

    @server.tool(
        title="Context: inspect",
        annotations=read,
        description=(
            "What the session's sandbox holds: every variable's type, size and a short preview, or one "
            "variable's. Runs no code. An unknown variable is an error."
        ),
    )
    async def context_inspect(
        variable: Annotated[
            str | None, Field(description="One variable to show; left out, all of them.")
        ] = None,
        preview_chars: Annotated[
            int, Field(ge=0, le=1000, description="How much of each value's preview to show.")
        ] = 200,
        session_id: Annotated[str | None, SESSION_FIELD] = None,
    ) -> dict[str, Any]:
        return await tools.context_inspect(variable, preview_chars, session_id)

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
