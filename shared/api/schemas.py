"""Response models of the /v1 API: what every route answers, declared once for the wire and for /openapi.json.

    >>> from datetime import UTC, datetime
    >>> Association.from_row({"id": "assoc_1", "workspace_id": "w", "source_id": "mem_a", "target_id": "mem_b",
    ...     "relationship": "related_to", "strength": 0.5, "metadata": {},
    ...     "created_at": datetime(2026, 11, 29, 14, 40, tzinfo=UTC)}).model_dump(mode="json")["created_at"]
    '2026-11-29T14:40:00Z'

Rows from the database are already typed, so ``from_row`` builds each model with ``model_construct`` (no second
validation); FastAPI then serialises it straight to JSON bytes. Extra keys that old SDKs read at the top level
(``{"session": …, **session}``) are declared as such, so the schema says what is really sent. Timestamps are ISO-8601
UTC with ``Z``, as the reference's wire (API.md §2).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self, get_args

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, WithJsonSchema, create_model

from shared.memories.serialize import etag, iso


def _iso(value: datetime | str) -> str:
    # A string is already wire form (e.g. a row that went through JSON once, such as a revision snapshot).
    return value if isinstance(value, str) else iso(value)  # type: ignore[return-value]


Timestamp = Annotated[
    datetime,
    PlainSerializer(_iso, return_type=str),
    WithJsonSchema({"type": "string", "format": "date-time", "examples": ["2026-11-29T14:40:34.508615Z"]}),
]


class Wire(BaseModel):
    """Base of every response model: field order is the wire's, unknown attributes are not accepted."""

    # defer_build: a model's validator and serializer are built on first use, not at import (a Lambda cold
    # start loads every model of its routes and uses a few).
    model_config = ConfigDict(extra="forbid", defer_build=True)

    @classmethod
    def pick(cls, row: dict[str, Any], **override: Any) -> Self:
        """The model's fields taken from ``row`` (a database row with more columns), without re-validation."""
        values = {name: row[name] for name in cls.model_fields if name in row}
        values.update(override)
        return cls.model_construct(**values)


def _absent(value: Any) -> bool:
    return value is None


def _example(model: type[BaseModel]) -> dict[str, Any]:
    examples: list[dict[str, Any]] = model.model_config["json_schema_extra"]["examples"]  # type: ignore[index,assignment]
    return examples[0]


def _wrapped_example(model: type[BaseModel], key: str, **extra: Any) -> ConfigDict:
    """An envelope's example: the flat object, the same under ``key``, and ``extra`` (a subclass would otherwise
    inherit its parent's example, which lacks the envelope's keys)."""
    return ConfigDict(json_schema_extra={"examples": [{**_example(model), key: _example(model), **extra}]})


# ---------------------------------------------------------------------------------------------------- memories
MemoryTypeOut = Literal["episodic", "semantic", "procedural", "working"]


class Memory(Wire):
    """One memory, as the reference's ``Memory`` (API.md §4). ``embedding`` is sent only when asked for."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "mem_3f2a9c1e8b7d4a60",
                    "workspace_id": "demo",
                    "tenant_id": "_default",
                    "context_id": "_default",
                    "user_id": None,
                    "observer_id": None,
                    "subject_id": None,
                    "session_id": None,
                    "content": "Alice prefers green tea",
                    "content_hash": "9b1c…",
                    "type": "semantic",
                    "subtype": "preference",
                    "importance": 0.8,
                    "tags": ["drinks"],
                    "metadata": {},
                    "refinement_metadata": {},
                    "logical_key": None,
                    "pinned": False,
                    "status": "active",
                    "abstract": None,
                    "overview": None,
                    "embedding_model": "local-minilm@384",
                    "access_count": 0,
                    "last_accessed_at": None,
                    "decay_factor": 1.0,
                    "revision": 1,
                    "etag": '"memory-1-5e0c…"',
                    "source_thread_id": None,
                    "source_message_ids": [],
                    "source_memory_id": None,
                    "fact_key": None,
                    "sequence_key": None,
                    "sequence_index": None,
                    "valid_from": None,
                    "valid_to": None,
                    "superseded_by": None,
                    "event_time": None,
                    "created_at": "2026-11-29T14:40:34.508615Z",
                    "updated_at": "2026-11-29T14:40:34.508615Z",
                    "deleted_at": None,
                }
            ]
        }
    )

    id: str
    workspace_id: str
    tenant_id: str
    context_id: str | None
    user_id: str | None
    observer_id: str | None
    subject_id: str | None
    session_id: str | None
    content: str
    content_hash: str
    type: MemoryTypeOut
    subtype: str | None
    importance: float
    tags: list[str]
    metadata: dict[str, Any]
    refinement_metadata: dict[str, Any]
    logical_key: str | None
    pinned: bool
    status: str
    abstract: str | None = None
    overview: str | None = None
    embedding_model: str | None
    access_count: int
    last_accessed_at: Timestamp | None
    decay_factor: float
    revision: int
    etag: str
    source_thread_id: str | None
    source_message_ids: list[str]
    source_memory_id: str | None
    fact_key: str | None
    sequence_key: str | None
    sequence_index: int | None
    valid_from: Timestamp | None
    valid_to: Timestamp | None
    superseded_by: str | None
    event_time: Timestamp | None
    created_at: Timestamp
    updated_at: Timestamp
    deleted_at: Timestamp | None
    embedding: list[float] | None = Field(
        default=None,
        exclude_if=_absent,  # the key is left out, not sent as null: ~3 KB nobody asked for
        description="The embedding vector (e.g. 384 floats); only with `include_embeddings`.",
    )

    @classmethod
    def from_row(cls, row: dict[str, Any], *, embedding: bool = False) -> Self:
        """A memory row; with ``embedding``, its vector too when the row carries it."""
        values = {name: row[name] for name in _MEMORY_COLUMNS}
        values["importance"] = round(float(row["importance"]), 6)
        values["tags"] = list(row["tags"])
        values["source_message_ids"] = list(row["source_message_ids"] or [])
        values["etag"] = etag(row)
        vector = row.get("embedding") if embedding else None
        if vector is not None:
            values["embedding"] = floats(vector)
        return cls.model_construct(**values)


_MEMORY_COLUMNS = tuple(
    name
    for name in Memory.model_fields
    if name not in ("importance", "tags", "source_message_ids", "etag", "abstract", "overview", "embedding")
)


def floats(vector: Any) -> list[float]:
    """pgvector returns ``Vector`` objects; fresh embeddings are numpy arrays."""
    values = vector.to_numpy() if hasattr(vector, "to_numpy") else vector
    return [round(float(x), 7) for x in values]


class RelationWriteResult(Wire):
    """What a write did with the memory's typed relations (issue 18); sent only when something was tried."""

    resolved: int = Field(description="Relations written with both entities resolved.")
    unresolved: int = Field(
        description="Relations whose entity names matched no entity and were not created."
    )
    rejected: int = Field(
        description="Relations refused (unknown relationship, bad span, wrong entity kind)."
    )
    duplicate: int = Field(description="Relations that already existed with this memory as evidence.")
    relation_ids: list[str] = Field(description="Ids of the relations this write touched.")
    errors: list[str] = Field(description="One message per rejected relation.")


