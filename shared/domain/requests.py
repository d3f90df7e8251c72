"""Request models of the /v1 API (wire-compatible with the reference server; see API.md §2, §4, §6).

    >>> MemoryCreate(content="  likes tea ").content
    'likes tea'

Responses are declared in ``shared.api.schemas``. Size limits that depend on settings are checked in the service, not here.
"""

from __future__ import annotations

import difflib
import re
from contextvars import ContextVar
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

# Typed relations (the reference's ``models/entity_relation.py``).
EvidenceKind = Literal["explicit", "adapter", "pattern", "generated"]
# Relations per remember: the reference has no cap (its defect 13); each one is a few statements.
MAX_RELATIONS = 100


class EntityRelationInput(BaseModel):
    model_config = ConfigDict(extra="ignore")

    source_entity_id: str | None = Field(default=None, min_length=1, max_length=128)
    source_entity_name: str | None = Field(default=None, min_length=1, max_length=512)
    target_entity_id: str | None = Field(default=None, min_length=1, max_length=128)
    target_entity_name: str | None = Field(default=None, min_length=1, max_length=512)
    # Our extension: an endpoint named with a kind is created when missing (typed upsert), as a profile's are;
    # without one a name only resolves (the reference's rule). The LLM extractor's relations carry kinds.
    source_entity_type: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]{0,63}$")
    target_entity_type: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]{0,63}$")
    relationship: str = Field(min_length=1, max_length=128)
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    source_span_start: int | None = Field(default=None, ge=0)
    source_span_end: int | None = Field(default=None, ge=0)
    evidence_kind: EvidenceKind = "explicit"
    extraction_method: str = Field(default="explicit_api", min_length=1, max_length=128)

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


class EmailIngest(BaseModel):
    """``POST /v1/ingest/email`` (the reference's ``api/v1/schemas.py`` l.570-595)."""

    model_config = ConfigDict(extra="ignore")

    sender: str = Field(min_length=1, max_length=512)
    body: str = Field(min_length=1)
    to: list[str] = Field(default_factory=list, max_length=100)
    subject: str | None = Field(default=None, max_length=1000)
    timestamp: datetime | None = None
    thread_id: str | None = Field(default=None, max_length=512)
    message_id: str | None = Field(default=None, max_length=512)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    workspace_id: str | None = None
    context_id: str | None = None
    metadata: dict = Field(default_factory=dict)
    relations: list[EntityRelationInput] = Field(default_factory=list, max_length=MAX_RELATIONS)


MemoryType = Literal["episodic", "semantic", "procedural", "working"]
Direction = Literal["both", "outgoing", "incoming"]


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
                near = difflib.get_close_matches(key, list(fields), n=1, cutoff=0.8)
                if near:
                    raise PydanticCustomError(
                        "unknown_field",
                        "unknown field '{field}': did you mean '{suggestion}'?",
                        {"field": key, "suggestion": near[0]},
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

    content: str = Field(min_length=1)
    workspace_id: str | None = None
    type: MemoryType | None = None
    subtype: str | None = None
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    logical_key: str | None = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")
    refinement_metadata: dict[str, Any] = Field(default_factory=dict)
    pinned: bool = False
    associations: list[str] = Field(default_factory=list)
    context_id: str | None = None
    observer_id: str | None = None
    subject_id: str | None = None
    user_id: str | None = None
    session_id: str | None = None
    scope: Literal["workspace", "user"] | None = None
    event_time: datetime | None = None
    # Our extension: append to an ordered stream; the server assigns `sequence_index` atomically.
    sequence_key: str | None = Field(default=None, min_length=1, max_length=512)
    # Typed entity relations stated by this memory (shared/domain/relations, docs/relations.md).
    relations: list[EntityRelationInput] = Field(default_factory=list, max_length=MAX_RELATIONS)

    _strip = field_validator("content")(_strip_content)


class MemoryUpdate(_Request):
    content: str | None = Field(default=None, min_length=1)
    type: MemoryType | None = None
    subtype: str | None = None
    importance: float | None = Field(default=None, ge=0.0, le=1.0)
    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None
    refinement_metadata: dict[str, Any] | None = None
    pinned: bool | None = None
    event_time: datetime | None = None

    @field_validator("content")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        return None if value is None else _strip_content(value)


class RecallRequest(_Request):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"query": "what does Alice drink?", "limit": 5, "tags": ["drinks"]}]}
    )

    query: str = Field(min_length=1)
    workspace_id: str | None = None
    types: list[MemoryType] = Field(default_factory=list)
    subtypes: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    context_id: str | None = None
    observer_id: str | None = None
    subject_id: str | None = None
    user_id: str | None = None
    include_global: bool = True
    include_global_user: bool = True
    mode: Literal["rag", "llm", "hybrid", "agentic"] | None = None
    tolerance: Literal["loose", "moderate", "strict"] = "moderate"
    limit: int = Field(default=10, ge=1)
    offset: int = Field(default=0, ge=0)
    include_embeddings: bool = False
    min_relevance: float | None = Field(default=None, le=1.0)
    recency_weight: float | None = Field(default=None, ge=0.0, le=1.0)
    include_associations: bool | None = None
    traverse_depth: int | None = Field(default=None, ge=0, le=5)
    max_expansion: int | None = Field(default=None, ge=1, le=500)
    created_after: datetime | None = None
    created_before: datetime | None = None
    event_after: datetime | None = None
    event_before: datetime | None = None
    time_order: Literal["asc", "desc"] | None = None
    detail_level: Literal["abstract", "overview", "full"] = "full"
    include_archived: bool = False
    include_history: bool = False
    exclude_ids: list[str] = Field(default_factory=list)
    budget_tokens: int | None = Field(default=None, ge=1)
    include_confidence: bool = True
    include_relations: bool = True


