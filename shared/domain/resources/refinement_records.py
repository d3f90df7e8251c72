"""Refinement records: append-only, evidence-backed records of how an agent's procedural resources were changed
(proposed, decided, applied, rolled back) (/v1/refinement-records). Created once, never replaced or deleted."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from shared.core.errors import InvalidInput
from shared.core.fields import WorkspaceId
from shared.domain.requests import RequestModel
from shared.domain.resources.fields import Key, NonBlank, ResourceBody, ResourceMetadata
from shared.domain.resources.service import Document, Kind

REFINEMENT_RECORDS = Kind("refinement_record", "refinement record", "refine")

Phase = Literal["proposal", "decision", "application", "rollback"]
Scope = Literal["session", "workspace", "user", "tenant", "global"]
Outcome = Literal[
    "proposed", "approved", "rejected", "applied", "partially_applied", "failed", "rolled_back", "no_op"
]
ResourceKind = Literal["prompt_note", "memory", "skill", "agent_specification"]
Action = Literal["create", "replace", "delete", "restore"]
EvidenceKind = Literal[
    "message", "tool_result", "resource_revision", "evaluation", "user_instruction", "other"
]

# Which outcomes each phase may record.
OUTCOMES: dict[str, frozenset[str]] = {
    "proposal": frozenset({"proposed", "no_op"}),
    "decision": frozenset({"approved", "rejected"}),
    "application": frozenset({"applied", "partially_applied", "failed", "no_op"}),
    "rollback": frozenset({"rolled_back", "partially_applied", "failed", "no_op"}),
}


class _Part(RequestModel):
    """A part of a record's body: unknown keys as every body's (ignored and reported, a near miss refused)."""


def _text(limit: int, what: str) -> Any:
    return Field(min_length=1, max_length=limit, description=what)


def _optional(limit: int, what: str) -> Any:
    return Field(default=None, max_length=limit, description=what)


class RefinementEvidence(_Part):
    kind: EvidenceKind = Field(
        description="What the evidence is: message, tool_result, resource_revision, …."
    )
    reference: str = _text(2048, "Where it is (an id, a URL, a path).")
    description: str = _text(4096, "What it shows.")
    content_hash: str | None = _optional(200, "A hash of the evidence's content, to detect later change.")


class RefinementResourceSnapshot(_Part):
    resource_id: str | None = _optional(200, "The resource's id.")
    resource_key: str = _text(200, "The resource's key.")
    etag: str | None = _optional(200, "Its ETag at that moment.")
    schema_version: int | None = Field(default=None, ge=1, description="Its schema version.")
    content: dict[str, Any] | None = Field(default=None, description="Its content.")
    metadata: dict[str, Any] | None = Field(default=None, description="Its metadata.")
    deleted: bool = Field(default=False, description="Whether it was deleted.")


class RefinementEdit(_Part):
    action: Action = Field(description="What the edit does: create, replace, delete or restore.")
    resource_kind: ResourceKind = Field(
        description="What it edits: prompt_note, memory, skill, agent_specification."
    )
    resource_key: str = _text(200, "The edited resource's key.")
    resource_id: str | None = _optional(200, "The edited resource's id.")
    expected_etag: str | None = _optional(200, "The ETag the edit expected.")
    before_etag: str | None = _optional(200, "The ETag before the edit.")
    after_etag: str | None = _optional(200, "The ETag after the edit.")
    reason: str = _text(4096, "Why.")
    content: dict[str, Any] | None = Field(default=None, description="The content the edit writes.")
    before: RefinementResourceSnapshot | None = Field(default=None, description="The resource before.")
    after: RefinementResourceSnapshot | None = Field(default=None, description="The resource after.")
    applied: bool | None = Field(default=None, description="Whether it was applied (null: not attempted).")
    error: str | None = _optional(4096, "Why applying it failed.")


class RefinementExternalReference(_Part):
    system: str = _text(100, "The external system (a task tracker, an approval tool).")
    id: str = _text(500, "Its id there.")
    attempt_id: str | None = _optional(500, "The attempt's id there.")


class RefinementRecordCreate(ResourceBody):
    key: Key
    refinement_id: NonBlank = _text(200, "The refinement this record belongs to (its records share it).")
    phase: Phase = Field(description="proposal, decision, application or rollback.")
    trigger: NonBlank = _text(200, "What started the refinement.")
    scope: Scope = Field(description="How far it reaches: session, workspace, user, tenant or global.")
    summary: NonBlank = _text(4096, "What changes.")
    rationale: NonBlank = _text(16384, "Why.")
    expected_outcome: NonBlank = _text(4096, "What it should achieve.")
    evidence: list[RefinementEvidence] = Field(
        min_length=1, max_length=256, description="What supports it (1-256 items)."
    )
    edits: list[RefinementEdit] = Field(
        default_factory=list, max_length=256, description="The edits (required unless the outcome is no_op)."
    )
    outcome: Outcome = Field(description="The phase's outcome (each phase allows its own).")
    parent_record_id: str | None = _optional(200, "The record this one follows.")
    rollback_of_record_id: str | None = _optional(
        200, "The record a rollback undoes (required for rollback)."
    )
    task_ref: RefinementExternalReference | None = Field(default=None, description="A task elsewhere.")
    approval_ref: RefinementExternalReference | None = Field(
        default=None, description="An approval elsewhere."
    )
    schema_version: int = Field(default=1, ge=1, le=2, description="1, or 2 (needed for `restore` edits).")
    metadata: ResourceMetadata = Field(default_factory=dict)
    workspace_id: WorkspaceId = None

    @model_validator(mode="after")
    def _phase_and_outcome(self) -> RefinementRecordCreate:
        if self.outcome not in OUTCOMES[self.phase]:
            raise ValueError(f"outcome {self.outcome!r} is invalid for phase {self.phase!r}")
        if self.outcome != "no_op" and not self.edits:
            raise ValueError("non-no-op refinement records require at least one edit")
        if self.phase == "rollback" and not self.rollback_of_record_id:
            raise ValueError("rollback records require rollback_of_record_id")
        if any(edit.action == "restore" for edit in self.edits) and self.schema_version < 2:
            raise ValueError("restore refinement edits require schema_version 2")
        return self

    def document(self) -> Document:
        content = self.model_dump(mode="json", exclude={"key", "schema_version", "metadata", "workspace_id"})
        return Document(self.schema_version, content, self.metadata)


# ---------------------------------------------------------------------------------------------------- filters
_CHOICES: dict[str, frozenset[str]] = {
    "phase": frozenset(OUTCOMES),
    "outcome": frozenset().union(*OUTCOMES.values()),
    "scope": frozenset({"session", "workspace", "user", "tenant", "global"}),
    "resource_kind": frozenset({"prompt_note", "memory", "skill", "agent_specification"}),
}
MAX_FILTER_VALUES = 16


def filters(
    *,
    phase: list[str] | None = None,
    outcome: list[str] | None = None,
    scope: list[str] | None = None,
    resource_kind: list[str] | None = None,
    refinement_id: str | None = None,
    search: str | None = None,
) -> dict[str, Any]:
    """The list filters, normalised (comma lists split, `-` read as `_`, lower case); 400 for a value that is
    not one of its choices.

    >>> filters(phase=["Proposal,decision"])["phase"]
    ['decision', 'proposal']
    """
    given = {"phase": phase, "outcome": outcome, "scope": scope, "resource_kind": resource_kind}
    out: dict[str, Any] = {}
    for name, raw_values in given.items():
        values: set[str] = set()
        for raw in raw_values or []:
            for item in raw.split(","):
                value = item.strip().lower().replace("-", "_")
                if value not in _CHOICES[name]:
                    raise InvalidInput(
                        f"invalid refinement {name} filter: {value or raw!r}",
                        code="invalid_filter",
                        field=name,
                    )
                values.add(value)
        if len(values) > MAX_FILTER_VALUES:
            raise InvalidInput(f"too many refinement {name} filters", code="invalid_filter", field=name)
        out[name] = sorted(values)
    out["refinement_id"] = (refinement_id or "").strip()
    out["search"] = (search or "").strip().casefold()
    return out


def matches(row: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether a record's head passes the filters (every filter given must hold)."""
    content = row["content"]
    for name in ("phase", "outcome", "scope"):
        if wanted[name] and content.get(name) not in wanted[name]:
            return False
    if wanted["refinement_id"] and content.get("refinement_id") != wanted["refinement_id"]:
        return False
    edits = [e for e in content.get("edits") or [] if isinstance(e, dict)]
    if wanted["resource_kind"] and not any(e.get("resource_kind") in wanted["resource_kind"] for e in edits):
        return False
    return not wanted["search"] or any(wanted["search"] in value.casefold() for value in _searched(row))


_SEARCHED_FIELDS = (
    "refinement_id",
    "phase",
    "outcome",
    "scope",
    "trigger",
    "summary",
    "rationale",
    "expected_outcome",
)
_SEARCHED_ITEM_FIELDS = (
    "kind",
    "reference",
    "description",
    "action",
    "resource_kind",
    "resource_key",
    "reason",
    "error",
)


def _searched(row: dict[str, Any]) -> list[str]:
    content = row["content"]
    values: list[Any] = [row["id"], row["key"], *(content.get(name) for name in _SEARCHED_FIELDS)]
    for collection in (content.get("evidence"), content.get("edits")):
        for item in collection or []:
            if isinstance(item, dict):
                values.extend(item.get(name) for name in _SEARCHED_ITEM_FIELDS)
    return [value for value in values if isinstance(value, str)]