class RememberedMemory(Memory):
    """A memory as a write returns it: with the transient ``relation_write_result`` (never stored)."""

    relation_write_result: RelationWriteResult | None = Field(
        default=None,
        description="The typed-relation report of this write; null unless a relation was written, tried or refused.",
    )

    @classmethod
    def written(cls, row: dict[str, Any], *, embedding: bool = False) -> RememberedMemory:
        memory = cls.from_row(row, embedding=embedding)
        report = row.get("relation_write_result")
        if report is not None and report.any():
            memory.relation_write_result = RelationWriteResult.model_construct(**report.as_wire())
        return memory


class MemoryEnvelope(Wire):
    memory: Memory


class RememberResponse(Wire):
    memory: RememberedMemory
    replayed: bool = Field(description="True when an Idempotency-Key replay returned the stored memory.")


class IngestedMemory(Wire):
    """201 of an ingest route: the reference's ``MemoryResponse`` (no ``replayed``)."""

    memory: RememberedMemory


class MemoryList(Wire):
    memories: list[Memory]
    total_count: int = Field(description="The number of memories on this page (as the reference counts).")


class SequenceKeys(Wire):
    keys: list[str] = Field(description="Every live `sequence_key` of the workspace.")


class Revision(Wire):
    memory: dict[str, Any] = Field(description="The memory as it was after this revision (wire form).")
    revision: int
    action: str = Field(description="What made this revision: create, update, delete, restore, decay…")
    operation_id: str | None
    created_at: Timestamp


class RevisionPage(Wire):
    revisions: list[Revision]
    next_page_token: str | None = Field(
        description="Pass as `page_token` for the next page; null on the last."
    )


