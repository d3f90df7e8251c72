"""Representations on the wire (POST /v1/representation and /v1/representation/user), in the reference's
shape."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.entities import Entity


class Observation(Wire):
    memory_id: str = Field(description="The memory.")
    content: str = Field(description="Its content.")
    role: Literal["self", "mention", "subject_tagged"] = Field(description="Why it is in scope (`self`).")
    relevance: float | None = Field(default=None, description="Always null: nothing is ranked.")
    event_time: Timestamp | None = Field(default=None, description="When it happened, if known.")
    match_signals: list[str] | None = Field(default=None, description="Always null: nothing is searched.")


class RepresentationProfile(Wire):
    summary: str | None = Field(
        default=None, description="A profile memory's content, else the top three joined."
    )
    source_memory_ids: list[str] = Field(default_factory=list, description="The memories it is made of.")
    derived: bool = Field(default=False, description="Always false: no LLM.")


class UserRepresentation(Wire):
    user_id: str = Field(description="The user.")
    observations: list[Observation] = Field(
        description="The user's memories in the user space, newest first."
    )
    profile: RepresentationProfile | None = Field(default=None, description="A compact profile (null: none).")
    derived_beliefs: list[dict[str, Any]] = Field(default_factory=list, description="Always empty: no LLM.")
    provenance: dict[str, Any] = Field(default_factory=dict, description="How it was assembled, with counts.")


class Representation(Wire):
    observer: Entity = Field(description="Who holds the view (unresolved: no id, `provenance.unresolved`).")
    subject: Entity = Field(description="Whom it is about.")
    is_self: bool = Field(description="Observer and subject are one entity (a self view).")
    observations: list[Observation] = Field(
        description="The observer's memories about the subject in the workspace, newest first."
    )
    profile: RepresentationProfile | None = Field(default=None, description="A compact profile (null: none).")
    derived_beliefs: list[dict[str, Any]] = Field(default_factory=list, description="Always empty: no LLM.")
    provenance: dict[str, Any] = Field(
        default_factory=dict,
        description="How it was resolved and scoped (self or intersection), with counts.",
    )