class BatchCreate(_Request):
    op: Literal["create"]
    content: str = Field(min_length=1)
    type: MemoryType | None = None
    subtype: str | None = None
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    observer_id: str | None = None
    subject_id: str | None = None
    user_id: str | None = None
    session_id: str | None = None
    event_time: datetime | None = None
    sequence_key: str | None = Field(default=None, min_length=1, max_length=512)

    _strip = field_validator("content")(_strip_content)


class BatchUpdate(MemoryUpdate):
    op: Literal["update"]
    memory_id: str


class BatchDelete(_Request):
    op: Literal["delete"]
    memory_id: str
    hard: bool = False


BatchOperation = Annotated[BatchCreate | BatchUpdate | BatchDelete, Field(discriminator="op")]


class BatchRequest(_Request):
    operations: list[BatchOperation] = Field(min_length=1)
    workspace_id: str | None = None


class AssociationCreate(_Request):
    target_id: str
    relationship: str
    strength: float = Field(default=0.5, ge=0.0, le=1.0)
    metadata: dict[str, Any] = Field(default_factory=dict)
    workspace_id: str | None = None


class AssociationUpdate(_Request):
    strength: float | None = Field(default=None, ge=0.0, le=1.0)
    metadata: dict[str, Any] | None = None


class TraverseRequest(_Request):
    workspace_id: str | None = None
    max_depth: int = Field(default=2, ge=1, le=5)
    relationship_types: list[str] = Field(default_factory=list)
    direction: Direction = "both"
    min_strength: float = Field(default=0.0, ge=0.0, le=1.0)


class DecayRequest(_Request):
    decay_rate: float = Field(default=0.1, ge=0.0, le=1.0)
    workspace_id: str | None = None


class WorkspaceCreate(_Request):
    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$")
    name: str = Field(min_length=1, max_length=256)
    settings: dict[str, Any] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)


class WorkspaceUpdate(_Request):
    name: str | None = Field(default=None, min_length=1, max_length=256)
    settings: dict[str, Any] | None = None
    tags: list[str] | None = None


class ContextCreate(_Request):
    id: str | None = None
    name: str = Field(min_length=1)
    description: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)


class ReflectRequest(_Request):
    query: str = Field(min_length=1)
    workspace_id: str | None = None
    detail_level: str | None = None
    include_sources: bool = True
    depth: int = Field(default=2, ge=1, le=5)
    types: list[MemoryType] = Field(default_factory=list)
    subtypes: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)


class ThreadCreate(_Request):
    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$")
    workspace_id: str | None = None
    user_id: str | None = None
    context_id: str | None = None
    observer_id: str | None = None
    subject_id: str | None = None
    title: str | None = Field(default=None, max_length=1000)
    metadata: dict[str, Any] = Field(default_factory=dict)
    expires_at: datetime | None = None
    idle_action: str | None = None
    scope: str | None = None
    ownership: str = "user"
    parent_thread: str | None = None


class ThreadUpdate(_Request):
    title: str | None = Field(default=None, max_length=1000)
    metadata: dict[str, Any] | None = None
    idle_action: str | None = None


class ContentPart(_Request):
    type: str = Field(min_length=1)
    text: str | None = None
    data: dict[str, Any] | None = None


class MessageCreate(_Request):
    id: str | None = Field(default=None, min_length=1, max_length=255)
    role: str = Field(min_length=1, max_length=64)
    content: str | list[ContentPart]
    metadata: dict[str, Any] = Field(default_factory=dict)


class MessagesAppend(_Request):
    messages: list[MessageCreate] = Field(min_length=1, max_length=500)


class AnswerRequest(_Request):
    query: str = Field(min_length=1)
    workspace_id: str | None = None
    user_id: str | None = None
    limit: int = Field(default=8, ge=1, le=50)
    min_relevance: float | None = Field(default=None, le=1.0)