class Association(Wire):
    """A directed, typed edge between two memories (API.md §7 lists the relationship types)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "assoc_5d1e2f3a4b5c6d7e",
                    "workspace_id": "demo",
                    "source_id": "mem_3f2a9c1e8b7d4a60",
                    "target_id": "mem_8a7b6c5d4e3f2a10",
                    "relationship": "related_to",
                    "strength": 0.5,
                    "metadata": {},
                    "created_at": "2026-11-29T14:40:34.508615Z",
                }
            ]
        }
    )

    id: str
    workspace_id: str
    source_id: str
    target_id: str
    relationship: str
    strength: float
    metadata: dict[str, Any]
    created_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Association:
        return cls.pick(row, strength=round(float(row["strength"]), 6))


class AssociationCreated(Association):
    """The new (or existing, identical) edge: wrapped, and flat too (SDK 0.2.1 reads the top level)."""

    model_config = _wrapped_example(Association, "association")

    association: Association


class AssociationList(Wire):
    associations: list[Association]
    total_count: int


class Workspace(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "demo",
                    "tenant_id": "_default",
                    "name": "Demo",
                    "settings": {},
                    "tags": [],
                    "embedding_model": "local-minilm@384",
                    "created_at": "2026-11-29T14:40:34.508615Z",
                    "updated_at": "2026-11-29T14:40:34.508615Z",
                }
            ]
        }
    )

    id: str
    tenant_id: str
    name: str
    settings: dict[str, Any]
    tags: list[str]
    embedding_model: str | None
    created_at: Timestamp | None
    updated_at: Timestamp | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Workspace:
        return cls.pick(row, tags=list(row["tags"]))


class WorkspaceEnvelope(Workspace):
    """A workspace, wrapped and flat (SDK 0.2.1 builds `Workspace(**data)` from the top level)."""

    model_config = _wrapped_example(Workspace, "workspace")

    workspace: Workspace
    stats: dict[str, Any] | None = Field(default=None, description="Counts of memories (GET only).")


class WorkspaceList(Wire):
    workspaces: list[Workspace]


class Context(Wire):
    model_config = ConfigDict(extra="allow")  # the context row's columns, whatever the migration added

    id: str
    workspace_id: str | None = None
    name: str
    description: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    created_at: Timestamp


class ContextEnvelope(Context):
    context: Context


class ContextList(Wire):
    contexts: list[Context]


# ---------------------------------------------------------------------------------------------------- sessions
class Session(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "sess_0123456789abcdef0123456789abcdef",
                    "workspace_id": "demo",
                    "tenant_id": "_default",
                    "context_id": "_default",
                    "user_id": None,
                    "metadata": {},
                    "auto_commit": True,
                    "committed_at": None,
                    "expires_at": "2026-11-29T15:40:34.508615Z",
                    "created_at": "2026-11-29T14:40:34.508615Z",
                }
            ]
        }
    )

    id: str
    workspace_id: str
    tenant_id: str
    context_id: str | None
    user_id: str | None
    metadata: dict[str, Any]
    auto_commit: bool
    committed_at: Timestamp | None
    expires_at: Timestamp | None
    created_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Session:
        return cls.pick(row)


class SessionEnvelope(Session):
    """A session, wrapped and flat (the sync SDK 0.2.1 builds `Session(**data)` from the top level)."""

    model_config = _wrapped_example(Session, "session")

    session: Session


class SessionCreated(SessionEnvelope):
    model_config = _wrapped_example(Session, "session", briefing=None)

    briefing: dict[str, Any] | None = Field(description="The workspace briefing, when `briefing` was asked.")


class SessionList(Wire):
    sessions: list[Session]
    total_count: int


class Expiry(Wire):
    expires_at: Timestamp | None


class WorkingMemoryEntry(Wire):
    key: str
    value: Any = Field(description="Any JSON value.")
    ttl_seconds: int | None
    expires_at: Timestamp | None
    created_at: Timestamp | None
    updated_at: Timestamp | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> WorkingMemoryEntry:
        return cls.pick(row)


class WorkingMemoryEntries(Wire):
    items: list[WorkingMemoryEntry]
    total_count: int


class Checkpoint(Wire):
    """A durable transcript segment of a session (API.md §8): stored as memory ``raw_memory_id``, then indexed
    line by line into searchable memories."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "chk_0123456789abcdef0123456789abcdef",
                    "workspace_id": "demo",
                    "session_id": "sess_0123456789abcdef0123456789abcdef",
                    "raw_memory_id": "mem_chk_0123456789abcdef0123456789abcdef",
                    "source_kind": "transcript",
                    "source_sequence": 3,
                    "source_boundary": None,
                    "content_hash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                    "byte_count": 812,
                    "capture_status": "durable",
                    "index_status": "complete",
                    "enrichment_status": "skipped",
                    "idempotency_key": "turn-3",
                    "created_at": "2026-11-29T14:40:34.508615Z",
                    "updated_at": "2026-11-29T14:40:34.908615Z",
                }
            ]
        }
    )

    id: str = Field(description="`chk_` + 32 hex.")
    workspace_id: str
    session_id: str
    raw_memory_id: str = Field(
        description="The memory holding the whole segment (`mem_chk_…`), kept after the session."
    )
    source_kind: str = Field(
        description="Where the segment came from, sanitised to `[a-z0-9_-]` (default `transcript`)."
    )
    source_sequence: int | None = Field(description="The caller's sequence number of the segment, if given.")
    source_boundary: int | None = Field(description="The caller's boundary (e.g. last turn index), if given.")
    content_hash: str = Field(description="sha256 hex of the UTF-8 segment, as sent and checked.")
    byte_count: int = Field(description="Size of the segment in UTF-8 bytes.")
    capture_status: Literal["durable", "failed"] = Field(
        description="`durable` once the raw memory is stored."
    )
    index_status: Literal["pending", "complete", "failed", "skipped"] = Field(
        description="Whether the segment's lines were indexed as memories; a replay retries `pending`/`failed`."
    )
    enrichment_status: str = Field(description="LLM enrichment of the segment; `skipped` without an LLM.")
    idempotency_key: str = Field(
        description="The caller's key; a replay with it returns this same checkpoint."
    )
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Checkpoint:
        return cls.pick(row)


# ----------------------------------------------------------------------------------------------- threads, jobs
class Thread(Wire):
    id: str
    workspace_id: str
    tenant_id: str
    user_id: str | None
    context_id: str | None
    observer_id: str | None
    subject_id: str | None
    title: str | None
    metadata: dict[str, Any]
    scope: str | None
    ownership: str | None
    parent_thread: str | None
    message_count: int
    last_decomposed_index: int | None
    idle_action: str | None
    summary: str | None
    last_decomposed_at: Timestamp | None
    expires_at: Timestamp | None
    hidden_at: Timestamp | None
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Thread:
        return cls.pick(row)


class ThreadEnvelope(Wire):
    thread: Thread


