"""The audit trail on the wire (GET /v1/audit/events), in the reference's shape."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire


class AuditEvent(Wire):
    id: str = Field(description="The event's id (increasing: newer events have larger ids).")
    event_type: str = Field(description="What kind of thing was written: memory, workspace, api_key.")
    action: str = Field(
        description="What was done: create, update, delete, restore, replace, decay, batch_create, import, "
        "revoke."
    )
    tenant_id: str = Field(description="The tenant whose data it touched.")
    workspace_id: str | None = Field(description="The workspace it happened in.")
    user_id: str | None = Field(
        description="Who did it: the id of the API key (`admin` for the admin key; null: auth off or the "
        "system)."
    )
    resource_type: str | None = Field(description="What it was done to: memory, workspace, api_key, token.")
    resource_id: str | None = Field(description="Its id (null: several, e.g. a batch).")
    metadata: dict[str, Any] = Field(description="Details of the write (a revision, counts, fields).")
    timestamp: Timestamp = Field(description="When (ISO-8601 UTC).")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> AuditEvent:
        return cls.model_construct(
            id=str(row["id"]),
            event_type=row["event_type"],
            action=row["action"],
            tenant_id=row["tenant_id"],
            workspace_id=row["workspace_id"],
            user_id=row["actor_key_id"],
            resource_type=row["resource_type"],
            resource_id=row["resource_id"],
            metadata=row["metadata"],
            timestamp=row["created_at"],
        )


class AuditEventList(Wire):
    events: list[AuditEvent] = Field(description="The events, newest first.")
    count: int = Field(description="How many are on this page.")
    next_page_token: str | None = Field(
        default=None, description="Pass as `page_token` for the next (older) page; null: this is the last."
    )


class AuditSummary(Wire):
    summary: dict[str, int] = Field(description="Events per `event_type`.")
    total: int = Field(description="All events counted.")
