"""Request models of the session and context routes (wire-compatible with the reference server).

>>> SessionCreate().ttl_seconds
3600
>>> WorkingMemorySet(items={"a": 1, "b": 2}).pairs()
[('a', 1), ('b', 2)]
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from shared.core.fields import (
    AutoCommit,
    ContentHash,
    ContextId,
    EntryTtlSeconds,
    Metadata,
    UserId,
    WorkingMemoryKey,
    WorkspaceId,
)
from shared.domain.requests import RequestModel

SESSION_ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$"
# A working-memory value: whatever JSON the caller stores under a key.
JsonValue = Annotated[Any, Field(description="Any JSON value.")]


# Unknown keys: ignored and reported (a near-miss of a field is a 422), as every request body (shared/domain/requests.py).
_Request = RequestModel


class SessionCreate(_Request):
    session_id: str | None = Field(
        default=None, pattern=SESSION_ID_PATTERN, description="The session's id (else `sess_` + 32 hex)."
    )
    workspace_id: WorkspaceId = None
    ttl_seconds: int = Field(
        default=3600,
        ge=60,
        le=86400,
        description="Seconds to live (sessions: 60–86400, default 3600; working memory: stored, not "
        "enforced).",
    )
    metadata: Metadata = Field(default_factory=dict)
    context_id: ContextId = None
    user_id: UserId = None
    auto_commit: AutoCommit = True
    working_memory: dict[str, Any] | None = Field(
        default=None, description="Working memory to set at creation, as `{key: value}`."
    )
    briefing: bool = Field(default=False, description="Also return a briefing of recent workspace activity.")
    briefing_options: dict[str, Any] | None = Field(
        default=None, description="Briefing options: lookback_minutes or lookback_hours, limit."
    )


def _key(value: str) -> str:
    value = value.strip()
    if not value or len(value) > 256:
        raise ValueError("a working-memory key is 1-256 characters")
    return value


class WorkingMemoryItem(_Request):
    key: WorkingMemoryKey
    value: JsonValue
    ttl_seconds: EntryTtlSeconds = Field(default=None, ge=1, le=30 * 86400)

    _strip = field_validator("key")(_key)


class WorkingMemorySet(_Request):
    """One key (``{key, value, ttl_seconds}``, the reference's form), or several: ``{"items": {k: v}}`` or
    ``{"items": [{key, value, ttl_seconds}, …]}``."""

    key: str | None = Field(default=None, description="A working-memory key (1–256 characters).")
    value: JsonValue = None
    ttl_seconds: EntryTtlSeconds = Field(default=None, ge=1, le=30 * 86400)
    items: dict[str, Any] | list[WorkingMemoryItem] | None = Field(
        default=None, description="Several entries at once: `{key: value}` or `[{key, value, ttl_seconds}]`."
    )

    @model_validator(mode="after")
    def _one_form(self) -> WorkingMemorySet:
        if (self.key is None) == (self.items is None):
            raise ValueError("send either key and value, or items")
        if self.key is not None:
            self.key = _key(self.key)
        if isinstance(self.items, dict):
            self.items = {_key(k): v for k, v in self.items.items()}
        if self.items is not None and not self.items:
            raise ValueError("items must not be empty")
        return self

    def entries(self) -> list[WorkingMemoryItem]:
        if self.key is not None:
            return [WorkingMemoryItem(key=self.key, value=self.value, ttl_seconds=self.ttl_seconds)]
        if isinstance(self.items, dict):
            return [
                WorkingMemoryItem(key=k, value=v, ttl_seconds=self.ttl_seconds) for k, v in self.items.items()
            ]
        return list(self.items or [])

    def pairs(self) -> list[tuple[str, Any]]:
        return [(e.key, e.value) for e in self.entries()]


class CommitOptions(_Request):
    # Accepted for the SDK; without an LLM only max_memories changes anything.
    min_importance: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Only keep memories at least this important (accepted; no LLM extraction here).",
    )
    deduplicate: bool = Field(default=True, description="Skip duplicates (accepted; no LLM extraction here).")
    categories: list[str] | None = Field(
        default=None, description="Only these categories (accepted; no LLM extraction here)."
    )
    max_memories: int = Field(
        default=50, ge=1, le=500, description="At most this many memories (1–500, default 50)."
    )


class CheckpointCreate(_Request):
    transcript_segment: str = Field(
        min_length=1,
        description="The transcript text to keep (at most the configured size, 1 MiB by default).",
    )
    content_hash: ContentHash = Field(min_length=64, max_length=64)
    idempotency_key: str = Field(
        min_length=1,
        max_length=255,
        description="Your key for this segment: a retry with it returns the same checkpoint.",
    )
    source_kind: str = Field(
        default="transcript",
        min_length=1,
        max_length=64,
        description="Where the segment came from (default `transcript`; sanitised to `[a-z0-9_-]`).",
    )
    source_sequence: int | None = Field(
        default=None, ge=0, description="Your sequence number for the segment (optional)."
    )
    source_boundary: int | None = Field(
        default=None, ge=0, description="Your boundary marker for the segment, e.g. its last turn (optional)."
    )

    @field_validator("content_hash")
    @classmethod
    def _hex(cls, value: str) -> str:
        value = value.lower()
        if any(ch not in "0123456789abcdef" for ch in value):
            raise ValueError("content_hash must be a hexadecimal SHA-256 digest")
        return value


class SectionLimits(_Request):
    directives: int = Field(
        default=8, ge=0, le=100, description="At most this many directive items (0–100, default 8)."
    )
    working_memory: int = Field(
        default=20, ge=0, le=200, description="At most this many working-memory items (0–200, default 20)."
    )
    recent_activity: int = Field(
        default=20, ge=0, le=200, description="At most this many recent-activity items (0–200, default 20)."
    )
    contradictions: int = Field(
        default=5, ge=0, le=100, description="At most this many contradiction items (0–100, default 5)."
    )
    checkpoints: int = Field(
        default=8, ge=0, le=100, description="At most this many checkpoint items (0–100, default 8)."
    )


class ContextPackRequest(_Request):
    topic: str | None = Field(
        default=None, description="What the model is working on: recalled memories about it are added."
    )
    entity_ids: list[str] = Field(
        default_factory=list, description="Entity ids to recall around (the first 8 are used)."
    )  # the first 8 are used
    entity_names: list[str] = Field(
        default_factory=list, description="Entity names to recall around (the first 8 are used)."
    )
    budget_tokens: int = Field(
        default=2048,
        ge=32,
        le=200_000,
        description="Fit the rendered pack into about this many tokens (32–200000).",
    )
    section_limits: SectionLimits = Field(
        default_factory=SectionLimits, description="Items per section at most."
    )
    include_directives: bool = Field(default=True, description="Include the directives section.")
    include_working_memory: bool = Field(default=True, description="Include the session's working memory.")
    include_recent_activity: bool = Field(default=True, description="Include recent activity.")
    include_contradictions: bool = Field(default=True, description="Include unresolved contradictions.")
    include_sandbox_summary: bool = Field(
        default=True, description="Include the context-environment summary."
    )
    include_checkpoint_recovery: bool = Field(
        default=True, description="Include raw checkpoints for recovery."
    )
    detail_level: Literal["abstract", "overview", "full"] = Field(
        default="full",
        description="abstract, overview or full (default): the form each memory starts at; the budget steps "
        "it down from there (full → overview → abstract → cut short).",
    )


class ContextDeltaRequest(_Request):
    cursor: str = Field(
        min_length=1,
        max_length=4096,
        description="The cursor from the last context pack or delta; changes after it are returned.",
    )
    budget_tokens: int = Field(
        default=2048, ge=32, le=200_000, description="Fit the delta into about this many tokens (32–200000)."
    )