class ThreadList(Wire):
    threads: list[Thread]
    total_count: int


class Message(Wire):
    id: str
    thread_id: str
    message_index: int = Field(description="0-based position in the thread.")
    role: str
    content: Any = Field(description="A string, or a list of content parts `{type, text?, data?}`.")
    metadata: dict[str, Any]
    client_message_id: str | None = Field(description="The `id` the client gave the message, if any.")
    created_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Message:
        return cls.pick(row)


class ThreadFull(Wire):
    thread: Thread
    messages: list[Message]
    total_messages: int


class MessagesAppended(Wire):
    messages: list[Message]
    thread_id: str
    new_message_count: int = Field(description="Messages the extraction job will read.")
    job_id: str | None = Field(
        description="The extraction job to poll at /v1/jobs/{job_id}, if one was queued."
    )


class MessagePage(Wire):
    messages: list[Message]
    thread_id: str
    total_count: int


class Job(Wire):
    id: str
    job_id: str = Field(description="Same as `id` (the SDK reads `job_id`).")
    workspace_id: str
    thread_id: str | None
    from_index: int | None
    to_index: int | None
    status: str = Field(description="queued, running, succeeded or failed.")
    attempts: int
    error: str | None
    result: dict[str, Any] | None
    created_at: Timestamp
    started_at: Timestamp | None
    finished_at: Timestamp | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Job:
        return cls.pick(row, job_id=row["id"])


class JobEnvelope(Job):
    job: Job


# ------------------------------------------------------------------------------------------------------- admin
class ApiKey(Wire):
    id: str
    prefix: str = Field(
        description="The key's first characters, to recognise it; the key itself is not stored."
    )
    tenant_id: str
    workspaces: list[str]
    access: Literal["read", "read_write"]
    name: str | None
    expires_at: Timestamp | None
    revoked_at: Timestamp | None
    created_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> ApiKey:
        return cls.pick(row, workspaces=list(row["workspaces"]))


class ApiKeyCreated(ApiKey):
    key: str = Field(description="The secret key: shown once, store it now.")


class ApiKeyList(Wire):
    api_keys: list[ApiKey]


# ---------------------------------------------------------------------------------------------------- entities
_ENTITY_EXAMPLE: dict[str, Any] = {
    "id": "ent_5b1f0c2a9d3e4f67", "workspace_id": "demo", "entity_type": "person", "canonical_name": "Alice Chen",
    "normalized_name": "alice chen", "aliases": ["alice", "achen"], "confidence": 1.0,
    "provenance": {"source": "knowledge_work"}, "external_ids": {"github": "achen"},
    "representative_memory_id": "mem_3f2a9c1e8b7d4a60", "status": "active", "merged_into": None,
    "created_at": "2026-11-29T14:40:34.508615Z", "updated_at": "2026-11-29T14:40:34.508615Z",
}  # fmt: skip
_RELATION_EXAMPLE: dict[str, Any] = {
    "id": "erel_0a1b2c3d4e5f6789", "workspace_id": "demo", "source_entity_id": "ent_5b1f0c2a9d3e4f67",
    "target_entity_id": "ent_9c8d7e6f5a4b3c2d", "relationship": "reviewed", "direction": "outgoing",
    "confidence": 1.0, "active": True, "created_at": "2026-11-29T14:40:34.508615Z",
    "updated_at": "2026-11-29T14:40:34.508615Z",
}  # fmt: skip


class Entity(Wire):
    """A registry entity (the reference's ``Entity``, SDK 0.2.1 ``memorylayer.models.Entity``) plus external ids."""

    model_config = ConfigDict(json_schema_extra={"examples": [_ENTITY_EXAMPLE]})

    id: str = Field(description="`ent_` + 16 hex.")
    workspace_id: str = Field(description="The workspace the entity belongs to.")
    entity_type: str = Field(description="Its kind: person, project, ticket, pull_request, document, …")
    canonical_name: str = Field(description="The name as first written.")
    normalized_name: str = Field(
        description="The lookup key: case-folded, whitespace and punctuation collapsed."
    )
    aliases: list[str] = Field(description="Other names that resolve to it (as written).")
    confidence: float = Field(description="The highest confidence any mention gave it (0–1).")
    provenance: dict[str, Any] = Field(description="Where it was first seen (e.g. the connector or profile).")
    external_ids: dict[str, Any] = Field(description='Ids in outside systems, e.g. `{"github": "achen"}`.')
    representative_memory_id: str | None = Field(description="The memory that first named it.")
    status: Literal["active", "merged"] = Field(description="`merged`: folded into `merged_into`.")
    merged_into: str | None = Field(description="The entity it was merged into (null: not merged).")
    created_at: Timestamp = Field(description="When it was created.")
    updated_at: Timestamp = Field(description="When it last changed.")


class EntityRelation(Wire):
    """A typed, directed relation between two entities (the reference's ``EntityRelation``)."""

    model_config = ConfigDict(json_schema_extra={"examples": [_RELATION_EXAMPLE]})

    id: str = Field(description="`erel_` + 16 hex.")
    workspace_id: str = Field(description="The workspace the relation belongs to.")
    source_entity_id: str = Field(description="The entity the relation goes from.")
    target_entity_id: str = Field(description="The entity the relation goes to.")
    relationship: str = Field(description="The canonical relationship, e.g. `reviewed`, `works_at`.")
    direction: str = Field(
        description="Always `outgoing`: relations are stored in their canonical direction."
    )
    confidence: float = Field(description="The highest confidence of its active evidence (0–1).")
    active: bool = Field(description="False once no active evidence (no live memory) supports it.")
    created_at: Timestamp = Field(description="When it was created.")
    updated_at: Timestamp = Field(description="When it last changed.")


