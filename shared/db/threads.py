"""SQL for conversation threads, their messages and extraction jobs. Every call takes the workspace: thread
ids are client-chosen and unique per workspace only (migration 0012), so an id alone may name several threads.

>>> with db.transaction() as conn:                                          # doctest: +SKIP
...     thread = lock(conn, "ws_a", "thread_1")
...     stored = append(conn, thread, [NewMessage("user", "hi", {}, None)])
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from shared.db.rows import Connection, one
from shared.db.scope import Scope
from shared.db.updates import assignments

THREAD_COLUMNS = (
    "id, workspace_id, tenant_id, user_id, context_id, observer_id, subject_id, title, metadata, scope, ownership, "
    "parent_thread, message_count, last_decomposed_at, last_decomposed_index, summary, expires_at, idle_action, "
    "hidden_at, participants, created_at, updated_at"
)
MESSAGE_COLUMNS = (
    "id, thread_id, workspace_id, message_index, role, content, metadata, client_message_id, speaker_name, "
    "speaker_id, occurred_at, created_at"
)
JOB_COLUMNS = (
    "id, workspace_id, thread_id, from_index, to_index, status, attempts, error, result, created_at, started_at, "
    "finished_at"
)


JSON_COLUMNS = frozenset({"metadata", "participants"})


# A message to append, as the service hands it to the repository.
@dataclass(frozen=True)
class NewMessage:
    role: str
    content: Any  # a string, or a list of content parts
    metadata: dict[str, Any]
    client_message_id: str | None
    speaker_name: str | None = None  # who said it (None: the thread's user)
    speaker_id: str | None = None
    occurred_at: datetime | None = None  # when it was said (None: when it was stored)


def create(conn: Connection, workspace_id: str, thread_id: str, fields: dict[str, Any]) -> dict | None:
    columns = ["id", "workspace_id", *fields]
    values = [thread_id, workspace_id, *(Jsonb(v) if k in JSON_COLUMNS else v for k, v in fields.items())]
    return conn.execute(
        f"INSERT INTO threads ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))}) "
        f"ON CONFLICT (workspace_id, id) DO NOTHING RETURNING {THREAD_COLUMNS}",
        values,
    ).fetchone()


def get(conn: Connection, workspace_id: str, thread_id: str) -> dict | None:
    return conn.execute(
        f"SELECT {THREAD_COLUMNS} FROM threads WHERE id = %s AND workspace_id = %s", (thread_id, workspace_id)
    ).fetchone()


def lock(conn: Connection, workspace_id: str, thread_id: str) -> dict | None:
    """The thread row, locked for this transaction: appends to one thread queue here."""
    return conn.execute(
        f"SELECT {THREAD_COLUMNS} FROM threads WHERE id = %s AND workspace_id = %s FOR UPDATE",
        (thread_id, workspace_id),
    ).fetchone()


@dataclass(frozen=True)
class ThreadFilter:
    """What a thread listing keeps, as the reference: visible (not archived), unexpired, top-level threads by
    default; ``parent_thread`` lists one thread's sub-threads instead."""

    user_id: str | None = None
    scope: str | None = None  # 'web' also keeps threads with no scope (null means web)
    ownership: str | None = None
    include_hidden: bool = False
    parent_thread: str | None = None

    def clauses(self) -> tuple[list[str], dict[str, Any]]:
        where = ["(expires_at IS NULL OR expires_at > now())"]
        if not self.include_hidden:
            where.append("hidden_at IS NULL")
        where.append("parent_thread = %(parent)s" if self.parent_thread else "parent_thread IS NULL")
        if self.user_id:
            where.append("user_id = %(user)s")
        if self.scope == "web":
            where.append("(scope = 'web' OR scope IS NULL)")
        elif self.scope is not None:
            where.append("scope = %(scope)s")
        if self.ownership is not None:
            where.append("ownership = %(ownership)s")
        params = {
            "parent": self.parent_thread,
            "user": self.user_id,
            "scope": self.scope,
            "ownership": self.ownership,
        }
        return where, params


def list_threads(
    conn: Connection, scope: Scope, keep: ThreadFilter, *, limit: int, offset: int
) -> list[dict]:
    """Threads in ``scope``'s workspaces that ``keep`` keeps, newest first."""
    where, params = keep.clauses()
    in_scope, scope_params = scope.clause()
    where.append(in_scope.replace("%s", "%(workspaces)s"))
    return conn.execute(
        f"SELECT {THREAD_COLUMNS} FROM threads WHERE {' AND '.join(where)} "
        "ORDER BY created_at DESC, workspace_id, id LIMIT %(limit)s OFFSET %(offset)s",
        {**params, "workspaces": scope_params[0] if scope_params else None, "limit": limit, "offset": offset},
    ).fetchall()


