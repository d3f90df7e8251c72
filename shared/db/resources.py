"""SQL for versioned resources (migration 0031): heads in ``resources``, every accepted write in
``resource_revisions``. Every call names its workspace and kind; writes run in the caller's transaction, which
holds the head's row lock (``lock``) from the precondition check to the revision.

>>> with db.transaction() as conn:                                          # doctest: +SKIP
...     head = lock(conn, "ws_a", "prompt_note", "note_1")
...     head = update(conn, head, {"content": {...}, "etag": '"vr-2-…"'})
...     add_revision(conn, head, "replace", "op-2", request_hash)
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from shared.core.errors import Conflict
from shared.db.rows import Connection, one

HEAD_COLUMNS = (
    "workspace_id, kind, id, key, tenant_id, schema_version, content, metadata, revision, sequence, etag, "
    "created_by, updated_by, created_at, updated_at, deleted_at"
)
# A revision is the head's columns and what the write was.
_SNAPSHOT = (
    "workspace_id, kind, id, revision, sequence, key, tenant_id, schema_version, content, metadata, etag, created_by, "
    "updated_by, created_at, updated_at, deleted_at"
)
REVISION_COLUMNS = f"{_SNAPSHOT}, action, operation_id, request_hash"
_JSON = frozenset({"content", "metadata"})
# What a write may change on a head (key, id and creation are fixed).
_WRITABLE = ("schema_version", "content", "metadata", "revision", "etag", "updated_by", "deleted_at")


def _value(column: str, value: Any) -> Any:
    return Jsonb(value) if column in _JSON else value


def get(
    conn: Connection, workspace_id: str, kind: str, resource_id: str, *, include_deleted: bool = False
) -> dict | None:
    live = "" if include_deleted else " AND deleted_at IS NULL"
    return conn.execute(
        f"SELECT {HEAD_COLUMNS} FROM resources WHERE workspace_id = %s AND kind = %s AND id = %s{live}",
        (workspace_id, kind, resource_id),
    ).fetchone()


def get_by_key(
    conn: Connection, workspace_id: str, kind: str, key: str, *, include_deleted: bool = False
) -> dict | None:
    live = "" if include_deleted else " AND deleted_at IS NULL"
    return conn.execute(
        f"SELECT {HEAD_COLUMNS} FROM resources WHERE workspace_id = %s AND kind = %s AND key = %s{live}",
        (workspace_id, kind, key),
    ).fetchone()


def lock(conn: Connection, workspace_id: str, kind: str, resource_id: str) -> dict | None:
    """The head (deleted or not), locked for this transaction: writes to one resource queue here."""
    return conn.execute(
        f"SELECT {HEAD_COLUMNS} FROM resources WHERE workspace_id = %s AND kind = %s AND id = %s FOR UPDATE",
        (workspace_id, kind, resource_id),
    ).fetchone()


def insert(conn: Connection, head: dict[str, Any]) -> dict | None:
    """A new head at the next sequence; None if its id or its key is taken in its kind (deleted ones too)."""
    columns = [c for c in head if c != "sequence"]
    values = [_value(c, head[c]) for c in columns]
    return conn.execute(
        f"INSERT INTO resources ({', '.join(columns)}, sequence) "
        f"VALUES ({', '.join(['%s'] * len(columns))}, nextval('resource_sequence')) "
        f"ON CONFLICT DO NOTHING RETURNING {HEAD_COLUMNS}",
        values,
    ).fetchone()


def update(conn: Connection, head: dict, changes: dict[str, Any]) -> dict:
    """The locked head with ``changes`` applied, at the next sequence."""
    columns = [c for c in _WRITABLE if c in changes]
    sets = ", ".join(f"{c} = %s" for c in columns)
    return one(
        conn.execute(
            f"UPDATE resources SET {sets}, sequence = nextval('resource_sequence'), updated_at = now() "
            f"WHERE workspace_id = %s AND kind = %s AND id = %s RETURNING {HEAD_COLUMNS}",
            [*(_value(c, changes[c]) for c in columns), head["workspace_id"], head["kind"], head["id"]],
        ).fetchone()
    )


def add_revision(conn: Connection, head: dict, action: str, operation_id: str, request_hash: str) -> dict:
    """Snapshot the head as written, with the write's action and Idempotency-Key; a key already used in this
    workspace and kind (by a concurrent write to another resource) is a conflict."""
    try:
        return one(
            conn.execute(
                f"INSERT INTO resource_revisions ({REVISION_COLUMNS}) "
                f"SELECT {_SNAPSHOT}, %s, %s, %s FROM resources "
                f"WHERE workspace_id = %s AND kind = %s AND id = %s RETURNING {REVISION_COLUMNS}",
                (action, operation_id, request_hash, head["workspace_id"], head["kind"], head["id"]),
            ).fetchone()
        )
    except psycopg.errors.UniqueViolation as exc:
        raise Conflict(
            "idempotency key was already used for a different request", code="idempotency_key_reused"
        ) from exc


def purge(conn: Connection, workspace_id: str, kind: str, resource_id: str) -> bool:
    """Remove a head and (by cascade) its revisions: for families whose delete is final (no tombstone)."""
    row = conn.execute(
        "DELETE FROM resources WHERE workspace_id = %s AND kind = %s AND id = %s RETURNING id",
        (workspace_id, kind, resource_id),
    ).fetchone()
    return row is not None


def operation(conn: Connection, workspace_id: str, kind: str, operation_id: str) -> dict | None:
    """The revision an Idempotency-Key produced, if any."""
    return conn.execute(
        f"SELECT {REVISION_COLUMNS} FROM resource_revisions "
        "WHERE workspace_id = %s AND kind = %s AND operation_id = %s",
        (workspace_id, kind, operation_id),
    ).fetchone()


def heads(
    conn: Connection,
    workspace_id: str,
    kind: str,
    *,
    limit: int,
    before_sequence: int | None = None,
    include_deleted: bool = False,
) -> list[dict]:
    """Heads of a kind, most recently changed first."""
    live = "" if include_deleted else " AND deleted_at IS NULL"
    before = " AND sequence < %(before)s" if before_sequence is not None else ""
    return conn.execute(
        f"SELECT {HEAD_COLUMNS} FROM resources WHERE workspace_id = %(ws)s AND kind = %(kind)s{live}{before} "
        "ORDER BY sequence DESC LIMIT %(limit)s",
        {"ws": workspace_id, "kind": kind, "before": before_sequence, "limit": limit},
    ).fetchall()


def revisions(
    conn: Connection,
    workspace_id: str,
    kind: str,
    resource_id: str,
    *,
    limit: int,
    before_sequence: int | None = None,
) -> list[dict]:
    """A resource's revisions, newest first."""
    before = " AND sequence < %(before)s" if before_sequence is not None else ""
    return conn.execute(
        f"SELECT {REVISION_COLUMNS} FROM resource_revisions "
        f"WHERE workspace_id = %(ws)s AND kind = %(kind)s AND id = %(id)s{before} "
        "ORDER BY sequence DESC LIMIT %(limit)s",
        {"ws": workspace_id, "kind": kind, "id": resource_id, "before": before_sequence, "limit": limit},
    ).fetchall()


