"""MemoryLayer as MCP tools, for coding and desktop agents (Claude Desktop, Claude Code, any MCP client).

    $ MEMORYLAYER_URL=http://127.0.0.1:61001 MEMORYLAYER_WORKSPACE_ID=ws_me memorylayer-mcp            # stdio
    $ memorylayer-mcp --transport streamable-http --port 61101                     # http://127.0.0.1:61101/mcp

    >>> server = build_server(Config(url="http://127.0.0.1:61001", workspace_id="ws_me"))  # doctest: +SKIP

The server holds no state of its own: every tool is one or a few calls of the SDK (``memorylayer-client``).
A failed call comes back to the model as a tool error (``is_error``) with the API's status, code and message,
so it can correct its arguments instead of guessing.

Each tool is one method of :class:`MemoryLayerTools`, declared once: ``@tool`` gives its title and hints, its
docstring is the description the model reads and its annotated parameters are the input schema.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from memorylayer import DEFAULT_TIMEOUT_S, MemoryLayerClient
from memorylayer.errors import MemoryLayerError, NotFoundError, TransportError
from memorylayer.models import (
    Entity,
    EntityRelation,
    EntityRelationInput,
    EntityRelationPath,
    Memory,
    RelationWriteResult,
)
from pydantic import BaseModel, Field

__all__ = ["TOOLS", "Config", "MemoryLayerTools", "ToolSpec", "build_server", "main", "register"]

P = ParamSpec("P")
R = TypeVar("R")

INSTRUCTIONS = """\
Long-term memory that outlives this conversation. Recall before answering questions about the user, their \
projects, preferences or past decisions; remember durable facts, decisions and preferences as short \
self-contained sentences (one fact per memory, names instead of pronouns). Use context_pack at the start of a \
task for a ready-to-read briefing, answer for a grounded answer with citations, associate to link related \
memories, forget for what is wrong or was asked to be forgotten. relate records who/what relates to whom \
(Bob reviewed PR-12, billing depends on ledger) and entity looks an entity up with its relations. \
context_load / context_execute / context_inspect work on memories as data in this session's Python sandbox \
(variables persist between calls)."""

# A session the server opens on first use lives a day; the next process with the same id reuses it.
SESSION_TTL_SECONDS = 86_400
# How many relation ends beyond the entity listing are named one request each.
MAX_NAME_LOOKUPS = 25
ENTITY_LISTING = 1000  # the API's largest page of entities

# ---------------------------------------------------------------------- parameter schemas shared by tools
# Module level: the tools' annotations are strings (``from __future__ import annotations``) that the MCP SDK
# evaluates in this module's namespace.
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
SESSION_FIELD = Field(
    description="The session whose sandbox to use; left out, this server's configured session (opened "
    "on first use)."
)
VARIABLE_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
TAGS_ALL = Field(description="Only memories carrying ALL of these tags.")
TYPES_ONLY = Field(description="Only these memory types.")

# ---------------------------------------------------------------------- tool hints
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
IDEMPOTENT_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)


@dataclass(frozen=True)
class Config:
    """Where the API is and who we are: ``Config.from_env()`` reads MEMORYLAYER_URL, MEMORYLAYER_API_KEY and
    MEMORYLAYER_WORKSPACE_ID (and MEMORYLAYER_SESSION_ID, the session context_pack uses by default)."""

    url: str = "http://127.0.0.1:61001"
    api_key: str | None = None
    workspace_id: str | None = None
    session_id: str = "mcp"
    timeout: float = DEFAULT_TIMEOUT_S

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Config:
        env = dict(os.environ if env is None else env)
        return cls(
            url=env.get("MEMORYLAYER_URL") or cls.url,
            api_key=env.get("MEMORYLAYER_API_KEY") or None,
            workspace_id=env.get("MEMORYLAYER_WORKSPACE_ID") or None,
            session_id=env.get("MEMORYLAYER_SESSION_ID") or cls.session_id,
        )

    def client(self) -> MemoryLayerClient:
        """The SDK client this configuration names."""
        return MemoryLayerClient(
            self.url, api_key=self.api_key, workspace_id=self.workspace_id, timeout=self.timeout
        )


# ---------------------------------------------------------------------- the tool table
@dataclass(frozen=True)
class ToolSpec:
    """How one tool is shown to the model; ``description`` is its method's docstring, as one text."""

    title: str
    annotations: ToolAnnotations
    description: str


# Tool name -> spec, in the order the tools are declared (and listed); filled by ``@tool``.
TOOLS: dict[str, ToolSpec] = {}


