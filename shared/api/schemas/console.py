"""The console's own answers (/console/api)."""

from __future__ import annotations

from pydantic import Field

from shared.api.schemas.base import Wire
from shared.api.schemas.fields import (
    InWorkspace,
)
from shared.api.schemas.threads import Job


class ConsoleWhoami(Wire):
    """What the console's key may do."""

    key_id: str | None = Field(description="The API key's id (null: admin key, or no auth).")
    can_write: bool = Field(description="The key is read_write: the page shows its write controls.")
    admin: bool = Field(description="The admin key.")
    workspaces: list[str] | None = Field(description="The workspaces the key may use (null: any).")
    auth_mode: str = Field(description="The server's auth mode (`none` for local development).")


class ConsoleJobs(Wire):
    jobs: list[Job] = Field(description="The workspace's newest extraction jobs, newest first.")
    workspace_id: InWorkspace


class ConsoleRelationEnd(Wire):
    id: str = Field(description="The entity's id (`ent_…`).")
    name: str = Field(description="Its canonical name.")
    type: str = Field(description="Its kind (person, project, ticket, …).")


class ConsoleRelation(Wire):
    """One typed relation a memory is evidence of, with both entities named."""

    id: str = Field(description="The relation's id (`erel_…`).")
    source: ConsoleRelationEnd = Field(description="The entity the relation starts from.")
    relationship: str = Field(description="The relation type, in its stored direction (e.g. `reviewed`).")
    target: ConsoleRelationEnd = Field(description="The entity the relation points to.")
    confidence: float = Field(description="The relation's confidence: the mean over its active evidence.")
    active: bool = Field(description="The relation still has active evidence somewhere.")
    evidence_kinds: list[str] = Field(
        description="How this memory evidences it: explicit, adapter (a profile or connector), pattern, "
        "generated."
    )
    evidence_active: bool = Field(
        description="This memory's evidence is active (false once the memory is deleted, superseded or "
        "edited)."
    )


class ConsoleMemoryRelations(Wire):
    memory_id: str = Field(description="The memory it applies to.")
    workspace_id: InWorkspace
    relations: list[ConsoleRelation] = Field(
        description="The relations, by source name, relationship and target name."
    )
