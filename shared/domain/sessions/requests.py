"""Request models of the session and context routes (API.md §2, §8).

>>> SessionCreate().ttl_seconds
3600
>>> WorkingMemorySet(items={"a": 1, "b": 2}).pairs()
[('a', 1), ('b', 2)]
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator, model_validator

from shared.domain.requests import RequestModel

SESSION_ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$"


# Unknown keys: ignored and reported (a near-miss of a field is a 422), as every request body (shared/domain/requests.py).
_Request = RequestModel


class SessionCreate(_Request):
    session_id: str | None = Field(default=None, pattern=SESSION_ID_PATTERN)
    workspace_id: str | None = None
    ttl_seconds: int = Field(default=3600, ge=60, le=86400)
    metadata: dict[str, Any] = Field(default_factory=dict)
    context_id: str | None = None
    user_id: str | None = None
    auto_commit: bool = True
    working_memory: dict[str, Any] | None = None
    briefing: bool = False
    briefing_options: dict[str, Any] | None = None


def _key(value: str) -> str:
    value = value.strip()
    if not value or len(value) > 256:
        raise ValueError("a working-memory key is 1-256 characters")
    return value


class WorkingMemoryItem(_Request):
    key: str
    value: Any
    ttl_seconds: int | None = Field(default=None, ge=1, le=30 * 86400)

    _strip = field_validator("key")(_key)


class WorkingMemorySet(_Request):
    """One key (``{key, value, ttl_seconds}``, the reference's form), or several: ``{"items": {k: v}}`` or
    ``{"items": [{key, value, ttl_seconds}, …]}``."""

    key: str | None = None
    value: Any = None
    ttl_seconds: int | None = Field(default=None, ge=1, le=30 * 86400)
    items: dict[str, Any] | list[WorkingMemoryItem] | None = None

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
    min_importance: float = Field(default=0.5, ge=0.0, le=1.0)
    deduplicate: bool = True
    categories: list[str] | None = None
    max_memories: int = Field(default=50, ge=1, le=500)


class CheckpointCreate(_Request):
    transcript_segment: str = Field(min_length=1)
    content_hash: str = Field(min_length=64, max_length=64)
    idempotency_key: str = Field(min_length=1, max_length=255)
    source_kind: str = Field(default="transcript", min_length=1, max_length=64)
    source_sequence: int | None = Field(default=None, ge=0)
    source_boundary: int | None = Field(default=None, ge=0)

    @field_validator("content_hash")
    @classmethod
    def _hex(cls, value: str) -> str:
        value = value.lower()
        if any(ch not in "0123456789abcdef" for ch in value):
            raise ValueError("content_hash must be a hexadecimal SHA-256 digest")
        return value


class SectionLimits(_Request):
    directives: int = Field(default=8, ge=0, le=100)
    working_memory: int = Field(default=20, ge=0, le=200)
    recent_activity: int = Field(default=20, ge=0, le=200)
    contradictions: int = Field(default=5, ge=0, le=100)
    checkpoints: int = Field(default=8, ge=0, le=100)


class ContextPackRequest(_Request):
    topic: str | None = None
    entity_ids: list[str] = Field(default_factory=list)  # the first 8 are used
    entity_names: list[str] = Field(default_factory=list)
    budget_tokens: int = Field(default=2048, ge=32, le=200_000)
    section_limits: SectionLimits = Field(default_factory=SectionLimits)
    include_directives: bool = True
    include_working_memory: bool = True
    include_recent_activity: bool = True
    include_contradictions: bool = True
    include_sandbox_summary: bool = True
    include_checkpoint_recovery: bool = True


class ContextDeltaRequest(_Request):
    cursor: str = Field(min_length=1, max_length=4096)
    budget_tokens: int = Field(default=2048, ge=32, le=200_000)