def set_hidden(conn: Connection, workspace_id: str, thread_id: str, *, hidden: bool) -> dict | None:
    """Archive (hide) or restore a thread. Not activity: ``updated_at`` stays (as the reference)."""
    return conn.execute(
        f"UPDATE threads SET hidden_at = CASE WHEN %s THEN coalesce(hidden_at, now()) END "
        f"WHERE id = %s AND workspace_id = %s RETURNING {THREAD_COLUMNS}",
        (hidden, thread_id, workspace_id),
    ).fetchone()


# What a thread update may set (ThreadUpdate's fields).
UPDATABLE_COLUMNS = frozenset({"title", "metadata", "idle_action"})


def update(conn: Connection, workspace_id: str, thread_id: str, changes: dict[str, Any]) -> dict | None:
    sets = assignments(changes, UPDATABLE_COLUMNS, what="thread")
    values = [Jsonb(v) if k == "metadata" else v for k, v in changes.items()]
    return conn.execute(
        sql.SQL(
            "UPDATE threads SET {}, updated_at = now() WHERE id = %s AND workspace_id = %s RETURNING "
            + THREAD_COLUMNS
        ).format(sets),
        [*values, thread_id, workspace_id],
    ).fetchone()


def delete(conn: Connection, workspace_id: str, thread_id: str) -> bool:
    return (
        conn.execute(
            "DELETE FROM threads WHERE id = %s AND workspace_id = %s", (thread_id, workspace_id)
        ).rowcount
        > 0
    )


def append(conn: Connection, thread: dict, messages: list[NewMessage]) -> tuple[list[dict], list[dict]]:
    """Store messages at the thread's next indexes (caller holds the row lock). Returns (new, already stored)."""
    next_index = thread["message_count"]
    new, existing = [], []
    for message in messages:
        if message.client_message_id:
            found = conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM thread_messages "
                "WHERE workspace_id = %s AND thread_id = %s AND client_message_id = %s",
                (thread["workspace_id"], thread["id"], message.client_message_id),
            ).fetchone()
            if found:
                existing.append(found)
                continue
        row = one(
            conn.execute(
                "INSERT INTO thread_messages (id, thread_id, workspace_id, message_index, role, content, metadata, "
                "client_message_id, speaker_name, speaker_id, occurred_at) "
                f"VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {MESSAGE_COLUMNS}",
                (
                    f"msg_{uuid.uuid4().hex[:20]}",
                    thread["id"],
                    thread["workspace_id"],
                    next_index,
                    message.role,
                    Jsonb(message.content),
                    Jsonb(message.metadata),
                    message.client_message_id,
                    message.speaker_name,
                    message.speaker_id,
                    message.occurred_at,
                ),
            ).fetchone()
        )
        new.append(row)
        next_index += 1
    if new:
        conn.execute(
            # A new message brings an archived thread back (as the reference).
            "UPDATE threads SET message_count = %s, updated_at = now(), hidden_at = NULL "
            "WHERE workspace_id = %s AND id = %s",
            (next_index, thread["workspace_id"], thread["id"]),
        )
    return new, existing


def set_participants(conn: Connection, workspace_id: str, thread_id: str, participants: list[dict]) -> None:
    """Replace the thread's participant list (the caller holds the row lock and has merged the old one)."""
    conn.execute(
        "UPDATE threads SET participants = %s WHERE workspace_id = %s AND id = %s",
        (Jsonb(participants), workspace_id, thread_id),
    )


def mark_decomposed(
    conn: Connection, workspace_id: str, thread_id: str, next_index: int, summary: str | None
) -> None:
    """After a job: messages below ``next_index`` are extracted (never moves back for an older job)."""
    conn.execute(
        "UPDATE threads SET last_decomposed_at = now(), "
        "last_decomposed_index = greatest(last_decomposed_index, %s), summary = coalesce(%s, summary) "
        "WHERE workspace_id = %s AND id = %s",
        (next_index, summary, workspace_id, thread_id),
    )


