"""Wire models of typed relations (the reference's ``models/entity_relation.py``).

>>> EntityRelationInput(source_entity_name="Ann", target_entity_name="PLAT-1", relationship="reviewed").evidence_kind
'explicit'
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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
