"""API keys and who a request is.

    >>> keys = ApiKeys(db)                                                     # doctest: +SKIP
    >>> row, key = keys.create(["ws_a"], access="read_write")                  # doctest: +SKIP
    >>> keys.authenticate(key).workspaces                                      # doctest: +SKIP
    ('ws_a',)

Keys look like ``mlk_<12 hex prefix>_<43 url-safe chars>``: random (``secrets``), stored as the prefix (to find
the row) and a SHA-256 of the whole key (to check it, in constant time). The key is returned once, at
creation. Every request checks the key against the database: a revoked key stops working at once.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from shared.errors import Forbidden, InvalidInput, NotFound, RateLimited, Unauthorized

if TYPE_CHECKING:
    from shared.db.pool import Database

KEY_PREFIX = "mlk_"


@dataclass(frozen=True)
class Principal:
    """The caller: an admin, a workspace-scoped key, or anyone (auth mode ``none``)."""

    key_id: str | None
    workspaces: tuple[str, ...] | None  # None: every workspace
    access: str = "read_write"
    admin: bool = False

    @classmethod
    def open(cls) -> Principal:
        return cls(key_id=None, workspaces=None, admin=True)

    def visible_workspaces(self) -> tuple[str, ...] | None:
        """The workspaces this caller may read or write (None: every one): the row-level wall of its requests
        (shared/db/rls.py)."""
        return self.workspaces

    def require_workspace(self, workspace_id: str) -> str:
        if self.workspaces is not None and workspace_id not in self.workspaces:
            raise Forbidden(f"this key may not use workspace {workspace_id}", code="workspace_forbidden")
        return workspace_id

    def require_write(self) -> None:
        if self.access != "read_write":
            raise Forbidden("this key is read-only", code="read_only_key")

    def require_admin(self) -> None:
        if not self.admin:
            raise Forbidden("admin routes need the admin key", code="admin_required")


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiKeys:
    def __init__(self, db: Database) -> None:
        self.db = db

    def create(
        self,
        workspaces: list[str],
        *,
        access: str = "read_write",
        expires_at: datetime | None = None,
        name: str | None = None,
    ) -> tuple[dict, str]:
        if not workspaces:
            raise InvalidInput("a key needs at least one workspace", code="workspaces_required")
        prefix = secrets.token_hex(6)
        key = f"{KEY_PREFIX}{prefix}_{secrets.token_urlsafe(32)}"
        with self.db.transaction() as conn:
            row = conn.execute(
                "INSERT INTO api_keys (id, prefix, key_hash, workspaces, access, name, expires_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "RETURNING id, prefix, workspaces, access, name, expires_at, revoked_at, created_at",
                (f"key_{uuid.uuid4().hex[:16]}", prefix, _hash(key), workspaces, access, name, expires_at),
            ).fetchone()
        return row, key

    def list(self) -> list[dict]:
        with self.db.connection() as conn:
            return conn.execute(
                "SELECT id, prefix, workspaces, access, name, expires_at, revoked_at, created_at FROM api_keys "
                "ORDER BY created_at, id"
            ).fetchall()

    def revoke(self, key_id: str) -> None:
        with self.db.transaction() as conn:
            done = conn.execute(
                "UPDATE api_keys SET revoked_at = now() WHERE id = %s AND revoked_at IS NULL", (key_id,)
            ).rowcount
        if not done:
            raise NotFound(f"api key {key_id} not found", code="api_key_not_found")

    def authenticate(self, key: str) -> Principal:
        parts = key.split("_")
        if not key.startswith(KEY_PREFIX) or len(parts) < 3:
            raise Unauthorized("invalid API key", code="invalid_api_key")
        with self.db.connection() as conn:
            row = conn.execute(
                "SELECT id, key_hash, workspaces, access, expires_at <= now() AS expired, revoked_at IS NOT NULL "
                "AS revoked FROM api_keys WHERE prefix = %s",
                (parts[1],),
            ).fetchone()
        if row is None or not hmac.compare_digest(row["key_hash"], _hash(key)):
            raise Unauthorized("invalid API key", code="invalid_api_key")
        if row["revoked"]:
            raise Unauthorized("this API key was revoked", code="api_key_revoked")
        if row["expired"]:
            raise Unauthorized("this API key has expired", code="api_key_expired")
        return Principal(key_id=row["id"], workspaces=tuple(row["workspaces"]), access=row["access"])


class RateLimiter:
    """A token bucket per key, in this process (API Gateway throttles the whole stage in AWS).

    >>> limiter = RateLimiter(rate_per_s=1, burst=2)
    >>> limiter.take("k"); limiter.take("k")
    >>> limiter.take("k")
    Traceback (most recent call last):
    shared.errors.RateLimited: rate limit exceeded for this key
    """

    def __init__(self, rate_per_s: float, burst: int) -> None:
        self.rate = rate_per_s
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> None:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                raise RateLimited(
                    "rate limit exceeded for this key",
                    retry_after_s=max(1, math.ceil((1 - tokens) / self.rate)),
                )
            self._buckets[key] = (tokens - 1, now)
