"""Workspaces, their contexts and imports (/v1/workspaces)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire, _wrapped_example
from shared.api.schemas.fields import (
    CreatedAt,
    EmbeddingModel,
    ObjectId,
    TenantId,
)
from shared.core.fields import (
    Description,
    DisplayName,
    SettingsObject,
)


class Workspace(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "demo",
                    "tenant_id": "_default",
                    "name": "Demo",
                    "settings": {},
                    "tags": [],
                    "embedding_model": "local-minilm@384",
                    "created_at": "2026-11-29T14:40:34.508615Z",
                    "updated_at": "2026-11-29T14:40:34.508615Z",
                }
            ]
        }
    )

    id: ObjectId
    tenant_id: TenantId
    name: DisplayName
    settings: SettingsObject
    tags: list[str] = Field(description="Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them.")
    embedding_model: EmbeddingModel
    created_at: Timestamp = Field(
        description="When it was created (ISO-8601 UTC); a reserved workspace not used yet: when the database "
        "was set up."
    )
    updated_at: Timestamp = Field(description="When it last changed (ISO-8601 UTC).")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Workspace:
        return cls.pick(row, tags=list(row["tags"]))


class WorkspaceEnvelope(Workspace):
    """A workspace, wrapped and flat (SDK 0.2.1 builds `Workspace(**data)` from the top level)."""

    model_config = _wrapped_example(Workspace, "workspace")

    workspace: Workspace = Field(description="The workspace.")
    stats: dict[str, Any] | None = Field(default=None, description="Counts of memories (GET only).")


class WorkspaceList(Wire):
    workspaces: list[Workspace] = Field(description="The workspaces.")


class Context(Wire):
    model_config = ConfigDict(extra="allow")  # the context row's columns, whatever the migration added

    id: ObjectId
    workspace_id: str | None = Field(default=None, description="The workspace it belongs to.")
    name: DisplayName
    description: Description = None
    settings: SettingsObject = Field(default_factory=dict)
    created_at: CreatedAt


class ContextEnvelope(Context):
    context: Context = Field(description="The context.")


class ContextList(Wire):
    contexts: list[Context] = Field(description="The contexts.")


class ImportResult(Wire):
    imported: int = Field(description="Memories written.")
    skipped_duplicates: int = Field(description="Memories already in the workspace.")
    associations_imported: int = Field(description="Associations written.")
    resources_imported: int = Field(
        default=0, description="Versioned resources written, with their revisions."
    )
    resources_skipped: int = Field(
        default=0, description="Versioned resources whose id or key the workspace already holds."
    )
    errors: int = Field(description="Items refused (see `details`).")
    details: list[Any] = Field(description="Why each refused item was refused.")
    ids: Literal["kept", "remapped"] | None = Field(
        default=None,
        description="Export format 2: whether the rows kept their ids (an empty target, no id taken) or were all "
        "given derived ones (docs/export-format.md).",
    )
    imported_by_kind: dict[str, int] = Field(
        default_factory=dict, description="Export format 2: rows written, by line type."
    )
    skipped_by_kind: dict[str, int] = Field(
        default_factory=dict,
        description="Export format 2: rows the workspace already held (or that name one left out), by line type.",
    )
