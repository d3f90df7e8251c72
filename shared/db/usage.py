"""SQL for per-tenant usage (migration 0054): hourly rows added to by one upsert each, read back by period.

>>> with db.connection() as conn:                                                    # doctest: +SKIP
...     add(conn, "acme", "write", "ok", requests=1, units=1, counts={"embedding_tokens": 12})
...     rows = hours(conn, tenant_id="acme", since=start, until=end, limit=1000)
"""

from __future__ import annotations

from datetime import datetime

from shared.core.metering import QUANTITIES
from shared.db.rows import Connection

# The hour is the database's clock, one for the whole fleet. One statement, no session state: nothing for RDS
# Proxy to pin on, and two requests of one tenant in one hour meet in the same row (the row lock orders them).
_ADD = f"""
INSERT INTO usage_hourly AS u (tenant_id, hour, kind, outcome, requests, units, {", ".join(QUANTITIES)})
VALUES (%(tenant)s, date_trunc('hour', COALESCE(%(at)s::timestamptz, now())), %(kind)s, %(outcome)s,
        %(requests)s, %(units)s, {", ".join(f"%({q})s" for q in QUANTITIES)})
ON CONFLICT (tenant_id, hour, kind, outcome) DO UPDATE SET
    requests = u.requests + EXCLUDED.requests,
    units = u.units + EXCLUDED.units,
    {", ".join(f"{q} = u.{q} + EXCLUDED.{q}" for q in QUANTITIES)}
"""

COLUMNS = f"tenant_id, hour, kind, outcome, requests, units, {', '.join(QUANTITIES)}"


def add(
    conn: Connection,
    tenant_id: str,
    kind: str,
    outcome: str,
    *,
    requests: int,
    units: int,
    counts: dict[str, int] | None = None,
    at: datetime | None = None,
) -> None:
    """Add one unit of work to its tenant's row for this hour (``at``: another hour, for tests)."""
    quantities = {q: int((counts or {}).get(q, 0)) for q in QUANTITIES}
    params = {
        "tenant": tenant_id,
        "at": at,
        "kind": kind,
        "outcome": outcome,
        "requests": requests,
        "units": units,
        **quantities,
    }
    conn.execute(_ADD, params)


def add_for_workspace(conn: Connection, workspace_id: str, kind: str, counts: dict[str, int]) -> None:
    """A job's use (a document's pages, an extraction's tokens), billed to its workspace's tenant on the
    connection of the transaction that finishes the job: a job finished once is billed once, however often its
    message was delivered. Nothing counted, nothing written."""
    quantities = {q: int(counts.get(q, 0)) for q in QUANTITIES}
    if not any(quantities.values()):
        return
    conn.execute(
        f"INSERT INTO usage_hourly AS u (tenant_id, hour, kind, outcome, {', '.join(QUANTITIES)}) "
        f"SELECT tenant_id, date_trunc('hour', now()), %(kind)s, 'ok', "
        f"{', '.join(f'%({q})s' for q in QUANTITIES)} FROM workspaces WHERE id = %(ws)s "
        "ON CONFLICT (tenant_id, hour, kind, outcome) DO UPDATE SET "
        f"{', '.join(f'{q} = u.{q} + EXCLUDED.{q}' for q in QUANTITIES)}",
        {"ws": workspace_id, "kind": kind, **quantities},
    )


def hours(
    conn: Connection, *, tenant_id: str | None, since: datetime, until: datetime, limit: int
) -> list[dict]:
    """The rows of hours in [since, until), oldest first, for one tenant (None: every tenant); at most ``limit``."""
    return conn.execute(
        f"SELECT {COLUMNS} FROM usage_hourly "
        "WHERE hour >= date_trunc('hour', %(since)s::timestamptz) AND hour < %(until)s "
        "AND (%(tenant)s::text IS NULL OR tenant_id = %(tenant)s) "
        "ORDER BY hour, tenant_id, kind, outcome LIMIT %(limit)s",
        {"since": since, "until": until, "tenant": tenant_id, "limit": limit},
    ).fetchall()


def stored(conn: Connection, tenant_ids: list[str] | None) -> list[dict]:
    """Live memories and their text's bytes per tenant, now (``tenant_ids`` None: every tenant). A scan of the
    live rows: read when the report is asked for, so it is exact at that moment and costs the writes nothing."""
    return conn.execute(
        "SELECT tenant_id, count(*) AS memories, COALESCE(sum(octet_length(content)), 0) AS bytes "
        "FROM memories WHERE deleted_at IS NULL AND (%(tenants)s::text[] IS NULL OR tenant_id = ANY(%(tenants)s)) "
        "GROUP BY tenant_id ORDER BY tenant_id",
        {"tenants": tenant_ids},
    ).fetchall()