class EntityRelationPath(Wire):
    """How the relational recall arm reached its memories: from a seed entity along active relations."""

    seed_entity_id: str = Field(description="The entity the query named (resolved by name or alias).")
    entity_ids: list[str] = Field(description="The entities along the path, seed first.")
    relations: list[EntityRelation] = Field(description="The relations walked, in order (one or two hops).")
    evidence_ids: list[str] = Field(description="The evidence rows that tie the last relation to memories.")
    evidence_memory_ids: list[str] = Field(description="The returned memories that are its evidence.")


class EntityList(Wire):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"entities": [_ENTITY_EXAMPLE], "total_count": 1}]}
    )

    entities: list[Entity] = Field(description="The workspace's entities of the asked status.")
    total_count: int = Field(description="How many there are in all (before the limit).")


class EntityEnvelope(Wire):
    model_config = ConfigDict(json_schema_extra={"examples": [{"entity": _ENTITY_EXAMPLE}]})

    entity: Entity = Field(description="The entity (after the change, for writes).")


class EntityDetail(Wire):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"entity": _ENTITY_EXAMPLE, "relations": [_RELATION_EXAMPLE]}]}
    )

    entity: Entity = Field(description="The entity.")
    relations: list[EntityRelation] = Field(description="Its active relations, either direction (up to 100).")


class EntityMatch(Wire):
    entity: Entity = Field(description="The entity the name resolved to.")
    matched_via: Literal["exact", "alias"] = Field(
        description="`exact`: its name; `alias`: one of its aliases."
    )
    score: float = Field(description="1.0: resolution is exact, never fuzzy.")


class EntityResolution(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"resolution": {"entity": _ENTITY_EXAMPLE, "matched_via": "alias", "score": 1.0}}]
        }
    )

    resolution: EntityMatch = Field(description="The match (a name that resolves to nothing is a 404).")


class EntityAliases(Wire):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"entity_id": "ent_5b1f0c2a9d3e4f67", "aliases": ["alice", "achen"]}]}
    )

    entity_id: str = Field(description="The entity.")
    aliases: list[str] = Field(description="Its aliases, oldest first.")


# ------------------------------------------------------------------------------------------------------ recall
class _RecalledMemory(Memory):
    """A memory as recall returns it: the memory plus how it was found."""

    model_config = ConfigDict(json_schema_extra=None)  # RecallResponse's example shows one

    relevance_score: float = Field(description="Fused relevance of the arms that found it (0–1).")
    boosted_score: float = Field(description="Relevance after the scope and recency boosts; the ranking key.")
    match_signals: list[str] = Field(
        description="Which arms found it: vector, keyword, context, association, recency, relational."
    )
    source_scope: str = Field(description="Where it was found (same_workspace for now).")
    age_days: float = Field(description="Days since it was created.")
    freshness_score: float = Field(description="2^(−age_days/30).")
    truncated: bool | None = Field(
        default=None,
        exclude_if=_absent,
        description="Present (true) only when `budget_tokens` cut its content.",
    )


def _nulls_left_out(model: type[Wire], name: str) -> Any:
    """``model`` with every nullable field optional and left out when null (recall sends no nulls: a result is
    ~40 keys per memory, most of them null for a plain memory; the SDKs default them)."""
    fields: dict[str, Any] = {}
    for field, info in model.model_fields.items():
        if info.is_required() and type(None) in get_args(info.annotation):
            fields[field] = (
                info.annotation,
                Field(default=None, exclude_if=_absent, description=info.description),
            )
    return create_model(name, __base__=model, __doc__=model.__doc__, **fields)


if TYPE_CHECKING:  # the checker sees the fields; the wire model leaves nulls out
    RecalledMemory = _RecalledMemory
else:
    RecalledMemory = _nulls_left_out(_RecalledMemory, "RecalledMemory")


class FreshnessMetadata(Wire):
    avg_freshness: float | None
    min_freshness: float | None
    max_freshness: float | None
    severe_count: int
    moderate_count: int


class BudgetSummary(Wire):
    requested: int | None = Field(description="`budget_tokens` as asked (null: no budget).")
    used: int = Field(description="Estimated tokens of the memories sent.")
    estimator: str
    truncated_items: int
    omitted_items: int


