"""SQL for tokens: the key rows minted under a key (``parent_id``, at any depth), or every token for the admin.

A key sees the tokens under it and nothing else, so one tenant's tokens are never another's to list, read,
revoke or delete (every statement also names the owner's tenant). ``owner`` None: the admin key.

>>> with db.connection() as conn:                                                   # doctest: +SKIP
...     under(conn, owner="key_1", tenant_id="acme", include_revoked=False)
"""

from __future__ import annotations

from typing import Any

from shared.db.api_keys import COLUMNS
from shared.db.rows import Connection

LIST_LIMIT = 1000  # the reference's list has no paging; a key holds at most MAX_TOKENS_PER_KEY per level

# The tokens minted under %(owner)s, at any depth; the admin (owner null) sees every token of every tenant.
_UNDER = (
    "WITH RECURSIVE under AS (SELECT id FROM api_keys WHERE parent_id = %(owner)s "
    "UNION SELECT k.id FROM api_keys k JOIN under u ON k.parent_id = u.id) "
)
_VISIBLE = "scopes IS NOT NULL AND (%(owner)s::text IS NULL OR (id IN (SELECT id FROM under) AND tenant_id = %(tenant)s))"


def _params(owner: str | None, tenant_id: str | None, **more: Any) -> dict[str, Any]:
    return {"owner": owner, "tenant": tenant_id, **more}


def under(conn: Connection, *, owner: str | None, tenant_id: str | None, include_revoked: bool) -> list[dict]:
    """Newest first, at most ``LIST_LIMIT``."""
    revoked = "" if include_revoked else " AND revoked_at IS NULL"
    return conn.execute(
        f"{_UNDER}SELECT {COLUMNS} FROM api_keys WHERE {_VISIBLE}{revoked} "
        f"ORDER BY created_at DESC, id DESC LIMIT {LIST_LIMIT}",
        _params(owner, tenant_id),
    ).fetchall()


def get(conn: Connection, token_id: str, *, owner: str | None, tenant_id: str | None) -> dict | None:
    return conn.execute(
        f"{_UNDER}SELECT {COLUMNS} FROM api_keys WHERE id = %(id)s AND {_VISIBLE}",
        _params(owner, tenant_id, id=token_id),
    ).fetchone()


def delete(conn: Connection, token_id: str, *, owner: str | None, tenant_id: str | None) -> bool:
    """Delete the token; the tokens minted under it go with it (ON DELETE CASCADE)."""
    return (
        conn.execute(
            f"{_UNDER}DELETE FROM api_keys WHERE id = %(id)s AND {_VISIBLE}",
            _params(owner, tenant_id, id=token_id),
        ).rowcount
        > 0
    )
