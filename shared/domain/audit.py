"""The audit trail read back (GET /v1/audit/events and its summary): who did what, newest first, behind the
walls. A key reads the events of its tenant in its own workspaces; the admin key (and an install without auth)
reads every event. Events are written by the write paths themselves (``shared/db/audit.py``).

    >>> Reach.of(Principal("key_1", ("ws_a",), tenant_id="acme"), None)
    Reach(tenant_id='acme', workspace_ids=['ws_a', '_global_user:acme'])
    >>> Reach.of(Principal("admin", None, admin=True), "ws_b")
    Reach(tenant_id=None, workspace_ids=['ws_b'])
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from shared.db import audit as repo
from shared.db.pool import Database
from shared.domain.auth import Principal

MAX_PAGE = 1000


@dataclass(frozen=True)
class Reach:
    """Which events a caller may read: one tenant's (None: any) in these workspaces (None: any)."""

    tenant_id: str | None
    workspace_ids: list[str] | None

    @classmethod
    def of(cls, who: Principal, workspace_id: str | None) -> Reach:
        """``workspace_id``: only that workspace's events (403 outside the key's)."""
        named = [who.require_workspace(workspace_id)] if workspace_id else None
        visible = who.visible_workspaces()
        if visible is None:
            return cls(None, named)
        return cls(who.tenant_id, named or list(visible))


def _utc(moment: datetime | None) -> datetime | None:
    """A time without an offset is UTC."""
    return moment.replace(tzinfo=UTC) if moment and moment.tzinfo is None else moment


def events(
    db: Database,
    reach: Reach,
    *,
    event_type: str | None,
    since: datetime | None,
    before: int | None,
    limit: int,
) -> tuple[list[dict[str, Any]], int | None]:
    """One page of events, newest first, and the cursor of the next page (None: this was the last)."""
    limit = min(limit, MAX_PAGE)
    with db.connection() as conn:
        rows = repo.page(
            conn,
            tenant_id=reach.tenant_id,
            workspace_ids=reach.workspace_ids,
            event_type=event_type,
            since=_utc(since),
            before=before,
            limit=limit + 1,
        )
    page = rows[:limit]
    return page, (page[-1]["id"] if len(rows) > limit else None)


def summary(db: Database, reach: Reach, *, since: datetime | None) -> dict[str, Any]:
    """How many events of each type the caller may read, and their total."""
    with db.connection() as conn:
        counts = repo.counts(
            conn, tenant_id=reach.tenant_id, workspace_ids=reach.workspace_ids, since=_utc(since)
        )
    return {"summary": counts, "total": sum(counts.values())}


class AuditTrail:
    """The trail's reads over one pool, composed once with the other services (shared/app/services.py)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def events(
        self,
        reach: Reach,
        *,
        event_type: str | None,
        since: datetime | None,
        before: int | None,
        limit: int,
    ) -> tuple[list[dict[str, Any]], int | None]:
        return events(self.db, reach, event_type=event_type, since=since, before=before, limit=limit)

    def summary(self, reach: Reach, *, since: datetime | None) -> dict[str, Any]:
        return summary(self.db, reach, since=since)
