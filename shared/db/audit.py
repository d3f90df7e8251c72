"""SQL for the audit trail (migration 0044): one row per write, inserted on the write's own connection so it
commits or rolls back with it.

Who writes is the request's caller, carried like the row-level wall (``shared/db/rls.py``): set once per request
in a context variable (``shared/api/deps.py``), so the write paths record events without passing the caller
through every signature. Outside a request (worker, cleanup, CLI) the actor is the system: no key.

>>> with acting(Actor("key_1", "acme")):
...     current().key_id
'key_1'
>>> current().key_id is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from shared.core.tenants import DEFAULT_TENANT
from shared.db.rows import Connection


@dataclass(frozen=True)
class Actor:
    """The caller of a write: its API key's id (None: auth off, or the system) and tenant."""

    key_id: str | None
    tenant_id: str = DEFAULT_TENANT


SYSTEM = Actor(None)
_actor: ContextVar[Actor] = ContextVar("memorylayer_audit_actor", default=SYSTEM)


def current() -> Actor:
    return _actor.get()


def set_for_request(actor: Actor) -> None:
    """Set the actor for the rest of this context (an async request dependency, like the wall)."""
    _actor.set(actor)


@contextmanager
def acting(actor: Actor) -> Iterator[None]:
    token = _actor.set(actor)
    try:
        yield
    finally:
        _actor.reset(token)


def record(
    conn: Connection,
    workspace_id: str | None,
    event_type: str,
    action: str,
    *,
    resource_type: str | None = None,
    resource_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    tenant_id: str | None = None,
) -> None:
    """One event. Its tenant is the workspace's owner (the actor's when there is no such workspace, or
    ``tenant_id`` when given), so an event is listed to the tenant whose data it touched."""
    actor = current()
    conn.execute(
        "INSERT INTO audit_events (tenant_id, workspace_id, actor_key_id, event_type, action, resource_type, "
        "resource_id, metadata) VALUES (coalesce(%(tenant)s, (SELECT tenant_id FROM workspaces WHERE id = %(ws)s), "
        "%(actor_tenant)s), %(ws)s, %(key)s, %(type)s, %(action)s, %(rtype)s, %(rid)s, %(meta)s)",
        {
            "tenant": tenant_id,
            "ws": workspace_id,
            "actor_tenant": actor.tenant_id,
            "key": actor.key_id,
            "type": event_type,
            "action": action,
            "rtype": resource_type,
            "rid": resource_id,
            "meta": Jsonb(metadata or {}),
        },
    )


def _filters(
    tenant_id: str | None,
    workspace_ids: list[str] | None,
    event_type: str | None,
    since: datetime | None,
) -> tuple[str, dict[str, Any]]:
    clauses, params = ["true"], {}
    for clause, name, value in (
        ("tenant_id = %(tenant)s", "tenant", tenant_id),
        ("workspace_id = ANY(%(ws)s)", "ws", workspace_ids),
        ("event_type = %(type)s", "type", event_type),
        ("created_at >= %(since)s", "since", since),
    ):
        if value is not None:
            clauses.append(clause)
            params[name] = value
    return " AND ".join(clauses), params


def page(
    conn: Connection,
    *,
    tenant_id: str | None,
    workspace_ids: list[str] | None,
    event_type: str | None,
    since: datetime | None,
    before: int | None,
    limit: int,
) -> list[dict]:
    """Events newest first, older than event ``before`` when given. ``tenant_id``/``workspace_ids`` None: any."""
    where, params = _filters(tenant_id, workspace_ids, event_type, since)
    if before is not None:
        where += " AND id < %(before)s"
        params["before"] = before
    return conn.execute(
        "SELECT id, tenant_id, workspace_id, actor_key_id, event_type, action, resource_type, resource_id, "
        f"metadata, created_at FROM audit_events WHERE {where} ORDER BY id DESC LIMIT %(limit)s",
        {**params, "limit": limit},
    ).fetchall()


def counts(
    conn: Connection,
    *,
    tenant_id: str | None,
    workspace_ids: list[str] | None,
    since: datetime | None,
) -> dict[str, int]:
    """How many events of each type match."""
    where, params = _filters(tenant_id, workspace_ids, None, since)
    rows = conn.execute(
        f"SELECT event_type, count(*) AS n FROM audit_events WHERE {where} GROUP BY event_type ORDER BY event_type",
        params,
    ).fetchall()
    return {r["event_type"]: r["n"] for r in rows}
