"""Versioned resources on the wire (/v1/prompt-notes, /v1/agent-specifications, /v1/refinement-records): each
family's document, its envelope (``{note, replayed}``), its list and its revisions, as the reference sends them.

A stored head is ``{id, key, revision, etag, …, content: {the family's fields}}``; on the wire the family's fields
sit beside the head's (``from_row``).
"""

from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.fields import CreatedAt, InWorkspace, ObjectId, TenantId, UpdatedAt
from shared.domain.resources.agent_specifications import PermissionMode
from shared.domain.resources.refinement_records import (
    Outcome,
    Phase,
    RefinementEdit,
    RefinementEvidence,
    RefinementExternalReference,
    Scope,
)

NextPageToken = Annotated[
    str | None, Field(description="Pass as `page_token` for the next page (null: the last page).")
]
Replayed = Annotated[
    bool, Field(description="True when this answers a retry of an earlier write (same key).")
]
Action = Annotated[
    str, Field(description="The write that made this revision: create, replace, delete or restore.")
]
OperationId = Annotated[str, Field(description="The `Idempotency-Key` of that write.")]


class ResourceHead(Wire):
    id: ObjectId
    tenant_id: TenantId
    workspace_id: InWorkspace
    key: str = Field(description="Its stable key, unique in the workspace for its kind.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Self:
        """A head or revision row, its ``content`` spread beside the head's fields."""
        merged = {**row, **row["content"]}
        return cls.model_validate({name: merged[name] for name in cls.model_fields if name in merged})


class VersionedHead(ResourceHead):
    schema_version: int = Field(description="The schema version of the document.")
    metadata: dict[str, Any] = Field(description="Any JSON object, as written.")
    revision: int = Field(description="Its revision: 1 at creation, one more for each accepted write.")
    etag: str = Field(description="The revision's ETag (also the `ETag` header): send it as `If-Match`.")
    created_by: str | None = Field(default=None, description="Who created it (`key:<id>`; null: auth off).")
    updated_by: str | None = Field(default=None, description="Who wrote this revision.")
    created_at: CreatedAt
    updated_at: UpdatedAt
    deleted_at: Timestamp | None = Field(default=None, description="When it was deleted (null: live).")


# ---------------------------------------------------------------------------------------------- prompt notes
class PromptNote(VersionedHead):
    title: str = Field(description="Its title.")
    content: str = Field(description="Its text.")
    enabled: bool = Field(description="Whether agents should use it.")


# ------------------------------------------------------------------------------------- agent specifications
class AgentSpecification(VersionedHead):
    name: str = Field(description="The agent's name.")
    description: str = Field(description="What the agent is for.")
    instructions: str = Field(description="Its system instructions.")
    invocation_guidance: str = Field(default="", description="When to call it.")
    model: str = Field(default="", description="The model it runs on (empty: the default).")
    max_turns: int = Field(default=0, description="Turns at most (0: no limit of its own).")
    allowed_tools: list[str] = Field(description="Tools it may use.")
    denied_tools: list[str] = Field(description="Tools it may not use.")
    skills: list[str] = Field(description="Skills it loads.")
    mcp_servers: list[str] = Field(description="MCP servers it connects to.")
    permission_mode: PermissionMode = Field(
        default="inherit", description="inherit, ask, allow or read_only."
    )
    exec_policy_hint: str = Field(default="", description="A hint for its execution policy.")
    background: bool = Field(default=False, description="Whether it runs in the background.")
    enabled: bool = Field(default=True, description="Whether it may be used.")


# --------------------------------------------------------------------------------------- refinement records
class RefinementRecord(ResourceHead):
    refinement_id: str = Field(description="The refinement it belongs to.")
    phase: Phase = Field(description="proposal, decision, application or rollback.")
    trigger: str = Field(description="What started the refinement.")
    scope: Scope = Field(description="session, workspace, user, tenant or global.")
    summary: str = Field(description="What changes.")
    rationale: str = Field(description="Why.")
    expected_outcome: str = Field(description="What it should achieve.")
    evidence: list[RefinementEvidence] = Field(description="What supports it.")
    edits: list[RefinementEdit] = Field(description="The edits.")
    outcome: Outcome = Field(description="The phase's outcome.")
    parent_record_id: str | None = Field(default=None, description="The record this one follows.")
    rollback_of_record_id: str | None = Field(default=None, description="The record a rollback undoes.")
    task_ref: RefinementExternalReference | None = Field(default=None, description="A task elsewhere.")
    approval_ref: RefinementExternalReference | None = Field(
        default=None, description="An approval elsewhere."
    )
    schema_version: int = Field(description="The schema version of the record (1 or 2).")
    metadata: dict[str, Any] = Field(description="Any JSON object, as written.")
    revision: int = Field(description="Always 1: a record is never rewritten.")
    etag: str = Field(description="Its ETag (also the `ETag` header).")
    created_by: str | None = Field(default=None, description="Who wrote it (`key:<id>`; null: auth off).")
    created_at: CreatedAt