def tool(
    title: str, annotations: ToolAnnotations
) -> Callable[[Callable[P, Awaitable[R]]], Callable[P, Awaitable[R]]]:
    """Make a :class:`MemoryLayerTools` method an MCP tool: listed in :data:`TOOLS`, and the API's refusals
    turned into tool errors (for direct callers too)."""

    def declare(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        TOOLS[method.__name__] = ToolSpec(title, annotations, _description(method))

        @functools.wraps(method)
        async def refusals_as_tool_errors(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return await method(*args, **kwargs)
            except MemoryLayerError as exc:
                raise _tool_error(exc) from exc

        return refusals_as_tool_errors

    return declare


def _description(method: Callable[..., Any]) -> str:
    """The docstring with each paragraph on one line (as the model reads it: wrapping is the source's)."""
    paragraphs = (inspect.getdoc(method) or "").split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


def _tool_error(exc: MemoryLayerError) -> ToolError:
    if isinstance(exc, TransportError):
        return ToolError(f"MemoryLayer unreachable at {exc.url}: {exc.message}")
    code = f" {exc.code}" if exc.code else ""
    return ToolError(
        f"MemoryLayer refused (HTTP {exc.status_code}{code}): {exc.message}{_details(exc.detail)}"
    )


def _details(detail: Any) -> str:
    """What the API said beside its code and message (a limit, the other invalid fields): the model may need
    it to correct the call."""
    if isinstance(detail, dict):
        rest = {k: v for k, v in detail.items() if k not in ("code", "message")}
        return f" {json.dumps(rest, default=str)}" if rest else ""
    if isinstance(detail, list):
        # A request-validation error: the SDK's message names the first field; name the others too.
        others = [e for e in detail[1:] if isinstance(e, dict)]
        return "".join(f"; {'.'.join(map(str, e.get('loc', [])))}: {e.get('msg')}" for e in others)
    return ""


# ---------------------------------------------------------------------- the tools
class MemoryLayerTools:
    """The tools' bodies, over one SDK client. Kept apart from the MCP wiring so the tools can be called
    directly: ``await MemoryLayerTools(Config()).recall("what does Alice drink?")``.

    ``client`` is an SDK client to use instead of the one ``config`` names (a test's, or one with its own
    transport or headers); the server closes it when it stops.
    """

    def __init__(self, config: Config, *, client: MemoryLayerClient | None = None) -> None:
        self.config = config
        self.client = client if client is not None else config.client()

    async def aclose(self) -> None:
        await self.client.aclose()

    @tool("Remember", WRITE)
    async def remember(
        self,
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
        """Store one durable fact, preference, decision or event in long-term memory. Write it as a short,
        self-contained sentence that will make sense months later without this conversation (names, not
        pronouns; absolute dates). Returns the stored memory with its id. Repeating an identical fact
        returns the existing memory instead of a duplicate."""
        memory = await self.client.remember(
            content, type=type, tags=tags, importance=importance, subject_id=subject_id
        )
        return {"stored": True, "memory": _brief(memory)}

    @tool("Recall", READ)
    async def recall(
        self,
        query: Annotated[str, Field(min_length=1, description="What you want to know, in natural language.")],
        limit: Annotated[int, Field(ge=1, le=100, description="How many memories at most.")] = 10,
        tags: Annotated[list[str] | None, TAGS_ALL] = None,
        types: Annotated[list[MEMORY_TYPES] | None, TYPES_ONLY] = None,
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
        """Search long-term memory by meaning and keywords. Use it before answering anything about the
        user, their work or earlier sessions. Returns the best matches (id, content, type, tags,
        relevance) and how confident the retrieval is; an empty list means nothing relevant is known."""
        result = await self.client.recall(
            query,
            limit=limit,
            tags=tags,
            types=types,
            created_after=created_after,
            created_before=created_before,
            include_relations=include_relations,
        )
        out: dict[str, Any] = {
            "memories": [_brief(m) for m in result.memories],
            "retrieval_confidence": result.retrieval_confidence,
        }
        if result.relation_paths:
            out["relation_paths"] = await self._named_paths(result.relation_paths)
        return out

    @tool("Forget", DESTRUCTIVE)
    async def forget(
        self,
        memory_id: Annotated[
            str, Field(min_length=1, description="The memory's id, e.g. 'mem_0123456789abcdef'.")
        ],
        hard: Annotated[bool, Field(description="Erase it for good instead of a soft delete.")] = False,
    ) -> dict[str, Any]:
        """Delete a memory by id (from recall or remember), e.g. when it is wrong or the user asks you to
        forget it. By default the memory is soft-deleted (kept in its history, no longer recalled)."""
        await self.client.forget(memory_id, hard=hard)
        return {"forgotten": memory_id, "hard": hard}

    @tool("Associate", IDEMPOTENT_WRITE)
    async def associate(
        self,
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
        """Link two memories with a typed relationship, so recalling one brings the other along (e.g. a bug
        'caused_by' a config change, a fix 'solves' a bug). Linking the same pair again with the same
        relationship returns the existing link."""
        edge = await self.client.associate(source_id, target_id, relationship, strength=strength)
        return {
            "association": {
                "id": edge.id,
                "source_id": edge.source_id,
                "target_id": edge.target_id,
                "relationship": edge.relationship,
                "strength": edge.strength,
            }
        }

    @tool("Context pack", READ)
    async def context_pack(
        self,
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
        """A ready-to-read briefing for the current task: standing directives and preferences, working
        memory, open threads, contradictions, memories matching the topic and recent activity, packed into
        a token budget. Call it at the start of a task; read the 'rendered' text."""
        session = self._session(session_id)
        pack = await self._in_session(
            session, lambda: self.client.context_pack(session, topic=topic, budget_tokens=budget_tokens)
        )
        return {
            "session_id": session,
            "rendered": pack.rendered,
            "open_threads": pack.open_threads,
            "item_ids": [item.id for item in pack.items],
            "cursor": pack.cursor,
        }

    @tool("Answer", READ)
    async def answer(
        self,
        query: Annotated[str, Field(min_length=1, description="The question, in natural language.")],
        limit: Annotated[int, Field(ge=1, le=50, description="How many memories to consider.")] = 8,
    ) -> dict[str, Any]:
        """Answer a question from memory alone, citing the memory ids used. It abstains (answer null,
        abstained true) when nothing relevant is remembered, instead of guessing; without a configured LLM
        on the server it returns the evidence for you to read."""
        result = await self.client.answer(query, limit=limit)
        return {
            "answer": result.answer,
            "abstained": result.abstained,
            "citations": result.citations,
            "evidence": [{"id": e.id, "content": e.content} for e in result.evidence],
            "llm_configured": result.llm_configured,
            "retrieval_confidence": result.retrieval_confidence,
        }

    @tool("Relate", WRITE)
    async def relate(
        self,
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
        """Record a typed, directed relation between two named entities (people, projects, services,
        tickets, documents…), together with the sentence that states it, e.g. statement 'Bob Lee reviewed
        PR-12.', source 'Bob Lee', relationship 'reviewed', target 'PR-12'. The statement is stored as a
        memory (its evidence); recall then answers relational questions ('who reviewed PR-12') by following
        the relation. Returns the memory, whether the relation was written, and why not if it was not
        (unknown relationship, an entity that does not exist and has no type given)."""
        relation = EntityRelationInput(
            source_entity_name=source,
            source_entity_type=source_type or None,
            target_entity_name=target,
            target_entity_type=target_type or None,
            relationship=relationship,
            confidence=confidence,
        )
        stored = await self.client.remember(
            statement, type="semantic", tags=tags or None, relations=[relation]
        )
        return {"memory": _brief(stored), **_relation_report(stored.relation_write_result)}

    @tool("Entity", READ)
    async def entity(
        self,
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
        """Look up one entity (person, project, service, ticket…) by name or alias, or by id, with all its
        live relations: each relation's direction, type and the other entity's name. Use it to answer 'who
        owns X', 'what does X depend on' directly, or to check an entity's spelling before relate. An
        unknown name is an error (nothing is created)."""
        if not entity_id:
            if not name:
                raise ToolError("give the entity's name or its id")
            entity_id = await self._resolve(name, entity_type)
        detail = await self.client.get_entity(entity_id)
        me = detail.entity
        ends = {end for r in detail.relations for end in (r.source_entity_id, r.target_entity_id)}
        names = await self._entities(ends - {me.id})
        return {
            "entity": _entity_brief(me),
            "relations": [_relation_from(me.id, r, names) for r in detail.relations],
        }

    @tool("List entities", READ)
    async def list_entities(
        self,
        limit: Annotated[int, Field(ge=1, le=1000, description="How many entities at most.")] = 100,
    ) -> dict[str, Any]:
        """The entities this workspace knows (id, name, type, aliases), as relations and relate created
        them. Use it to see which names exist before looking one up or relating to it."""
        listed = await self.client.list_entities(limit=limit)
        return {"entities": [_entity_brief(e) for e in listed.entities], "total_count": listed.total_count}

    @tool("List users", READ)
    async def list_users(
        self,
        limit: Annotated[int, Field(ge=1, le=1000, description="How many users at most.")] = 100,
    ) -> dict[str, Any]:
        """The users this workspace holds data of (each user_id its memories, threads or sessions carry), with
        how many memories, threads and sessions each has."""
        page = await self.client.list_users(limit=limit)
        return {"users": [u.model_dump() for u in page.users]}

    @tool("Erase user", DESTRUCTIVE)
    async def erase_user(
        self,
        user_id: Annotated[str, Field(min_length=1, description="The user_id whose data is erased.")],
        dry_run: Annotated[
            bool, Field(description="Only count what would be erased; delete nothing.")
        ] = False,
    ) -> dict[str, Any]:
        """Erase everything of one user for good (their memories and those about them, their history, facts
        derived from them, relation evidence, threads, sessions) when the user asks to be forgotten entirely. It
        cannot be undone: call it with dry_run first to see the counts."""
        result = await self.client.erase_user(user_id, dry_run=dry_run)
        return {"user_id": result.user_id, "dry_run": result.dry_run, "counts": result.counts}

    @tool("Context: execute", WRITE)
    async def context_execute(
        self,
        code: Annotated[
            str,
            Field(
                min_length=1,
                description="Python source, e.g. \"n = len([m for m in mems if 'redis' in m['content']])\\nn\".",
            ),
        ],
        result_var: Annotated[
            str | None, Field(pattern=VARIABLE_NAME, description="Also store the result in this variable.")
        ] = None,
        session_id: Annotated[str | None, SESSION_FIELD] = None,
    ) -> dict[str, Any]:
        """Run Python in this session's server-side sandbox, where variables persist between calls (load
        memories into one with context_load first). The value of the last expression comes back as 'result'
        (its repr), print output as 'output'. Standard-library modules only (json, re, math, statistics,
        collections, itertools, datetime…); no files, network or processes. Code that raises is an error and
        keeps nothing of what it did."""
        session = self._session(session_id)
        done = await self._in_session(
            session, lambda: self.client.context_exec(session, code, result_var=result_var)
        )
        if done.error:
            # The code ran and raised: the model must see it as a failure (nothing of the call was kept).
            raise ToolError(f"the code raised ({done.error_code or 'error'}): {done.error}")
        return _as_sent(done)

    @tool("Context: load memories", WRITE)
    async def context_load(
        self,
        variable: Annotated[
            str, Field(pattern=VARIABLE_NAME, description="The variable to fill, e.g. 'mems'.")
        ],
        query: Annotated[str, Field(min_length=1, description="What to recall, in natural language.")],
        limit: Annotated[int, Field(ge=1, le=500, description="How many memories at most.")] = 50,
        tags: Annotated[list[str] | None, TAGS_ALL] = None,
        types: Annotated[list[MEMORY_TYPES] | None, TYPES_ONLY] = None,
        session_id: Annotated[str | None, SESSION_FIELD] = None,
    ) -> dict[str, Any]:
        """Recall memories into a sandbox variable as a list of plain dicts (id, content, type, tags,
        importance, created_at…), to count, filter or aggregate them with context_execute instead of reading
        them all. Returns how many were loaded."""
        session = self._session(session_id)
        loaded = await self._in_session(
            session,
            lambda: self.client.context_load(
                session, variable, query, limit=limit, tags=tags or None, types=types or None
            ),
        )
        return _as_sent(loaded)

    @tool("Context: inspect", READ)
    async def context_inspect(
        self,
        variable: Annotated[
            str | None, Field(description="One variable to show; left out, all of them.")
        ] = None,
        preview_chars: Annotated[
            int, Field(ge=0, le=1000, description="How much of each value's preview to show.")
        ] = 200,
        session_id: Annotated[str | None, SESSION_FIELD] = None,
    ) -> dict[str, Any]:
        """What the session's sandbox holds: every variable's type, size and a short preview, or one
        variable's. Runs no code. An unknown variable is an error."""
        session = self._session(session_id)
        seen = await self._in_session(
            session,
            lambda: self.client.context_inspect(session, variable or None, preview_chars=preview_chars),
        )
        return _as_sent(seen)

    # ------------------------------------------------------------------ helpers
    def _session(self, session_id: str | None) -> str:
        return session_id or self.config.session_id

    async def _in_session(self, session_id: str, call: Callable[[], Awaitable[R]]) -> R:
        """``call()``, opening the session first if the API does not know it yet: a context pack and a
        sandbox belong to a session, and the agent's first call opens it (under the id the client chose, so
        the next process reuses it)."""
        try:
            return await call()
        except NotFoundError as exc:
            if exc.code != "session_not_found":
                raise
        await self.client.create_session(session_id=session_id, ttl_seconds=SESSION_TTL_SECONDS)
        return await call()

    async def _resolve(self, name: str, entity_type: str | None) -> str:
        found = await self.client.resolve_entity(name, entity_type=entity_type or None)
        if found is None:
            # The SDK reads the API's 404 as "no such entity"; the model still gets the API's words.
            raise ToolError(f"MemoryLayer refused (HTTP 404 entity_not_found): no entity named {name!r}")
        return found.entity.id

    async def _entities(self, ids: Collection[str]) -> dict[str, Entity]:
        """The entities behind ``ids`` by id: the workspace's listing, then the ones it missed one by one (a
        listing stops at 1000), up to MAX_NAME_LOOKUPS; past those an id stays unnamed."""
        listed = await self.client.list_entities(limit=ENTITY_LISTING)
        known = {e.id: e for e in listed.entities}
        for missing in sorted(set(ids) - known.keys())[:MAX_NAME_LOOKUPS]:
            known[missing] = (await self.client.get_entity(missing)).entity
        return known

    async def _named_paths(self, paths: Sequence[EntityRelationPath]) -> list[dict[str, Any]]:
        """Relation paths as readable triples ("Bob Lee", "reviewed", "PR-12") instead of bare entity ids."""
        ends = {end for p in paths for r in p.relations for end in (r.source_entity_id, r.target_entity_id)}
        known = await self._entities(ends)

        def name(entity_id: str) -> str:
            found = known.get(entity_id)
            return found.canonical_name if found else entity_id

        return [
            {
                "relations": [
                    [name(r.source_entity_id), r.relationship, name(r.target_entity_id)]
                    for r in path.relations
                ],
                "evidence_memory_ids": path.evidence_memory_ids,
            }
            for path in paths
        ]


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


def _relation_report(written: RelationWriteResult | None) -> dict[str, Any]:
    """Whether the relation was written, and why not when it was not (the memory is kept either way: the
    statement is still a fact)."""
    relation_ids = written.relation_ids if written else []
    out: dict[str, Any] = {"related": bool(relation_ids), "relation_ids": relation_ids}
    if written and written.errors:
        out["relation_errors"] = written.errors
    return out


def _entity_brief(entity: Entity) -> dict[str, Any]:
    return {
        "id": entity.id,
        "name": entity.canonical_name,
        "type": entity.entity_type,
        "aliases": entity.aliases,
    }


def _relation_from(me: str, relation: EntityRelation, known: dict[str, Entity]) -> dict[str, Any]:
    """One relation as seen from entity ``me``: which way it goes and who is at the other end."""
    outgoing = relation.source_entity_id == me
    other_id = relation.target_entity_id if outgoing else relation.source_entity_id
    other = known.get(other_id)
    return {
        "direction": "outgoing" if outgoing else "incoming",
        "relationship": relation.relationship,
        "other_id": other_id,
        "other_name": other.canonical_name if other else None,
        "other_type": other.entity_type if other else None,
        "confidence": relation.confidence,
    }


def _as_sent(result: BaseModel) -> dict[str, Any]:
    """An SDK result as the API sent it: the fields the answer carried, not the model's defaults for the
    rest (a variable in a sandbox listing has no ``variable`` of its own)."""
    return result.model_dump(mode="json", exclude_unset=True)


# ---------------------------------------------------------------------- the MCP server
def register(server: MCPServer, tools: MemoryLayerTools) -> None:
    """Add every tool of :data:`TOOLS` to ``server``, bound to ``tools``."""
    for name, spec in TOOLS.items():
        server.add_tool(
            getattr(tools, name),
            name=name,
            title=spec.title,
            description=spec.description,
            annotations=spec.annotations,
        )


def build_server(config: Config, *, client: MemoryLayerClient | None = None) -> MCPServer:
    """The MCP server with its tools; ``client`` is an SDK client to call the API with instead of the one
    ``config`` names (closed when the server stops)."""
    tools = MemoryLayerTools(config, client=client)

    @asynccontextmanager
    async def lifespan(_: MCPServer) -> AsyncIterator[None]:
        try:
            yield None
        finally:
            await tools.aclose()

    server: MCPServer = MCPServer(
        name="memorylayer", title="MemoryLayer", instructions=INSTRUCTIONS, version="0.3.0", lifespan=lifespan
    )
    register(server, tools)
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
        # On a loopback host the MCP SDK refuses foreign Host and Origin headers (DNS rebinding).
        server.run("streamable-http", host=args.host, port=args.port)


if __name__ == "__main__":
    main()
