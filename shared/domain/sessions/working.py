"""Working memory: a session's keys and values, each with an optional TTL; every write logs a context event.

>>> render_value({"b": 1, "a": [2]})
'{"a": [2], "b": 1}'
>>> render_value("fix redis")
'fix redis'
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from shared.core.errors import NotFound, PayloadTooLarge
from shared.db import sessions as repo
from shared.db.rows import Connection
from shared.db.scope import Scope
from shared.domain.sessions.lookup import find
from shared.domain.sessions.requests import WorkingMemoryItem

if TYPE_CHECKING:
    from shared.domain.sessions.parts import SessionParts

# Keys that name open work: the briefing and the context pack list them as open threads.
OPEN_THREAD_KEYS = frozenset({"open_threads", "open_items", "next_steps", "blocked"})


def render_value(value: Any) -> str:
    """A working-memory value as text: strings as they are, anything else as sorted compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def check_values(svc: SessionParts, entries: list[WorkingMemoryItem]) -> None:
    """Refuse (413) more items than ``max_working_memory_items`` in one request, or any value whose text is
    over ``max_content_bytes``, before anything is written."""
    most = svc.settings.max_working_memory_items
    if len(entries) > most:
        raise PayloadTooLarge(
            f"{len(entries)} working-memory items in one request; the limit is {most}",
            code="too_many_items",
            limit=most,
        )
    limit = svc.settings.max_content_bytes
    for entry in entries:
        size = len(render_value(entry.value).encode())
        if size > limit:
            raise PayloadTooLarge(
                f"the value of {entry.key!r} is {size} bytes; the limit is {limit}",
                code="value_too_large",
                limit=limit,
            )


def write(conn: Connection, session: dict, entries: list[WorkingMemoryItem], now: datetime) -> list[dict]:
    """Upsert ``entries`` into the session's working memory, each with a ``working_upsert`` event."""
    rows = []
    for entry in entries:
        expires = now + timedelta(seconds=entry.ttl_seconds) if entry.ttl_seconds else None
        rows.append(
            repo.upsert_working(
                conn,
                session["workspace_id"],
                session["id"],
                entry.key,
                entry.value,
                entry.ttl_seconds,
                now=now,
                expires_at=expires,
            )
        )
        repo.record_event(conn, session["workspace_id"], session["id"], "working_upsert", entry.key)
    return rows


def set_entries(
    svc: SessionParts, scope: Scope, session_id: str, entries: list[WorkingMemoryItem]
) -> list[dict]:
    check_values(svc, entries)
    now = svc.clock()
    with svc.db.transaction() as conn:
        session = find(conn, scope, session_id, now=now, for_update=True)
        return write(conn, session, entries, now)


def get_values(svc: SessionParts, scope: Scope, session_id: str, keys: list[str] | None) -> dict[str, Any]:
    """``{key: value}`` for the live keys asked for (all when ``keys`` is None); 404 if none is live."""
    now = svc.clock()
    with svc.db.connection() as conn:
        session = find(conn, scope, session_id, now=now)
        rows = repo.working(conn, session["workspace_id"], session_id, now=now, keys=keys)
    if keys and not rows:
        raise NotFound(f"working memory key not found: {','.join(keys)}", code="working_memory_key_not_found")
    return {r["key"]: r["value"] for r in rows}


def live_rows(svc: SessionParts, session: dict) -> list[dict]:
    """The session's live keys, in key order."""
    with svc.db.connection() as conn:
        return repo.working(conn, session["workspace_id"], session["id"], now=svc.clock())
