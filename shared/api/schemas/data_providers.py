"""Data providers on the wire (/v1/data-providers), as the reference sends them: ``{provider}``,
``{providers, total_count}``, and a sync's ``{provider_id, workspace_id, synced_documents}``."""

from __future__ import annotations

from typing import Any, Self

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.fields import CreatedAt, InWorkspace, ObjectId, TenantId, UpdatedAt


class DataProvider(Wire):
    id: ObjectId
    tenant_id: TenantId
    workspace_id: InWorkspace
    name: str = Field(description="Its name.")
    provider_type: str = Field(description="Its type (`local`: direct upload).")
    description: str | None = Field(default=None, description="What it is.")
    enabled: bool = Field(description="Whether it is active.")
    connection_args: dict[str, Any] = Field(description="Its connection settings, as given.")
    schedule: str | None = Field(default=None, description="A cron schedule (stored only).")
    last_sync_at: Timestamp | None = Field(default=None, description="Its last sync that fetched something.")
    metadata: dict[str, Any] = Field(description="Any JSON object, as written.")
    revision: int = Field(description="Its revision: 1 at creation, one more per update.")
    etag: str = Field(description="The revision's ETag.")
    created_at: CreatedAt
    updated_at: UpdatedAt

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Self:
        merged = {**row, **row["content"]}
        return cls.model_validate({name: merged[name] for name in cls.model_fields if name in merged})


class DataProviderSyncResponse(Wire):
    provider_id: str = Field(description="The provider synced.")
    workspace_id: str = Field(description="Its workspace.")
    synced_documents: list[Any] = Field(description="What the sync fetched (a local provider: nothing).")