class RecallResponse(Wire):
    """The reference's ``RecallResult`` (API.md §6), without the keys that are always null here (query_rewritten,
    trajectory, …): what the SDKs read, no more."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "memories": [
                        {"id": "mem_3f2a9c1e8b7d4a60", "workspace_id": "demo", "tenant_id": "_default",
                         "context_id": "_default", "content": "Alice prefers green tea", "content_hash": "9b1c…",
                         "type": "semantic", "subtype": "preference", "importance": 0.8, "tags": ["drinks"],
                         "metadata": {}, "refinement_metadata": {}, "pinned": False, "status": "active",
                         "embedding_model": "local-minilm@384", "access_count": 1, "decay_factor": 1.0,
                         "revision": 1, "etag": '"memory-1-5e0c…"', "source_message_ids": [],
                         "created_at": "2026-11-29T14:40:34.508615Z", "updated_at": "2026-11-29T14:40:34.508615Z",
                         "relevance_score": 1.0, "boosted_score": 1.2, "match_signals": ["vector", "keyword"],
                         "source_scope": "same_workspace", "age_days": 0.2, "freshness_score": 0.995}
                    ],
                    "total_count": 3,
                    "query_tokens": 0,
                    "search_latency_ms": 6,
                    "mode_used": "rag",
                    "relation_paths": [],
                    "freshness_metadata": {"avg_freshness": 0.995, "min_freshness": 0.995, "max_freshness": 0.995,
                                           "severe_count": 0, "moderate_count": 0},
                    "query_intent": ["general"],
                    "retrieval_confidence": "strong",
                    "confidence_reasons": ["multiple_independent_retrieval_signals"],
                    "budget_summary": {"requested": None, "used": 8, "estimator": "chars_div_3_conservative_v1",
                                       "truncated_items": 0, "omitted_items": 0},
                }
            ]
        }
    )  # fmt: skip

    memories: list[RecalledMemory]
    total_count: int = Field(description="Size of the fused candidate pool before the limit.")
    query_tokens: int
    search_latency_ms: int
    mode_used: str
    relation_paths: list[EntityRelationPath] = Field(
        description="How the relational arm reached its memories (empty without `include_relations` or a "
        "relation in the query)."
    )
    freshness_metadata: FreshnessMetadata
    query_intent: list[str]
    retrieval_confidence: Literal["strong", "moderate", "weak"]
    confidence_reasons: list[str]
    budget_summary: BudgetSummary
    generation_summary: dict[str, Any] | None = Field(
        default=None, exclude_if=_absent, description="LLM calls and tokens (left out: no LLM was used)."
    )


# ------------------------------------------------------------------------------ batch, traverse, answer, reflect
class BatchItemResult(Wire):
    index: int = Field(description="Position of the operation in `operations`.")
    type: Literal["create", "update", "delete"]
    status: Literal["success", "error"]
    memory_id: str | None
    error: str | None


class BatchErrorGroup(Wire):
    error: str = Field(description="One distinct error message.")
    count: int = Field(description="How many operations failed with it.")
    indexes: list[int] = Field(description="Every failed operation's index, in order.")


class BatchResponse(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "total_operations": 2,
                    "successful": 1,
                    "failed": 1,
                    "results": [
                        {"index": 0, "type": "create", "status": "success", "memory_id": "mem_3f2a9c1e8b7d4a60",
                         "error": None},
                        {"index": 1, "type": "delete", "status": "error", "memory_id": "mem_0000000000000000",
                         "error": "memory mem_0000000000000000 not found"},
                    ],
                    "errors_omitted": 0,
                    "error_summary": [{"error": "memory mem_0000000000000000 not found", "count": 1,
                                       "indexes": [1]}],
                }
            ]
        }
    )  # fmt: skip

    total_operations: int
    successful: int
    failed: int
    results: list[BatchItemResult] = Field(
        description="Every success, and the first 20 failures (the rest are counted in `error_summary`)."
    )
    errors_omitted: int = Field(description="Failures left out of `results`.")
    error_summary: list[BatchErrorGroup] = Field(description="Failures grouped by message.")


class TraversePath(Wire):
    nodes: list[str]
    edges: list[Association]
    total_strength: float
    depth: int


class TraverseResponse(Wire):
    paths: list[TraversePath]
    total_paths: int
    unique_nodes: int
    truncated: bool = Field(description="True when a node, edge or size bound stopped the walk early.")
    query_latency_ms: float


class Evidence(Wire):
    id: str
    content: str
    relevance_score: float


class AnswerResponse(Wire):
    """A grounded answer: cites memory ids, abstains when recall found nothing relevant."""

    model_config = ConfigDict(extra="allow")

    query: str
    answer: str | None = Field(description="Null when abstaining or when no LLM is configured.")
    citations: list[str] = Field(description="Ids of the memories the answer rests on.")
    abstained: bool
    llm_configured: bool
    evidence: list[Evidence]
    retrieval_confidence: Literal["strong", "moderate", "weak"]
    generation_summary: dict[str, Any]


class ReflectResponse(Wire):
    reflection: str
    source_memories: list[str]
    evidence: list[Evidence]
    confidence: float
    tokens_processed: int
    llm_configured: bool
    abstained: bool


# ----------------------------------------------------------------------------------------- commit, import
class CommitResult(Wire):
    session_id: str
    memories_extracted: int = Field(description="Candidate memories read from the session.")
    memories_deduplicated: int = Field(description="Candidates already known (nothing written).")
    memories_created: int = Field(description="Memories added or superseding an older version.")
    breakdown: dict[str, int] = Field(description="Counts per outcome (added, superseded, noop, …).")
    extraction_time_ms: int
    memory_ids: list[str] = Field(description="Ids of the memories written.")


class ImportResult(Wire):
    imported: int = Field(description="Memories written.")
    skipped_duplicates: int = Field(description="Memories already in the workspace.")
    associations_imported: int
    errors: int = Field(description="Items refused (see `details`).")
    details: list[Any] = Field(description="Why each refused item was refused.")


# ------------------------------------------------------------------------------------- context pack and delta
class ContextItem(Wire):
    id: str = Field(description="The memory id, or `working:<key>` for working memory.")
    kind: str = Field(description="The section: directives, working_memory, topic_matches, memory_changes, …")
    content: str
    importance: float
    event_time: Timestamp | None
    match_signals: list[str]
    source_references: list[str] = Field(description="Ids it came from (e.g. a checkpoint's raw memory).")
    tombstone: bool = Field(
        description="True for something deleted or superseded since (rendered `[deleted]`)."
    )
    sequence: int | None = Field(
        default=None, exclude_if=_absent, description="The change's event sequence (deltas only)."
    )


class ContextGeneration(Wire):
    model_config = ConfigDict(extra="allow")

    policy: str = Field(description="`deterministic`: no LLM is called.")
    calls: int
    input_tokens: int
    output_tokens: int


class _ContextBase(Wire):
    # Open to new keys: other parts of the server add sections (e.g. the context environment's summary).
    model_config = ConfigDict(extra="allow")

    rendered: str = Field(
        description="Markdown: `## Section` headings and `- item` bullets, within the budget."
    )
    items: list[ContextItem]
    budget_summary: BudgetSummary
    generation_summary: ContextGeneration
    cursor: str = Field(description="Pass to /context-delta to get what changed after this.")
    degradation_notices: list[str] = Field(
        description="Sections that could not be built, e.g. topic retrieval."
    )


class ContextPack(_ContextBase):
    """What a model should know now (API.md §8)."""

    open_threads: list[Any] = Field(
        description="Open items echoed from working memory (open_threads, next_steps…)."
    )
    unresolved_contradictions: list[Any]


class ContextDelta(_ContextBase):
    """What changed since the cursor, in order (at least once)."""

    memory_changes: list[ContextItem]
    working_memory_changes: list[ContextItem]
    checkpoint_changes: list[ContextItem]
    sandbox_changes: list[ContextItem] = Field(
        default_factory=list,
        description="Context-environment checkpoints since the cursor: the sandbox's variables as /inspect shows "
        "them (a freed sandbox is a tombstone instead).",
    )
    tombstones: list[ContextItem]
    has_more: bool = Field(description="More changes are waiting: ask again with the new cursor.")


# ------------------------------------------------------------------------- context environment (/v1/context)
class ExecuteResult(Wire):
    """What one run of caller code did. An exception raised by the code is still a 200, with ``error`` set."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "output": "3 incidents\n",
                    "result": "[1, 2, 40]",
                    "error": None,
                    "error_code": None,
                    "variables_changed": ["counts"],
                    "not_persisted": [],
                }
            ]
        }
    )

    output: str = Field(description="What the code printed (stdout), capped by the server's output limit.")
    result: str | None = Field(
        description="`repr` of the last expression, cut at `max_return_chars` (null: none, or an error)."
    )
    error: str | None = Field(description="The exception the code raised, e.g. `ZeroDivisionError: …`.")
    error_code: str | None = Field(description="`execution_error` when the code raised; else null.")
    variables_changed: list[str] = Field(description="Variables the code created or changed, sorted.")
    not_persisted: list[str] = Field(
        description="Variables that could not be kept (functions, classes, modules, open objects)."
    )


