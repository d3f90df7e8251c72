"""Request bodies of workspaces and contexts, an export imported, a user erased."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.core.fields import (
    Description,
    DisplayName,
    SettingsObject,
)
from shared.domain.requests.base import _Request


class WorkspaceCreate(_Request):
    id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$",
        description="The workspace's id (generated when left out).",
    )
    name: DisplayName = Field(min_length=1, max_length=256)
    settings: SettingsObject = Field(default_factory=dict)
    tags: list[str] = Field(
        default_factory=list,
        description="Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them.",
    )


class WorkspaceUpdate(_Request):
    name: str | None = Field(default=None, min_length=1, max_length=256, description="A display name.")
    settings: dict[str, Any] | None = Field(default=None, description="Any JSON object of settings.")
    tags: list[str] | None = Field(
        default=None, description="Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them."
    )


class ContextCreate(_Request):
    id: str | None = Field(default=None, description="The context's id (generated when left out).")
    name: DisplayName = Field(min_length=1)
    description: Description = None
    settings: SettingsObject = Field(default_factory=dict)


class WorkspaceExportData(_Request):
    """An export as one JSON object (the reference's shape; our NDJSON export's lines, gathered)."""

    version: str = Field(default="1.0", description="The export format's version.")
    exported_at: str | None = Field(default=None, description="When it was exported (ISO-8601 UTC).")
    workspace_id: str | None = Field(default=None, description="The workspace it was exported from.")
    memories: list[dict[str, Any]] = Field(
        default_factory=list, description="The memories, each as the export writes it (`id`, `content`, …)."
    )
    associations: list[dict[str, Any]] = Field(
        default_factory=list, description="The associations (`source_id`, `target_id`, `relationship`, …)."
    )
    total_memories: int = Field(default=0, description="How many memories the workspace had (informative).")
    total_associations: int = Field(default=0, description="How many associations it had (informative).")
    offset: int = Field(default=0, description="The export's paging offset (informative).")
    limit: int = Field(default=0, description="The export's paging limit (informative).")


class WorkspaceImportRequest(_Request):
    """The JSON import body. A bare export object (without `data`) is accepted too, and so is the NDJSON export
    itself (`Content-Type: application/x-ndjson`)."""

    data: WorkspaceExportData = Field(description="The export to import.")


class UserErase(_Request):
    dry_run: bool = Field(default=False, description="Count what would be erased; delete nothing.")