def messages(
    conn: Connection,
    workspace_id: str,
    thread_id: str,
    *,
    limit: int,
    offset: int = 0,
    after_index: int | None = None,
    order: str = "asc",
    from_index: int | None = None,
    to_index: int | None = None,
) -> list[dict]:
    clauses = ["thread_id = %(thread)s", "workspace_id = %(ws)s"]
    if after_index is not None:
        clauses.append("message_index > %(after)s")
    if from_index is not None:
        clauses.append("message_index >= %(from)s")
    if to_index is not None:
        clauses.append("message_index <= %(to)s")
    direction = "DESC" if order == "desc" else "ASC"
    return conn.execute(
        f"SELECT {MESSAGE_COLUMNS} FROM thread_messages WHERE {' AND '.join(clauses)} "
        f"ORDER BY message_index {direction} LIMIT %(limit)s OFFSET %(offset)s",
        {
            "thread": thread_id,
            "ws": workspace_id,
            "after": after_index,
            "from": from_index,
            "to": to_index,
            "limit": limit,
            "offset": offset,
        },
    ).fetchall()


def count_messages(conn: Connection, workspace_id: str, thread_id: str) -> int:
    return one(
        conn.execute(
            "SELECT count(*) AS n FROM thread_messages WHERE thread_id = %s AND workspace_id = %s",
            (thread_id, workspace_id),
        ).fetchone()
    )["n"]


def delete_message(conn: Connection, workspace_id: str, thread_id: str, message_id: str) -> bool:
    return (
        conn.execute(
            "DELETE FROM thread_messages WHERE id = %s AND thread_id = %s AND workspace_id = %s",
            (message_id, thread_id, workspace_id),
        ).rowcount
        > 0
    )


# ---------------------------------------------------------------- jobs
def create_job(conn: Connection, workspace_id: str, thread_id: str, from_index: int, to_index: int) -> dict:
    return one(
        conn.execute(
            f"INSERT INTO extraction_jobs (id, workspace_id, thread_id, from_index, to_index) "
            f"VALUES (%s, %s, %s, %s, %s) RETURNING {JOB_COLUMNS}",
            (f"job_{uuid.uuid4().hex}", workspace_id, thread_id, from_index, to_index),
        ).fetchone()
    )


def get_job(conn: Connection, job_id: str, workspace_id: str | None = None) -> dict | None:
    scope = "AND workspace_id = %s" if workspace_id else ""
    params = (job_id, workspace_id) if workspace_id else (job_id,)
    return conn.execute(f"SELECT {JOB_COLUMNS} FROM extraction_jobs WHERE id = %s {scope}", params).fetchone()


def recent_jobs(conn: Connection, workspace_id: str, limit: int = 50) -> list[dict]:
    """The workspace's newest extraction jobs first (the memory console lists them)."""
    return conn.execute(
        f"SELECT {JOB_COLUMNS} FROM extraction_jobs WHERE workspace_id = %s ORDER BY created_at DESC, id LIMIT %s",
        (workspace_id, limit),
    ).fetchall()


def start_job(conn: Connection, job_id: str) -> dict | None:
    """Claim a job: None if it is done already (a redelivery) or unknown. Locks the row for the transaction."""
    job = conn.execute(
        f"SELECT {JOB_COLUMNS} FROM extraction_jobs WHERE id = %s FOR UPDATE", (job_id,)
    ).fetchone()
    if job is None or job["status"] == "done":
        return None
    return conn.execute(
        f"UPDATE extraction_jobs SET status = 'running', attempts = attempts + 1, started_at = now(), error = NULL "
        f"WHERE id = %s RETURNING {JOB_COLUMNS}",
        (job_id,),
    ).fetchone()


def finish_job(conn: Connection, job_id: str, result: dict[str, Any]) -> None:
    conn.execute(
        "UPDATE extraction_jobs SET status = 'done', result = %s, finished_at = now(), error = NULL WHERE id = %s",
        (Jsonb(result), job_id),
    )


def fail_job(conn: Connection, job_id: str, error: str, *, final: bool) -> None:
    """Record the error; a job with retries left goes back to queued, the last attempt makes it failed."""
    conn.execute(
        "UPDATE extraction_jobs SET status = %s, error = %s, finished_at = CASE WHEN %s THEN now() END "
        "WHERE id = %s AND status <> 'done'",
        ("failed" if final else "queued", error[:2000], final, job_id),
    )


def stale_jobs(conn: Connection, older_than_s: int, limit: int = 100) -> list[dict]:
    """Jobs still queued long after creation: their queue message may never have been sent."""
    return conn.execute(
        f"SELECT {JOB_COLUMNS} FROM extraction_jobs WHERE status = 'queued' "
        "AND created_at < now() - make_interval(secs => %s) ORDER BY created_at LIMIT %s",
        (older_than_s, limit),
    ).fetchall()
