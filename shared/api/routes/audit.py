"""/v1/audit/events: the audit trail, one event per write (memories, workspaces, imports, API keys), newest
first; and its counts per event type. A key reads its tenant's events in its own workspaces; the admin key
reads all."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from shared.api.deps import PrincipalDep, ServicesDep, valid_workspace
from shared.api.schemas.audit import AuditEvent, AuditEventList, AuditSummary
from shared.domain import audit

router = APIRouter(prefix="/v1/audit", tags=["audit"])

WorkspaceFilter = Annotated[str | None, Query(description="Only this workspace's events (one of the key's).")]
Since = Annotated[
    datetime | None, Query(description="Only events at or after this time (ISO-8601; no offset: UTC).")
]


@router.get("/events", response_model=AuditEventList)
def audit_events(
    who: PrincipalDep,
    svc: ServicesDep,
    workspace_id: WorkspaceFilter = None,
    event_type: Annotated[
        str | None, Query(max_length=64, description="Only this type: memory, workspace, api_key.")
    ] = None,
    since: Since = None,
    limit: Annotated[int, Query(ge=1, le=audit.MAX_PAGE, description="How many at most (1-1000).")] = 100,
    page_token: Annotated[
        str | None, Query(pattern=r"^\d{1,18}$", description="The `next_page_token` of the previous page.")
    ] = None,
) -> AuditEventList:
    """Who did what: the events the caller may read, newest first, a page at a time."""
    reach = audit.Reach.of(who, valid_workspace(workspace_id) if workspace_id else None)
    rows, after = svc.audit.events(
        reach,
        event_type=event_type,
        since=since,
        before=int(page_token) if page_token else None,
        limit=limit,
    )
    return AuditEventList.model_construct(
        events=[AuditEvent.from_row(r) for r in rows],
        count=len(rows),
        next_page_token=str(after) if after is not None else None,
    )


@router.get("/events/summary", response_model=AuditSummary)
def audit_events_summary(
    who: PrincipalDep, svc: ServicesDep, workspace_id: WorkspaceFilter = None, since: Since = None
) -> AuditSummary:
    """How many events of each type the caller may read (optionally one workspace's, or since a time)."""
    reach = audit.Reach.of(who, valid_workspace(workspace_id) if workspace_id else None)
    return AuditSummary.model_validate(svc.audit.summary(reach, since=since))