# ---------------------------------------------------------------------------------------------- export / import
def export_page(conn: Connection, workspace_id: str, *, after: int | None, limit: int) -> list[dict]:
    """Every head of the workspace (all kinds, tombstones too), oldest change first, after ``after``."""
    return conn.execute(
        f"SELECT {HEAD_COLUMNS} FROM resources WHERE workspace_id = %(ws)s AND sequence > %(after)s "
        "ORDER BY sequence LIMIT %(limit)s",
        {"ws": workspace_id, "after": after or 0, "limit": limit},
    ).fetchall()


def history(conn: Connection, workspace_id: str, kind: str, resource_id: str) -> list[dict]:
    """A resource's revisions, oldest first (what an export carries)."""
    return conn.execute(
        f"SELECT {REVISION_COLUMNS} FROM resource_revisions WHERE workspace_id = %s AND kind = %s AND id = %s "
        "ORDER BY revision",
        (workspace_id, kind, resource_id),
    ).fetchall()


def restore_exported(conn: Connection, head: dict[str, Any], revisions_: list[dict[str, Any]]) -> dict | None:
    """Write an exported head and its revisions as they were (timestamps, etags, Idempotency-Keys); None, and
    nothing written, if its id or key is taken in the target workspace."""
    columns = [c for c in HEAD_COLUMNS.split(", ") if c != "sequence"]
    row = conn.execute(
        f"INSERT INTO resources ({', '.join(columns)}, sequence) "
        f"VALUES ({', '.join(['%s'] * len(columns))}, nextval('resource_sequence')) "
        f"ON CONFLICT DO NOTHING RETURNING {HEAD_COLUMNS}",
        [_value(c, head[c]) for c in columns],
    ).fetchone()
    if row is None:
        return None
    names = [c for c in REVISION_COLUMNS.split(", ") if c != "sequence"]
    for revision in revisions_:
        conn.execute(
            f"INSERT INTO resource_revisions ({', '.join(names)}, sequence) "
            f"VALUES ({', '.join(['%s'] * len(names))}, nextval('resource_sequence')) ON CONFLICT DO NOTHING",
            [_value(c, revision[c]) for c in names],
        )
    # The head's sequence after its history's: an imported resource lists as changed last.
    return one(
        conn.execute(
            "UPDATE resources SET sequence = nextval('resource_sequence') "
            f"WHERE workspace_id = %s AND kind = %s AND id = %s RETURNING {HEAD_COLUMNS}",
            (row["workspace_id"], row["kind"], row["id"]),
        ).fetchone()
    )
