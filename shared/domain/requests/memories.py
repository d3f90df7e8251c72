"""Request bodies of memories: remember, update, recall, batch, associations, decay, reflect, answer, e-mail."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator

from shared.core.fields import (
    AssociationType,
    Content,
    ContentPatch,
    ContextId,
    Importance,
    ImportancePatch,
    LogicalKey,
    Metadata,
    MetadataPatch,
    ObserverId,
    Pinned,
    PinnedPatch,
    RefinementMetadata,
    RefinementMetadataPatch,
    SequenceKey,
    SourceSessionId,
    Strength,
    StrengthPatch,
    SubjectId,
    Subtype,
    Tags,
    TagsPatch,
    TargetMemoryId,
    UserId,
    WorkspaceId,
)
from shared.domain.requests.base import (
    BatchMemoryId,
    Direction,
    EventTime,
    MemoryKind,
    MemoryType,
    MinRelevance,
    QueryText,
    SubtypeFilter,
    TagFilter,
    TypeFilter,
    _Request,
    _strip_content,
)
from shared.domain.requests.relations import MAX_RELATIONS, Relations


class EmailIngest(_Request):
    """``POST /v1/ingest/email`` (the reference's ``api/v1/schemas.py`` l.570-595)."""

    sender: str = Field(
        min_length=1,
        max_length=512,
        description="The sender's address or name (becomes the `sent_by` entity).",
    )
    body: str = Field(min_length=1, description="The email's text.")
    to: list[str] = Field(
        default_factory=list,
        max_length=100,
        description="The recipients (one `sent_to` relation each, at most 100).",
    )
    subject: str | None = Field(
        default=None, max_length=1000, description="The subject line, put in the memory's text."
    )
    timestamp: datetime | None = Field(
        default=None, description="When it was sent (its date prefixes the memory's text)."
    )
    thread_id: str | None = Field(
        default=None,
        max_length=512,
        description="The mail thread's id (names the email when it has no subject or message id).",
    )
    message_id: str | None = Field(
        default=None, max_length=512, description="The email's Message-ID (kept in the memory's metadata)."
    )
    importance: float = Field(default=0.5, ge=0.0, le=1.0, description="0–1 (default 0.5), as for a memory.")
    workspace_id: WorkspaceId = None
    context_id: str | None = Field(
        default=None, description="A named sub-space of the workspace (`_default`)."
    )
    metadata: dict = Field(
        default_factory=dict,
        description="Extra metadata, stored with the email's own fields (sender, recipients, …).",
    )
    relations: Relations = Field(default_factory=list, max_length=MAX_RELATIONS)


class MemoryCreate(_Request):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"content": "Alice prefers green tea", "type": "semantic", "subtype": "preference",
                 "importance": 0.8, "tags": ["drinks"], "user_id": "alice"}
            ]
        }
    )  # fmt: skip

    content: Content = Field(min_length=1)
    workspace_id: WorkspaceId = None
    type: MemoryKind = None
    subtype: Subtype = None
    importance: Importance = Field(default=0.5, ge=0.0, le=1.0)
    tags: Tags = Field(default_factory=list)
    metadata: Metadata = Field(default_factory=dict)
    logical_key: LogicalKey = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")
    refinement_metadata: RefinementMetadata = Field(default_factory=dict)
    pinned: Pinned = False
    associations: list[str] = Field(
        default_factory=list, description="Ids of memories to link to the new one (`related_to`)."
    )
    context_id: ContextId = None
    observer_id: ObserverId = None
    subject_id: SubjectId = None
    user_id: UserId = None
    session_id: SourceSessionId = None
    scope: Literal["workspace", "user"] | None = Field(
        default=None,
        description="`workspace` (default) or `user` (the user's space shared across workspaces).",
    )
    event_time: EventTime = None
    # Our extension: append to an ordered stream; the server assigns `sequence_index` atomically.
    sequence_key: SequenceKey = Field(default=None, min_length=1, max_length=512)
    # Typed entity relations stated by this memory (shared/domain/relations, docs/relations.md).
    relations: Relations = Field(default_factory=list, max_length=MAX_RELATIONS)

    _strip = field_validator("content")(_strip_content)


class MemoryUpdate(_Request):
    content: ContentPatch = Field(default=None, min_length=1)
    type: MemoryKind = None
    subtype: Subtype = None
    importance: ImportancePatch = Field(default=None, ge=0.0, le=1.0)
    tags: TagsPatch = None
    metadata: MetadataPatch = None
    refinement_metadata: RefinementMetadataPatch = None
    pinned: PinnedPatch = None
    event_time: EventTime = None

    @field_validator("content")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        return None if value is None else _strip_content(value)


