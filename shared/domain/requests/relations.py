"""Typed relations a memory is evidence for (the reference's ``models/entity_relation.py``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from shared.domain.requests.base import RequestModel

# Typed relations (the reference's ``models/entity_relation.py``).
EvidenceKind = Literal["explicit", "adapter", "pattern", "generated"]
# Relations per remember: the reference has no cap (its defect 13); each one is a few statements.
MAX_RELATIONS = 100


class EntityRelationInput(RequestModel):
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


Relations = Annotated[
    list[EntityRelationInput],
    Field(description="Typed relations this memory is evidence for (`EntityRelationInput`, at most 100)."),
]