class SandboxVariable(Wire):
    type: str = Field(description="The value's Python type name, e.g. `list`.")
    preview: str = Field(description="The start of its `repr`, cut at `preview_chars` (then `...`).")
    size_bytes: int = Field(description="Size of the pickled value in bytes.")


class SandboxState(Wire):
    """Every variable of the sandbox (``/inspect`` without ``variable``); empty when there is no sandbox."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "variable_count": 1,
                    "variables": {"x": {"type": "list", "preview": "[1, 2, 40]", "size_bytes": 21}},
                    "total_size_bytes": 21,
                }
            ]
        }
    )

    variable_count: int = Field(description="How many variables the sandbox holds.")
    variables: dict[str, SandboxVariable] = Field(description="Each variable by name.")
    total_size_bytes: int = Field(description="Sum of the variables' pickled sizes.")


class SandboxVariableDetail(Wire):
    """One variable (``/inspect?variable=…``)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"variable": "x", "type": "list", "preview": "[1, 2, 40]", "size_bytes": 21}]
        }
    )

    variable: str = Field(description="The variable's name.")
    type: str = Field(description="The value's Python type name, e.g. `list`.")
    preview: str = Field(description="The start of its `repr`, cut at `preview_chars` (then `...`).")
    size_bytes: int = Field(description="Size of the pickled value in bytes.")


class LoadResult(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "count": 3,
                    "variable": "mems",
                    "query": "redis incidents",
                    "total_available": 7,
                    "error": None,
                }
            ]
        }
    )

    count: int = Field(description="Memories stored in the variable.")
    variable: str = Field(description="The variable they were stored in, as a list of plain dicts.")
    query: str = Field(description="The query they were recalled for.")
    total_available: int = Field(description="Size of recall's candidate pool before the limit.")
    error: str | None = Field(description="Always null (failures are HTTP errors); kept for the SDK.")


