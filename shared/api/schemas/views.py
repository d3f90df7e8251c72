"""Workspace views and their observations on the wire (/v1/workspaces/{workspace_id}/views), as the reference sends
them: a view's fields beside its versioned head's (``revision``, ``sequence``, ``etag``, tombstone); an
observation's own ``sequence`` is the observer's cursor, so its head's are ``resource_revision`` and
``resource_sequence``."""

from __future__ import annotations

from typing import Any, Self

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.fields import CreatedAt, InWorkspace, ObjectId, TenantId, UpdatedAt
from shared.domain.resources.workspace_views import ExecutionSite, ViewKind

Etag = Field(description="The revision's ETag (also the `ETag` header): send it as `If-Match`.")
CreatedBy = Field(default=None, description="Who created it (`key:<id>`; null: auth off).")
UpdatedBy = Field(default=None, description="Who wrote this revision.")
DeletedAt = Field(default=None, description="When it was deleted (null: live).")


# What a view or an observation takes from its versioned head as it is; the rest comes from its ``content``.
HEAD = (
    "id",
    "tenant_id",
    "workspace_id",
    "schema_version",
    "metadata",
    "etag",
    "created_by",
    "updated_by",
    "created_at",
    "updated_at",
    "deleted_at",
)


def _head(row: dict[str, Any]) -> dict[str, Any]:
    return {name: row[name] for name in HEAD}


class WorkspaceView(Wire):
    id: ObjectId
    tenant_id: TenantId
    workspace_id: InWorkspace
    view_id: str = Field(description="Its stable id in the workspace (how it is addressed).")
    kind: ViewKind = Field(description="directory, git_worktree, checkout, snapshot or overlay.")
    display_name: str | None = Field(default=None, description="A name to show.")
    memory_context_id: str | None = Field(default=None, description="The memory context it works in.")
    capabilities: list[str] = Field(description="What it can do (sorted, unique).")
    metadata: dict[str, Any] = Field(description="Any JSON object, as written.")
    schema_version: int = Field(description="The document's schema version.")
    revision: int = Field(description="Its revision: 1 at creation, one more for each accepted write.")
    sequence: int = Field(description="Where its last change sits in the database's order of changes.")
    etag: str = Etag
    created_by: str | None = CreatedBy
    updated_by: str | None = UpdatedBy
    created_at: CreatedAt
    updated_at: UpdatedAt
    deleted_at: Timestamp | None = DeletedAt

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Self:
        """A head or revision row (the view's fields are in its ``content``, its ``view_id`` is its key)."""
        content = row["content"]
        return cls.model_validate(
            _head(row)
            | {name: content.get(name) for name in ("kind", "display_name", "memory_context_id")}
            | {"view_id": row["key"], "capabilities": content.get("capabilities", [])}
            | {"revision": row["revision"], "sequence": row["sequence"]}
        )


class WorkspaceVcsObservation(Wire):
    kind: str = Field(description="The VCS: git.")
    repository_id: str | None = Field(default=None, description="An opaque repository id.")
    worktree_id: str | None = Field(default=None, description="An opaque worktree id.")
    head_revision: str | None = Field(default=None, description="The checked-out revision.")
    branch: str | None = Field(default=None, description="The branch.")
    dirty: bool | None = Field(default=None, description="Whether there are uncommitted changes.")
    detached: bool | None = Field(default=None, description="Whether HEAD is detached.")


class WorkspaceViewObservation(Wire):
    id: ObjectId
    tenant_id: TenantId
    workspace_id: InWorkspace
    view_id: str = Field(description="The view it is about.")
    observer_id: str = Field(description="Who published it (how it is addressed under the view).")
    generation: str = Field(description="The observer process's generation.")
    sequence: int = Field(description="The observer's cursor within the generation.")
    tool_host_id: str | None = Field(default=None, description="The tool host last bound to it.")
    execution_site: ExecutionSite | None = Field(default=None, description="client, worker or remote.")
    root_ref: str | None = Field(default=None, description="An opaque root binding for the tool host.")
    capabilities: list[str] = Field(description="What it can do (sorted, unique).")
    vcs: WorkspaceVcsObservation | None = Field(default=None, description="Version-control facts.")
    observed_at: Timestamp = Field(description="When it was observed.")
    expires_at: Timestamp | None = Field(default=None, description="When it stops being current.")
    metadata: dict[str, Any] = Field(description="Any JSON object, as written.")
    schema_version: int = Field(description="The document's schema version.")
    resource_revision: int = Field(description="Its revision: 1 at creation, one more per accepted write.")
    resource_sequence: int = Field(
        description="Where its last change sits in the database's order of changes."
    )
    etag: str = Etag
    created_by: str | None = CreatedBy
    updated_by: str | None = UpdatedBy
    created_at: CreatedAt
    updated_at: UpdatedAt
    deleted_at: Timestamp | None = DeletedAt

    @classmethod
    def from_row(cls, row: dict[str, Any], view_id: str) -> Self:
        """A head or revision row of ``view_id``'s observations (the observer's fields, its cursor among them,
        are in its ``content``; its ``observer_id`` is its key)."""
        content = row["content"]
        fields = (
            "generation",
            "sequence",
            "tool_host_id",
            "execution_site",
            "root_ref",
            "vcs",
            "observed_at",
            "expires_at",
        )
        return cls.model_validate(
            _head(row)
            | {name: content.get(name) for name in fields}
            | {"view_id": view_id, "observer_id": row["key"], "capabilities": content.get("capabilities", [])}
            | {"resource_revision": row["revision"], "resource_sequence": row["sequence"]}
        )
