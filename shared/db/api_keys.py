"""SQL for API keys. Keys are the tenant's, not a workspace's: a key row names its tenant and the workspaces it
may use. The admin routes and the CLI list or revoke them; a token (/v1/tokens) is a key row minted by another
key (shared/db/tokens.py).

>>> with db.transaction() as conn:                                                  # doctest: +SKIP
...     claim_workspaces(conn, "acme", ["ws_a"])
...     insert(conn, key_id="key_1", prefix="0a1b", key_hash="…", workspaces=["ws_a"], access="read_write",
...            name=None, expires_at=None, tenant_id="acme")
"""

from __future__ import annotations

from datetime import datetime

from shared.db.rows import Connection, one

COLUMNS = (
    "id, prefix, workspaces, access, name, expires_at, revoked_at, created_at, tenant_id, shared_spaces, "
    "parent_id, root_id, scopes, principal_type"
)


def insert(
    conn: Connection,
    *,
    key_id: str,
    prefix: str,
    key_hash: str,
    workspaces: list[str],
    access: str,
    name: str | None,
    expires_at: datetime | None,
    tenant_id: str,
    shared_spaces: str = "read",
    parent_id: str | None = None,
    root_id: str | None = None,
    scopes: list[str] | None = None,
    principal_type: str | None = None,
) -> dict:
    return one(
        conn.execute(
            "INSERT INTO api_keys (id, prefix, key_hash, workspaces, access, name, expires_at, tenant_id, "
            "shared_spaces, parent_id, root_id, scopes, principal_type) "
            f"VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {COLUMNS}",
            (
                key_id,
                prefix,
                key_hash,
                workspaces,
                access,
                name,
                expires_at,
                tenant_id,
                shared_spaces,
                parent_id,
                root_id,
                scopes,
                principal_type,
            ),
        ).fetchone()
    )


def claim_workspaces(conn: Connection, tenant_id: str, workspaces: list[str]) -> list[str]:
    """Create the missing ``workspaces`` for ``tenant_id``; return those another tenant owns, sorted.

    A concurrent claim of the same new id waits on the other transaction's row and then sees its owner."""
    conn.execute(
        "INSERT INTO workspaces (id, name, tenant_id) SELECT w, w, %s FROM unnest(%s::text[]) AS w "
        "ON CONFLICT (id) DO NOTHING",
        (tenant_id, workspaces),
    )
    rows = conn.execute(
        "SELECT id FROM workspaces WHERE id = ANY(%s) AND tenant_id <> %s ORDER BY id",
        (workspaces, tenant_id),
    ).fetchall()
    return [r["id"] for r in rows]


def workspace_tenants(conn: Connection, workspaces: list[str]) -> list[str]:
    """The tenants that own any of ``workspaces`` (those that exist), sorted."""
    rows = conn.execute(
        "SELECT DISTINCT tenant_id FROM workspaces WHERE id = ANY(%s) ORDER BY tenant_id", (workspaces,)
    ).fetchall()
    return [r["tenant_id"] for r in rows]


def list_all(conn: Connection) -> list[dict]:
    return conn.execute(f"SELECT {COLUMNS} FROM api_keys ORDER BY created_at, id").fetchall()


# The key and every token minted under it, at any depth.
_TREE = (
    "WITH RECURSIVE tree AS (SELECT id FROM api_keys WHERE id = %(id)s "
    "UNION SELECT k.id FROM api_keys k JOIN tree t ON k.parent_id = t.id) "
)


def revoke(conn: Connection, key_id: str) -> dict | None:
    """Revoke a live key now, and every live token minted under it (a token never outlives its key's
    authority). Returns the key (``id``, ``workspaces``, ``tenant_id``); None when there is no such unrevoked
    key."""
    rows = conn.execute(
        _TREE + "UPDATE api_keys SET revoked_at = now() WHERE id IN (SELECT id FROM tree) "
        "AND revoked_at IS NULL RETURNING id, workspaces, tenant_id",
        {"id": key_id},
    ).fetchall()
    return next((r for r in rows if r["id"] == key_id), None)


def lock_children(conn: Connection, parent_id: str) -> int:
    """Lock the minting key's row (two concurrent mints count one after the other) and count its tokens."""
    conn.execute("SELECT 1 FROM api_keys WHERE id = %s FOR UPDATE", (parent_id,))
    row = conn.execute("SELECT count(*) AS n FROM api_keys WHERE parent_id = %s", (parent_id,)).fetchone()
    return int(row["n"]) if row else 0


def live_prefixes(conn: Connection) -> set[str]:
    """The prefixes of keys not revoked: what a blocked address may still present (shared/domain/auth.py)."""
    rows = conn.execute("SELECT prefix FROM api_keys WHERE revoked_at IS NULL").fetchall()
    return {row["prefix"] for row in rows}


def by_prefix(conn: Connection, prefix: str) -> dict | None:
    """What authentication needs of the key with this prefix. Its workspaces leave out any another tenant
    owns (deleted and claimed anew since the key was made): the wall holds even for a stale list."""
    return conn.execute(
        "SELECT k.id, k.key_hash, k.access, k.tenant_id, k.shared_spaces, k.expires_at, k.root_id, "
        "k.expires_at <= now() AS expired, "
        "k.revoked_at IS NOT NULL AS revoked, "
        "ARRAY(SELECT w FROM unnest(k.workspaces) WITH ORDINALITY AS u(w, n) WHERE NOT EXISTS "
        "(SELECT 1 FROM workspaces ws WHERE ws.id = u.w AND ws.tenant_id <> k.tenant_id) ORDER BY n) "
        "AS workspaces "
        "FROM api_keys k WHERE k.prefix = %s",
        (prefix,),
    ).fetchone()
