"""Tokens: scoped, expiring API keys that a key mints for itself, never wider than the key.

A token is an ``api_keys`` row like any other (shared/domain/auth.py): the same secret format, the same lookup
on every request, so revoking it or reaching its expiry refuses the very next request, and rate limits and the
row-level wall apply as they do to keys (a token draws from its root key's rate budget). What it may do is
decided once, here, at minting: its workspaces are the minting key's that match ``workspace_patterns``, its
``access`` and ``shared_spaces`` follow from ``scopes``, its expiry is at most its key's.

    >>> grant(["read"], parent_access="read_write", parent_shared="read")
    ('read', 'none')
    >>> grant(["*"], parent_access="read", parent_shared="read")
    ('read', 'read')
    >>> matching(["support-*"], ("support-bot", "sales"))
    ['support-bot']
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from fnmatch import fnmatchcase

from shared.core.errors import Forbidden, InvalidInput, NotFound
from shared.db import api_keys as keys_repo
from shared.db import audit
from shared.db import tokens as repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.domain.auth import ApiKeys, Principal, TokenOrigin

# The scopes a token may ask for. ``*``: everything the minting key may do.
SCOPES = ("*", "read", "write", "shared:read", "shared:write")
_ACCESS = ("read", "read_write")
_SHARED = ("none", "read", "read_write")
_GLOB = frozenset("*?[")


def grant(scopes: Sequence[str], *, parent_access: str, parent_shared: str) -> tuple[str, str]:
    """(access, shared_spaces) a token with ``scopes`` gets from a key with these; 403 when it asks for more."""
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        raise InvalidInput(
            f"unknown scope {unknown[0]!r}; scopes are {', '.join(SCOPES)}",
            code="unknown_scope",
            allowed=list(SCOPES),
        )
    if "*" in scopes:
        return parent_access, parent_shared
    if "write" in scopes:
        access = "read_write"
    elif "read" in scopes:
        access = "read"
    else:
        raise InvalidInput("scopes need one of *, read or write", code="scopes_without_access")
    shared = "read_write" if "shared:write" in scopes else "read" if "shared:read" in scopes else "none"
    if _ACCESS.index(access) > _ACCESS.index(parent_access):
        raise Forbidden("a read-only key cannot mint a token that writes", code="token_wider_than_key")
    if _SHARED.index(shared) > _SHARED.index(parent_shared):
        raise Forbidden(
            f"this key may {parent_shared.replace('_', '-')} the user space, not more",
            code="token_wider_than_key",
        )
    return access, shared


def matching(patterns: Sequence[str], workspaces: Sequence[str]) -> list[str]:
    """The key's workspaces that ``patterns`` (globs) match, in the key's order; 403 for a workspace named
    outright that is not the key's, 400 when nothing matches."""
    for pattern in patterns:
        if not _GLOB & set(pattern) and pattern not in workspaces:
            raise Forbidden(f"this key may not use workspace {pattern}", code="workspace_forbidden")
    found = [w for w in workspaces if any(fnmatchcase(w, p) for p in patterns)]
    if not found:
        raise InvalidInput(
            "workspace_patterns match none of this key's workspaces", code="no_matching_workspaces"
        )
    return found


def _expiry(days: int | None, parent: datetime | None) -> datetime | None:
    """``days`` from now, but never past the minting key's own expiry."""
    asked = datetime.now(UTC) + timedelta(days=days) if days is not None else None
    return min(filter(None, (asked, parent)), default=None)


class Tokens:
    def __init__(self, db: Database, keys: ApiKeys) -> None:
        self.db = db
        self.keys = keys

    def mint(
        self,
        who: Principal,
        *,
        name: str,
        principal_type: str,
        workspace_patterns: list[str],
        scopes: list[str],
        expires_in_days: int | None,
    ) -> tuple[dict, str]:
        """A new token under ``who`` (a key, a token, or the admin key naming workspaces outright)."""
        scopes = list(dict.fromkeys(scopes))
        access, shared = grant(scopes, parent_access=who.access, parent_shared=who.shared_spaces)
        if who.admin:
            globs = [p for p in workspace_patterns if _GLOB & set(p)]
            if globs:
                raise InvalidInput(
                    "the admin key names a token's workspaces outright (it has no workspaces to match)",
                    code="token_workspaces_literal",
                )
            workspaces, tenant_id, parent_id = list(dict.fromkeys(workspace_patterns)), None, None
        elif who.key_id is None or who.workspaces is None:
            raise Forbidden("tokens are minted by an API key", code="key_required")
        else:
            workspaces, tenant_id, parent_id = (
                matching(workspace_patterns, who.workspaces),
                who.tenant_id,
                who.key_id,
            )
        return self.keys.create(
            workspaces,
            access=access,
            expires_at=_expiry(expires_in_days, who.expires_at),
            name=name,
            tenant_id=tenant_id,
            shared_spaces=shared,
            token=TokenOrigin(
                parent_id=parent_id,
                root_id=who.root_id or parent_id,
                scopes=scopes,
                principal_type=principal_type,
            ),
        )

    def list(self, who: Principal, *, include_revoked: bool) -> list[dict]:
        with self.db.connection() as conn:
            return repo.under(conn, **_owner(who), include_revoked=include_revoked)

    def get(self, who: Principal, token_id: str) -> dict:
        with self.db.connection() as conn:
            row = repo.get(conn, token_id, **_owner(who))
        if row is None:
            raise _not_found(token_id)
        return row

    def revoke(self, who: Principal, token_id: str) -> None:
        """Revoke the token and those minted under it; revoking a revoked token is a no-op."""
        with self.db.transaction() as conn:
            token = repo.get(conn, token_id, **_owner(who))
            if token is None:
                raise _not_found(token_id)
            if keys_repo.revoke(conn, token_id) is not None:
                _audit(conn, token, "revoke")

    def delete(self, who: Principal, token_id: str) -> None:
        with self.db.transaction() as conn:
            token = repo.get(conn, token_id, **_owner(who))
            if token is None or not repo.delete(conn, token_id, **_owner(who)):
                raise _not_found(token_id)
            _audit(conn, token, "delete")


def _audit(conn: Connection, token: dict, action: str) -> None:
    """Listed under the token's first workspace, like the key's creation (shared/domain/auth.py)."""
    audit.record(
        conn,
        token["workspaces"][0],
        "api_key",
        action,
        resource_type="token",
        resource_id=token["id"],
        tenant_id=token["tenant_id"],
    )


def _owner(who: Principal) -> dict[str, str | None]:
    """Whose tokens: the admin's view is every token; a key's, those under it; without a key, none."""
    if who.admin:
        return {"owner": None, "tenant_id": None}
    if who.key_id is None:
        raise Forbidden("tokens are minted by an API key", code="key_required")
    return {"owner": who.key_id, "tenant_id": who.tenant_id}


def _not_found(token_id: str) -> NotFound:
    return NotFound(f"token {token_id} not found", code="token_not_found")
