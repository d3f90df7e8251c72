"""Per-tenant usage to bill from: what each request is (its operation kind), what it cost (the rate limiter's
units), how it ended, added to its tenant's hourly row in Postgres; and the admin's report of a period.

    >>> operation_kind("POST", "/v1/memories/recall"), operation_kind("GET", "/v1/memories/m1")
    ('recall', 'read')
    >>> operation_kind("POST", "/v1/documents"), operation_kind("POST", "/v1/admin/api-keys")
    ('upload', 'admin')
    >>> operation_kind("POST", "/v1/context/execute"), operation_kind("PUT", "/v1/memories/m1")
    ('sandbox', 'write')
    >>> outcome(201, replayed=False), outcome(200, replayed=True), outcome(422, False), outcome(503, False)
    ('ok', 'replayed', 'client_error', 'server_error')
"""

from __future__ import annotations

import csv
import io
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from shared.core.errors import InvalidInput
from shared.core.metering import QUANTITIES, Note
from shared.core.tenants import valid_tenant
from shared.db import rls
from shared.db import usage as repo
from shared.db.pool import Database
from shared.domain.auth import request_cost

log = logging.getLogger(__name__)

# A report's budget: the longest period, and the most hourly rows one answer holds (one tenant's month of every
# hour with a dozen kind and outcome pairs is 730 × 12 = 8,760 rows: it fits).
MAX_DAYS = 92
MAX_ROWS = 10_000
# The admin key belongs to no tenant: its calls are kept apart under a name no tenant id can take (":").
OPERATOR = ":admin"

_ADMIN = re.compile(r"^/v1/(admin|tokens)(/|$)")
_UPLOAD = re.compile(r"^/v1/(documents(/uploads)?|workspaces/[^/]+/import|memories/batch)$")
_SANDBOX = re.compile(r"^/v1/context/(execute|rlm|query|load|inject)$")
_RECALL = re.compile(
    r"^/v1/(memories/(recall|reflect|answer|[^/]+/traverse)|documents/search|sessions/[^/]+/context-(pack|delta)"
    r"|graph/(analyze|densify-preview))$"
)


def operation_kind(method: str, path: str) -> str:
    """What a request is, for a bill: key and token management, an upload (priced by size), sandbox work, a
    search, another write, or a read."""
    if _ADMIN.match(path):
        return "admin"
    if method in ("GET", "HEAD", "OPTIONS"):
        return "read"
    for kind, pattern in (("upload", _UPLOAD), ("sandbox", _SANDBOX), ("recall", _RECALL)):
        if pattern.match(path):
            return kind
    return "write"


def outcome(status: int, replayed: bool) -> str:
    """How a request ended, so a bill can leave out failures and replays (billed when first answered)."""
    if status >= 500:
        return "server_error"
    if status >= 400:
        return "client_error"
    return "replayed" if replayed else "ok"


@dataclass(frozen=True)
class Period:
    """Whole hours [since, until) of a report, at most ``MAX_DAYS`` long."""

    since: datetime
    until: datetime

    @classmethod
    def of(cls, since: datetime | None, until: datetime | None) -> Period:
        """Default: the last 24 hours (until the end of this hour). A time without an offset is UTC."""
        try:
            end = _utc(until) or _hour(datetime.now(UTC)) + timedelta(hours=1)
            start = _utc(since) or end - timedelta(days=1)
        except OverflowError:  # a day before 0001-01-01
            raise InvalidInput("until is too early", code="invalid_period") from None
        if start >= end:
            raise InvalidInput("since must be before until", code="invalid_period")
        if end - start > timedelta(days=MAX_DAYS):
            raise InvalidInput(
                f"a usage report covers at most {MAX_DAYS} days: ask for a shorter period",
                code="usage_period_too_long",
                max_days=MAX_DAYS,
            )
        return cls(_hour(start), end)


def _utc(moment: datetime | None) -> datetime | None:
    return moment.replace(tzinfo=UTC) if moment and moment.tzinfo is None else moment


def _hour(moment: datetime) -> datetime:
    return moment.replace(minute=0, second=0, microsecond=0)


CSV_COLUMNS = ("tenant_id", "hour", "kind", "outcome", "requests", "units", *QUANTITIES)


class UsageMeter:
    """Adds each unit of work to its tenant's hourly row, and reads the rows back for the admin."""

    def __init__(self, db: Database, *, max_rows: int = MAX_ROWS) -> None:
        self.db = db
        self.max_rows = max_rows

    def record_request(self, note: Note, method: str, path: str, status: int, content_length: int) -> bool:
        """Add one finished request (one upsert); False when nobody was identified (not billed: refused before
        a key was known). A failed write is logged, never raised: the answer has been sent by now."""
        if note.tenant_id is None:
            return False
        units = request_cost(method, path, content_length)
        self._add(note, operation_kind(method, path), outcome(status, note.replayed), units)
        return True

    def record_job(self, note: Note, kind: str) -> None:
        """Add one finished job (a document's ingestion): its counts, no request."""
        if note.tenant_id is not None and any(note.counts.values()):
            self._add(note, kind, "ok", 0, requests=0)

    def _add(self, note: Note, kind: str, result: str, units: int, *, requests: int = 1) -> None:
        assert note.tenant_id is not None
        try:
            # Behind the wall that sees no workspace: usage rows have none, and with no wall to set the statement
            # runs alone in autocommit, one round trip (no BEGIN, set_config, COMMIT around it).
            with rls.visible(rls.NOTHING), self.db.connection() as conn:
                repo.add(
                    conn, note.tenant_id, kind, result, requests=requests, units=units, counts=note.counts
                )
        except Exception:
            log.exception("usage not recorded", extra={"kind": kind, "outcome": result})

    def report(self, tenant_id: str | None, period: Period) -> dict[str, Any]:
        """The period's hourly rows (oldest first, at most ``max_rows``: ``truncated`` says the cap cut them; ask
        again from the last hour) and each tenant's stored memories and bytes now."""
        tenant = valid_tenant(tenant_id) if tenant_id is not None and tenant_id != OPERATOR else tenant_id
        cap = self.max_rows
        with self.db.connection() as conn:
            rows = repo.hours(conn, tenant_id=tenant, since=period.since, until=period.until, limit=cap + 1)
            stored = repo.stored(conn, [tenant] if tenant else None)
        return {
            "since": period.since,
            "until": period.until,
            "tenant_id": tenant,
            "hours": rows[:cap],
            "truncated": len(rows) > cap,
            "stored": stored,
        }


def as_csv(rows: list[dict[str, Any]]) -> str:
    """The hourly rows as CSV, one header line (hours in ISO 8601, UTC)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, "hour": row["hour"].astimezone(UTC).isoformat()})
    return out.getvalue()
