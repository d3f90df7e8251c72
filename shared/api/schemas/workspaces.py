"""Workspaces, their contexts and imports (/v1/workspaces)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire, _wrapped_example


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

    id: str
    tenant_id: str
    name: str
    settings: dict[str, Any]
    tags: list[str]
    embedding_model: str | None
    created_at: Timestamp | None
    updated_at: Timestamp | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Workspace:
        return cls.pick(row, tags=list(row["tags"]))


class WorkspaceEnvelope(Workspace):
    """A workspace, wrapped and flat (SDK 0.2.1 builds `Workspace(**data)` from the top level)."""

    model_config = _wrapped_example(Workspace, "workspace")

    workspace: Workspace
    stats: dict[str, Any] | None = Field(default=None, description="Counts of memories (GET only).")


class WorkspaceList(Wire):
    workspaces: list[Workspace]


class Context(Wire):
    model_config = ConfigDict(extra="allow")  # the context row's columns, whatever the migration added

    id: str
    workspace_id: str | None = None
    name: str
    description: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    created_at: Timestamp


class ContextEnvelope(Context):
    context: Context


class ContextList(Wire):
    contexts: list[Context]


class ImportResult(Wire):
    imported: int = Field(description="Memories written.")
    skipped_duplicates: int = Field(description="Memories already in the workspace.")
    associations_imported: int
    errors: int = Field(description="Items refused (see `details`).")
    details: list[Any] = Field(description="Why each refused item was refused.")