class MemoryReplace(_Request):
    """A memory's whole semantic document (``PUT /v1/memories/{id}/semantic``), as the reference replaces it:
    a field left out goes back to its default; importance, metadata, event time and ownership are kept."""

    content: Content = Field(min_length=1)
    type: MemoryType = Field(description="episodic, semantic, procedural or working (required).")
    subtype: Subtype = None
    tags: Tags = Field(default_factory=list)
    refinement_metadata: RefinementMetadata = Field(default_factory=dict)
    pinned: Pinned = False

    @field_validator("content")
    @classmethod
    def _strip(cls, value: str) -> str:
        return _strip_content(value)


class ContextTurn(_Request):
    role: str | None = Field(default=None, max_length=64, description="Who said it: user, assistant, …")
    content: str = Field(max_length=20_000, description="What was said.")


class RecallRequest(_Request):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"query": "what does Alice drink?", "limit": 5, "tags": ["drinks"]}]}
    )

    query: QueryText = Field(min_length=1)
    workspace_id: WorkspaceId = None
    types: TypeFilter = Field(default_factory=list)
    subtypes: SubtypeFilter = Field(default_factory=list)
    tags: TagFilter = Field(default_factory=list)
    context_id: ContextId = None
    observer_id: ObserverId = None
    subject_id: SubjectId = None
    user_id: UserId = None
    include_global: bool = Field(
        default=True, description="Also search the shared `_global` workspace (when the key reaches it)."
    )
    include_global_user: bool = Field(
        default=True, description="Also search the user's `_global_user` space (needs `user_id`)."
    )
    mode: Literal["rag", "llm", "hybrid", "agentic"] | None = Field(
        default=None,
        description="rag (default), hybrid, llm or agentic; llm and agentic need a configured LLM.",
    )
    tolerance: Literal["loose", "moderate", "strict"] = Field(
        default="moderate", description="Cosine floor: loose 0.15, moderate 0.3 (default), strict 0.6."
    )
    limit: int = Field(default=10, ge=1, description="How many to return at most.")
    offset: int = Field(default=0, ge=0, description="How many to skip (paging).")
    include_embeddings: bool = Field(
        default=False, description="Send each memory's embedding vector (384 floats for the default model)."
    )
    min_relevance: MinRelevance = Field(default=None, le=1.0)
    recency_weight: float | None = Field(
        default=None, ge=0.0, le=1.0, description="0–1 (default 0.2): how much newer memories are preferred."
    )
    include_associations: bool | None = Field(
        default=None, description="Expand results along associations (default true)."
    )
    traverse_depth: int | None = Field(
        default=None, ge=0, le=5, description="How many association hops to expand (0–5, default 2)."
    )
    max_expansion: int | None = Field(
        default=None, ge=1, le=500, description="At most this many memories added by expansion (default 50)."
    )
    created_after: datetime | None = Field(default=None, description="Only memories created after this time.")
    created_before: datetime | None = Field(
        default=None, description="Only memories created before this time."
    )
    event_after: datetime | None = Field(
        default=None, description="Only memories whose event_time (else created_at) is after this time."
    )
    event_before: datetime | None = Field(
        default=None, description="Only memories whose event_time (else created_at) is before this time."
    )
    time_order: Literal["asc", "desc"] | None = Field(
        default=None, description="Order the results by time (asc or desc) instead of by score."
    )
    detail_level: Literal["abstract", "overview", "full"] = Field(
        default="full",
        description="abstract (≤ 200 characters), overview (≤ 500) or full (default): send each memory's "
        "extractive tier (whole sentences of it) or its content.",
    )
    include_archived: bool = Field(default=False, description="Also return archived memories.")
    include_history: bool = Field(default=False, description="Also return superseded versions of facts.")
    exclude_ids: list[str] = Field(default_factory=list, description="Never return these memory ids.")
    budget_tokens: int | None = Field(
        default=None,
        ge=1,
        description="Fit the answer into about this many tokens (estimated as characters / 3): each memory "
        "steps down full → overview → abstract → cut short before it is left out.",
    )
    include_confidence: bool = Field(
        default=True,
        description="Compute `retrieval_confidence` and its reasons; false (or the server's "
        "`retrieval_confidence_enabled` off) answers the compatibility values: weak, no reasons.",
    )
    include_relations: bool = Field(
        default=True,
        description="Run the relational recall arm when the query names a relation (default true).",
    )
    context: list[ContextTurn] = Field(
        default_factory=list,
        max_length=50,
        description="Recent conversation turns `{role?, content}`: the last few ground the query's meaning "
        "(its embedding), so a follow-up like 'and where does she live?' finds what it refers to.",
    )
    rag_threshold: float = Field(
        default=0.8,
        ge=0.0,
        le=1.0,
        description="The reference's hybrid gate (use the LLM when the top score is below it). Accepted; recall "
        "here never calls an LLM, so hybrid answers as rag (docs/wire.md).",
    )


