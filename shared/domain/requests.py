"""Request models of the /v1 API (wire-compatible with the reference server, memorylayer-server 0.2.0).

    >>> MemoryCreate(content="  likes tea ").content
    'likes tea'

Responses are declared in ``shared.api.schemas``. Size limits that depend on settings are checked in the service, not here.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from shared.core.fields import (
    AssociationType,
    Content,
    ContentPatch,
    ContextId,
    Description,
    DisplayName,
    IdleAction,
    Importance,
    ImportancePatch,
    LogicalKey,
    Metadata,
    MetadataPatch,
    ObserverId,
    ParentThread,
    Pinned,
    PinnedPatch,
    RefinementMetadata,
    RefinementMetadataPatch,
    Role,
    SequenceKey,
    SettingsObject,
    SourceSessionId,
    Strength,
    StrengthPatch,
    SubjectId,
    Subtype,
    Tags,
    TagsPatch,
    TargetMemoryId,
    ThreadScope,
    Title,
    UserId,
    WorkspaceId,
)

# Typed relations (the reference's ``models/entity_relation.py``).
EvidenceKind = Literal["explicit", "adapter", "pattern", "generated"]
# Relations per remember: the reference has no cap (its defect 13); each one is a few statements.
MAX_RELATIONS = 100


class EntityRelationInput(BaseModel):
    model_config = ConfigDict(extra="ignore")

    source_entity_id: str | None = Field(
        default=None, min_length=1, max_length=128, description="The relation's source entity, by id."
    )
    source_entity_name: str | None = Field(
        default=None,
        min_length=1,
        max_length=512,
        description="The relation's source entity, by name or alias (created when a type is given).",
    )
    target_entity_id: str | None = Field(
        default=None, min_length=1, max_length=128, description="The relation's target entity, by id."
    )
    target_entity_name: str | None = Field(
        default=None,
        min_length=1,
        max_length=512,
        description="The relation's target entity, by name or alias (created when a type is given).",
    )
    # Our extension: an endpoint named with a kind is created when missing (typed upsert), as a profile's are;
    # without one a name only resolves (the reference's rule). The LLM extractor's relations carry kinds.
    source_entity_type: str | None = Field(
        default=None,
        pattern=r"^[a-z][a-z0-9_]{0,63}$",
        description="Our extension: the source's kind; with a name, the entity is created when missing.",
    )
    target_entity_type: str | None = Field(
        default=None,
        pattern=r"^[a-z][a-z0-9_]{0,63}$",
        description="Our extension: the target's kind; with a name, the entity is created when missing.",
    )
    relationship: str = Field(
        min_length=1,
        max_length=128,
        description="One of the 103 canonical relationships or a reverse form (`reviewed_by`); "
        "docs/relations.md.",
    )
    confidence: float = Field(
        default=1.0, ge=0.0, le=1.0, description="How sure the writer is (0–1, default 1)."
    )
    source_span_start: int | None = Field(
        default=None, ge=0, description="Where the evidence starts in `content` (character offset)."
    )
    source_span_end: int | None = Field(
        default=None,
        ge=0,
        description="Where the evidence ends in `content` (exclusive; needs `source_span_start`).",
    )
    evidence_kind: EvidenceKind = Field(
        default="explicit", description="explicit (default), adapter, pattern or generated."
    )
    extraction_method: str = Field(
        default="explicit_api",
        min_length=1,
        max_length=128,
        description="What produced the relation (default `explicit_api`).",
    )

    @model_validator(mode="after")
    def _endpoints_and_span(self) -> EntityRelationInput:
        if not (self.source_entity_id or self.source_entity_name):
            raise ValueError("source_entity_id or source_entity_name is required")
        if not (self.target_entity_id or self.target_entity_name):
            raise ValueError("target_entity_id or target_entity_name is required")
        if self.source_span_end is not None:
            if self.source_span_start is None:
                raise ValueError("source_span_end requires source_span_start")
            if self.source_span_end < self.source_span_start:
                raise ValueError("source_span_end must be >= source_span_start")
        return self


MemoryType = Literal["episodic", "semantic", "procedural", "working"]
Direction = Literal["both", "outgoing", "incoming"]

# Described field types only request bodies use (the ones responses share are in shared/core/fields.py).
QueryText = Annotated[
    str, Field(description="The question or keywords; `*` browses by recency without ranking.")
]
MinRelevance = Annotated[
    float | None,
    Field(description="Drop results under this relevance (≤0 disables the floor; null: the tolerance's)."),
]
TagFilter = Annotated[
    list[str], Field(description="Only memories with every one of these tags (matched case-insensitively).")
]
SubtypeFilter = Annotated[list[str], Field(description="Only these subtypes (any of them).")]
TypeFilter = Annotated[list[MemoryType], Field(description="Only these memory types (any of them).")]
Relations = Annotated[
    list[EntityRelationInput],
    Field(description="Typed relations this memory is evidence for (`EntityRelationInput`, at most 100)."),
]
EventTime = Annotated[
    datetime | None,
    Field(description="When the event happened (ISO-8601); temporal filters fall back to created_at."),
]
MemoryKind = Annotated[
    MemoryType | None,
    Field(description="episodic, semantic, procedural or working; classified by rules when left out."),
]
BatchMemoryId = Annotated[str, Field(description="The memory it applies to.")]


class EmailIngest(BaseModel):
    """``POST /v1/ingest/email`` (the reference's ``api/v1/schemas.py`` l.570-595)."""

    model_config = ConfigDict(extra="ignore")

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


# The names of the unknown fields of the request being handled, for the ``X-MemoryLayer-Ignored-Fields`` response
# header (shared/api/app.py sets a fresh list per request; outside a request nothing is recorded).
IGNORED_FIELDS: ContextVar[list[str] | None] = ContextVar("memorylayer_ignored_fields", default=None)

# Fields the reference server declares (and the official SDK 0.2.x sends) that we accept and do not use: never
# refused, only reported. E.g. `max_tokens` on reflect, `context` on recall (`relations` where a model lacks it).
REFERENCE_FIELDS = frozenset(
    {"relations", "max_tokens", "context", "rag_threshold", "context_id", "observer_id", "subject_id",
     "categories", "expires_in_days", "space_id", "archived_at"}
)  # fmt: skip


_HEADER_SAFE = re.compile(r"[A-Za-z0-9_.\-]{1,64}")
_IGNORED_LISTED = 20


class RequestModel(BaseModel):
    """Base of every request body. An unknown key is not stored (so it can never reach SQL as a column name)
    but it is reported: a near-miss of a real field (``"tag"`` for ``tags``) is a 422 ``unknown_field`` — a typo
    that would otherwise silently store nothing — and any other unknown key is named in the
    ``X-MemoryLayer-Ignored-Fields`` response header (SDKs send fields we do not use, so those are not refused).

    >>> RecallRequest.model_validate({"query": "tea", "tag": ["x"]})
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for RecallRequest
    ...
    """

    model_config = ConfigDict(extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _report_unknown(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = cls.model_fields
        unknown = [key for key in data if key not in fields]
        if not unknown:
            return data
        for key in unknown:
            if isinstance(key, str) and key not in REFERENCE_FIELDS:
                near = _near_miss(key, fields)
                if near:
                    raise PydanticCustomError(
                        "unknown_field",
                        "unknown field '{field}': did you mean '{suggestion}'?",
                        {"field": key, "suggestion": near},
                    )
        seen = IGNORED_FIELDS.get()
        if seen is not None:
            for key in unknown:
                # A header carries only plain names, and a few of them: any key at all can arrive here.
                name = key if isinstance(key, str) and _HEADER_SAFE.fullmatch(key) else "(unprintable)"
                if name not in seen and len(seen) < _IGNORED_LISTED:
                    seen.append(name)
        return data


_Request = RequestModel


def _near_miss(key: str, fields: Mapping[str, Any]) -> str | None:
    """The field ``key`` was probably meant to be: the same name in another case (``Tags``), two letters
    swapped (``tgas``), or a close spelling (``tag``).

    >>> fields = {"tags": None, "content": None}
    >>> _near_miss("Tags", fields), _near_miss("tgas", fields), _near_miss("tag", fields), _near_miss("x", fields)
    ('tags', 'tags', 'tags', None)
    """
    folded = key.lower()
    for name in fields:
        if folded == name or _one_swap(folded, name):
            return name
    near = difflib.get_close_matches(folded, list(fields), n=1, cutoff=0.8)
    return near[0] if near else None


def _one_swap(a: str, b: str) -> bool:
    """``a`` is ``b`` with two neighbouring letters swapped."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _strip_content(value: str) -> str:
    stripped = value.strip()
    if not stripped:
        raise ValueError("content must not be empty")
    return stripped


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
        default="full", description="abstract, overview or full (default): how much of each memory to send."
    )
    include_archived: bool = Field(default=False, description="Also return archived memories.")
    include_history: bool = Field(default=False, description="Also return superseded versions of facts.")
    exclude_ids: list[str] = Field(default_factory=list, description="Never return these memory ids.")
    budget_tokens: int | None = Field(
        default=None,
        ge=1,
        description="Fit the answer into about this many tokens (estimated as characters / 3).",
    )
    include_confidence: bool = Field(
        default=True, description="Compute `retrieval_confidence` (always on; accepted for the SDK)."
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


class WorkspaceCreate(_Request):
    id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$",
        description="The workspace's id (generated when left out).",
    )
    name: DisplayName = Field(min_length=1, max_length=256)
    settings: SettingsObject = Field(default_factory=dict)
    tags: list[str] = Field(
        default_factory=list,
        description="Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them.",
    )


class WorkspaceUpdate(_Request):
    name: str | None = Field(default=None, min_length=1, max_length=256, description="A display name.")
    settings: dict[str, Any] | None = Field(default=None, description="Any JSON object of settings.")
    tags: list[str] | None = Field(
        default=None, description="Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them."
    )


class ContextCreate(_Request):
    id: str | None = Field(default=None, description="The context's id (generated when left out).")
    name: DisplayName = Field(min_length=1)
    description: Description = None
    settings: SettingsObject = Field(default_factory=dict)


class ReflectRequest(_Request):
    query: QueryText = Field(min_length=1)
    workspace_id: WorkspaceId = None
    detail_level: str | None = Field(
        default=None, description="How detailed the reflection should be (accepted for the SDK)."
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


# Who may speak in a thread, and when a message may say it was said (shared/domain/extraction/speakers.py).
MAX_SPEAKER_NAME = 128
MAX_PARTICIPANTS = 50
FUTURE_SKEW = timedelta(minutes=5)  # clocks disagree a little; a time further ahead is a mistake
SPEAKER_ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,127}$"


def _speaker_name(value: str | None) -> str | None:
    if value is None:
        return None
    name = " ".join(value.split())
    if not name:
        raise PydanticCustomError("speaker_name_empty", "a speaker name must not be empty or blank")
    return name


def _said_at(value: datetime | None) -> datetime | None:
    """A message's time: naive means UTC; later than now (plus a small skew) is refused."""
    if value is None:
        return None
    when = value if value.tzinfo else value.replace(tzinfo=UTC)
    if when > datetime.now(UTC) + FUTURE_SKEW:
        raise PydanticCustomError(
            "time_in_future",
            "a message cannot have been said after now (+{skew_s} s): {when}",
            {"skew_s": int(FUTURE_SKEW.total_seconds()), "when": when.isoformat()},
        )
    return when


SpeakerName = Annotated[
    str | None,
    Field(
        default=None,
        max_length=MAX_SPEAKER_NAME,
        description="Who said it, as OpenAI's message `name` (1–128 characters; none: the thread's user).",
    ),
]
SpeakerId = Annotated[
    str | None,
    Field(
        default=None,
        pattern=SPEAKER_ID_PATTERN,
        description="A stable id for the speaker (names change; the id keeps their facts together).",
    ),
]


class Participant(_Request):
    name: str = Field(min_length=1, max_length=MAX_SPEAKER_NAME, description="The person's name.")
    speaker_id: SpeakerId = None
    user_id: UserId = None

    _name = field_validator("name")(classmethod(lambda cls, v: _speaker_name(v)))


class ThreadCreate(_Request):
    id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$",
        description="The thread's id (generated when left out).",
    )
    workspace_id: WorkspaceId = None
    user_id: UserId = None
    context_id: ContextId = None
    observer_id: ObserverId = None
    subject_id: SubjectId = None
    title: Title = Field(default=None, max_length=1000)
    metadata: Metadata = Field(default_factory=dict)
    expires_at: datetime | None = Field(default=None, description="When it expires (ISO-8601 UTC).")
    idle_action: IdleAction = None
    scope: ThreadScope = None
    ownership: str = Field(
        default="user", description="Who owns the thread: `user` (default) or `workspace`."
    )
    parent_thread: ParentThread = None
    participants: list[Participant] = Field(
        default_factory=list,
        max_length=MAX_PARTICIPANTS,
        description="Who takes part: `{name, speaker_id?, user_id?}`; a message naming one of them is theirs.",
    )


class ThreadUpdate(_Request):
    title: Title = Field(default=None, max_length=1000)
    metadata: MetadataPatch = None
    idle_action: IdleAction = None


class ContentPart(_Request):
    type: str = Field(min_length=1, description="The part's kind, e.g. `text` or `image`.")
    text: str | None = Field(default=None, description="The part's text.")
    data: dict[str, Any] | None = Field(default=None, description="The part's structured data.")


class MessageCreate(_Request):
    id: str | None = Field(
        default=None,
        min_length=1,
        max_length=255,
        description="Your id for the message: appending it again is a no-op.",
    )
    role: Role = Field(min_length=1, max_length=64)
    content: str | list[ContentPart] = Field(
        description="A string, or a list of content parts `{type, text?, data?}`."
    )
    metadata: Metadata = Field(default_factory=dict)
    name: SpeakerName = None
    speaker_id: SpeakerId = None
    created_at: datetime | None = Field(
        default=None,
        description="When it was said (ISO-8601; naive is UTC; at most 5 minutes ahead). Default: now.",
    )
    occurred_at: datetime | None = Field(
        default=None, description="Same as `created_at` (either may be sent)."
    )

    _name = field_validator("name")(classmethod(lambda cls, v: _speaker_name(v)))
    _times = field_validator("created_at", "occurred_at")(classmethod(lambda cls, v: _said_at(v)))

    @model_validator(mode="after")
    def _one_time(self) -> MessageCreate:
        if self.created_at and self.occurred_at and self.created_at != self.occurred_at:
            raise PydanticCustomError("conflicting_times", "created_at and occurred_at name different times")
        return self

    @property
    def said_at(self) -> datetime | None:
        return self.occurred_at or self.created_at


class MessagesAppend(_Request):
    messages: list[MessageCreate] = Field(min_length=1, max_length=500, description="The messages, by index.")

    @model_validator(mode="after")
    def _speakers_capped(self) -> MessagesAppend:
        speakers = {
            (m.speaker_id or "", (m.name or "").casefold()) for m in self.messages if m.name or m.speaker_id
        }
        if len(speakers) > MAX_PARTICIPANTS:
            raise PydanticCustomError(
                "too_many_participants",
                "{n} speakers in one append; a thread has at most {cap} participants",
                {"n": len(speakers), "cap": MAX_PARTICIPANTS},
            )
        return self


class AnswerRequest(_Request):
    query: QueryText = Field(min_length=1)
    workspace_id: WorkspaceId = None
    user_id: UserId = None
    limit: int = Field(
        default=8, ge=1, le=50, description="Memories to ground the answer on (1–50, default 8)."
    )
    min_relevance: MinRelevance = Field(default=None, le=1.0)


class WorkspaceExportData(_Request):
    """An export as one JSON object (the reference's shape; our NDJSON export's lines, gathered)."""

    version: str = Field(default="1.0", description="The export format's version.")
    exported_at: str | None = Field(default=None, description="When it was exported (ISO-8601 UTC).")
    workspace_id: str | None = Field(default=None, description="The workspace it was exported from.")
    memories: list[dict[str, Any]] = Field(
        default_factory=list, description="The memories, each as the export writes it (`id`, `content`, …)."
    )
    associations: list[dict[str, Any]] = Field(
        default_factory=list, description="The associations (`source_id`, `target_id`, `relationship`, …)."
    )
    total_memories: int = Field(default=0, description="How many memories the workspace had (informative).")
    total_associations: int = Field(default=0, description="How many associations it had (informative).")
    offset: int = Field(default=0, description="The export's paging offset (informative).")
    limit: int = Field(default=0, description="The export's paging limit (informative).")


class WorkspaceImportRequest(_Request):
    """The JSON import body. A bare export object (without `data`) is accepted too, and so is the NDJSON export
    itself (`Content-Type: application/x-ndjson`)."""

    data: WorkspaceExportData = Field(description="The export to import.")


class UserErase(_Request):
    dry_run: bool = Field(default=False, description="Count what would be erased; delete nothing.")