class InjectResult(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"variable": "config", "type": "dict", "preview": "{'debug': True}", "error": None}]
        }
    )

    variable: str = Field(description="The variable that was set.")
    type: str | None = Field(description="Its Python type name.")
    preview: str = Field(description="The start of its `repr` (200 characters, then `...`).")
    error: str | None = Field(description="Always null (failures are HTTP errors); kept for the SDK.")


class QueryResult(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"response": "The sum is 6.", "variables_used": ["x"], "result_var": "answer", "error": None}
            ]
        }
    )

    response: str = Field(description="The LLM's answer.")
    variables_used: list[str] = Field(description="The variables it was shown.")
    result_var: str | None = Field(description="The variable the answer was stored in (null: not stored).")
    error: str | None = Field(description="Always null (failures are HTTP errors); kept for the SDK.")


class RlmResult(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "result": "2 contradictions: tea vs coffee, Lyon vs Paris",
                    "iterations": 2,
                    "trace": [
                        {"iteration": 1, "action": "execute", "code": "n = len(_memories)", "output": "",
                         "verdict": "CONTINUE"},
                        {"iteration": 2, "action": "execute", "code": "_final_result = '…'\n_goal_achieved = True",
                         "output": "", "verdict": "goal_achieved_by_code"},
                    ],
                    "error": None,
                    "goal_achieved": True,
                }
            ]
        }
    )  # fmt: skip

    result: str | None = Field(
        description="`_final_result` (else `result`) from the sandbox, as text or JSON; null if neither is set."
    )
    iterations: int = Field(description="Steps taken.")
    trace: list[dict[str, Any]] = Field(
        description="One entry per step: `iteration`, `action` (execute or stopped), and for executions "
        "`code`, `output`, `error` and the `verdict` (ACHIEVED, CONTINUE, FAILED or goal_achieved_by_code); "
        "only `iteration` and `action` with `detail_level: minimal`."
    )
    error: str | None = Field(description="Always null (failures are HTTP errors); kept for the SDK.")
    goal_achieved: bool = Field(description="True when the code set `_goal_achieved` or the LLM judged so.")


class SandboxStatus(Wire):
    """The session's sandbox, read from its row: never creates one, never runs the executor."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "exists": True,
                    "variable_count": 1,
                    "variables": ["x"],
                    "total_size_bytes": 48,
                    "memory_limit_bytes": 268435456,
                    "state_limit_bytes": 16777216,
                    "metadata": {
                        "created_at": "2026-11-29T14:40:34.508615+00:00",
                        "exec_count": 2,
                        "total_operations": 2,
                        "last_exec_at": "2026-11-29T14:41:02.114320+00:00",
                        "checkpointed_at": None,
                        "restored": True,
                    },
                }
            ]
        }
    )

    exists: bool = Field(description="Whether the session has a sandbox yet (its first write creates it).")
    variable_count: int = Field(description="How many variables it holds.")
    variables: list[str] | None = Field(
        default=None, exclude_if=_absent, description="The variables' names, sorted (left out: no sandbox)."
    )
    total_size_bytes: int = Field(description="Size of the stored state (compressed) in bytes.")
    memory_limit_bytes: int = Field(description="Address-space limit of each execution.")
    state_limit_bytes: int = Field(description="Largest state the sandbox may store (413 `state_too_large`).")
    metadata: dict[str, Any] = Field(
        description="`created_at`, `exec_count`, `total_operations`, `last_exec_at`, `checkpointed_at` and "
        "`restored` (always true: every call starts from the stored state); empty without a sandbox."
    )


# --------------------------------------------------------------------------------------- console (/console/api)
class ConsoleWhoami(Wire):
    """What the console's key may do."""

    key_id: str | None = Field(description="The API key's id (null: admin key, or no auth).")
    can_write: bool = Field(description="The key is read_write: the page shows its write controls.")
    admin: bool = Field(description="The admin key.")
    workspaces: list[str] | None = Field(description="The workspaces the key may use (null: any).")
    auth_mode: str = Field(description="The server's auth mode (`none` for local development).")


class ConsoleJobs(Wire):
    jobs: list[Job] = Field(description="The workspace's newest extraction jobs, newest first.")
    workspace_id: str


class ConsoleRelationEnd(Wire):
    id: str = Field(description="The entity's id (`ent_…`).")
    name: str = Field(description="Its canonical name.")
    type: str = Field(description="Its kind (person, project, ticket, …).")


class ConsoleRelation(Wire):
    """One typed relation a memory is evidence of, with both entities named."""

    id: str = Field(description="The relation's id (`erel_…`).")
    source: ConsoleRelationEnd = Field(description="The entity the relation starts from.")
    relationship: str = Field(description="The relation type, in its stored direction (e.g. `reviewed`).")
    target: ConsoleRelationEnd = Field(description="The entity the relation points to.")
    confidence: float = Field(description="The relation's confidence: the mean over its active evidence.")
    active: bool = Field(description="The relation still has active evidence somewhere.")
    evidence_kinds: list[str] = Field(
        description="How this memory evidences it: explicit, adapter (a profile or connector), pattern, generated."
    )
    evidence_active: bool = Field(
        description="This memory's evidence is active (false once the memory is deleted, superseded or edited)."
    )


class ConsoleMemoryRelations(Wire):
    memory_id: str
    workspace_id: str
    relations: list[ConsoleRelation] = Field(
        description="The relations, by source name, relationship and target name."
    )