class BatchCreate(_Request):
    op: Literal["create"] = Field(description="Which operation: create, update or delete.")
    content: Content = Field(min_length=1)
    type: MemoryKind = None
    subtype: Subtype = None
    importance: Importance = Field(default=0.5, ge=0.0, le=1.0)
    tags: Tags = Field(default_factory=list)
    metadata: Metadata = Field(default_factory=dict)
    observer_id: ObserverId = None
    subject_id: SubjectId = None
    user_id: UserId = None
    session_id: SourceSessionId = None
    event_time: EventTime = None
    sequence_key: SequenceKey = Field(default=None, min_length=1, max_length=512)

    _strip = field_validator("content")(_strip_content)


class BatchUpdate(MemoryUpdate):
    op: Literal["update"] = Field(description="Which operation: create, update or delete.")
    memory_id: BatchMemoryId


class BatchDelete(_Request):
    op: Literal["delete"] = Field(description="Which operation: create, update or delete.")
    memory_id: BatchMemoryId
    hard: bool = Field(default=False, description="Delete for good instead of soft-deleting.")


BatchOperation = Annotated[BatchCreate | BatchUpdate | BatchDelete, Field(discriminator="op")]


class BatchRequest(_Request):
    operations: list[BatchOperation] = Field(
        min_length=1,
        description="The operations, each `{op: create|update|delete, …}`; each succeeds or fails on its "
        "own.",
    )
    workspace_id: WorkspaceId = None


class AssociationCreate(_Request):
    target_id: TargetMemoryId
    relationship: AssociationType
    strength: Strength = Field(default=0.5, ge=0.0, le=1.0)
    metadata: Metadata = Field(default_factory=dict)
    workspace_id: WorkspaceId = None


class AssociationUpdate(_Request):
    strength: StrengthPatch = Field(default=None, ge=0.0, le=1.0)
    metadata: MetadataPatch = None


class TraverseRequest(_Request):
    workspace_id: WorkspaceId = None
    max_depth: int = Field(default=2, ge=1, le=5, description="How many hops to walk (1–5, default 2).")
    relationship_types: list[str] = Field(
        default_factory=list, description="Only edges of these types (empty: all)."
    )
    direction: Direction = Field(default="both", description="both (default), outgoing or incoming.")
    min_strength: float = Field(default=0.0, ge=0.0, le=1.0, description="Only edges at least this strong.")


class DecayRequest(_Request):
    decay_rate: float = Field(
        default=0.1, ge=0.0, le=1.0, description="How much importance to take away (0–1, default 0.1)."
    )
    workspace_id: WorkspaceId = None


class ReflectRequest(_Request):
    query: QueryText = Field(min_length=1)
    workspace_id: WorkspaceId = None
    detail_level: Literal["abstract", "overview", "full"] | None = Field(
        default=None,
        description="How long the reflection may be: abstract ≤150 tokens, overview ≤500, full (the default) ≤4096.",
    )
    include_sources: bool = Field(default=True, description="Return the ids of the memories used.")
    depth: int = Field(default=2, ge=1, le=5, description="How deep to reflect (1–5; accepted for the SDK).")
    types: TypeFilter = Field(default_factory=list)
    subtypes: SubtypeFilter = Field(default_factory=list)
    tags: TagFilter = Field(default_factory=list)
    # As on recall: observer and subject filter the memories reflected on; context_id is accepted, not a filter.
    context_id: ContextId = None
    observer_id: ObserverId = None
    subject_id: SubjectId = None

    def answer_tokens(self) -> int:
        """The reflection's length cap: the reference's REFLECT_TOKEN_BUDGETS, no level being ``full``."""
        return {"abstract": 150, "overview": 500, "full": 4096}[self.detail_level or "full"]

    def recall_filters(self) -> dict[str, Any]:
        """The filters reflection's recall applies, as recall applies them."""
        return {
            "types": self.types,
            "subtypes": self.subtypes,
            "tags": self.tags,
            "context_id": self.context_id,
            "observer_id": self.observer_id,
            "subject_id": self.subject_id,
        }


class AnswerRequest(_Request):
    query: QueryText = Field(min_length=1)
    workspace_id: WorkspaceId = None
    user_id: UserId = None
    limit: int = Field(
        default=8, ge=1, le=50, description="Memories to ground the answer on (1–50, default 8)."
    )
    min_relevance: MinRelevance = Field(default=None, le=1.0)
