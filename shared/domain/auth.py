"""API keys and who a request is.

    >>> keys = ApiKeys(db)                                                     # doctest: +SKIP
    >>> row, key = keys.create(["ws_a"], access="read_write")                  # doctest: +SKIP
    >>> keys.authenticate(key).workspaces                                      # doctest: +SKIP
    ('ws_a',)

Keys look like ``mlk_<12 hex prefix>_<43 url-safe chars>``: random (``secrets``), stored as the prefix (to find
the row) and a SHA-256 of the whole key (to check it, in constant time). The key is returned once, at
creation. Every request checks the key against the database: a revoked key stops working at once. A token
(/v1/tokens) is such a key, minted by another key and no wider than it: the same row, the same check.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from cachetools import TLRUCache

from shared.core.errors import Conflict, Forbidden, InvalidInput, NotFound, RateLimited, Unauthorized
from shared.core.tenants import DEFAULT_TENANT, global_space, space_owner, user_space
from shared.db import api_keys as keys_repo
from shared.db import audit, rate_limits
from shared.db.rows import Connection

if TYPE_CHECKING:
    from shared.db.pool import Database

KEY_PREFIX = "mlk_"
MAX_TOKENS_PER_KEY = 100  # rows a key may mint (revoked and expired ones count until deleted)


@dataclass(frozen=True)
class TokenOrigin:
    """What makes a key a token: who minted it (None: the admin key), the top of that chain, what it was
    asked for."""

    parent_id: str | None
    root_id: str | None
    scopes: list[str]
    principal_type: str


@dataclass(frozen=True)
class Principal:
    """The caller: an admin, a workspace-scoped key, or anyone (auth mode ``none``).

    >>> Principal("key_1", ("ws_a",), tenant_id="acme").visible_workspaces()
    ('ws_a', '_global_user:acme')
    """

    key_id: str | None
    workspaces: tuple[str, ...] | None  # None: every workspace
    access: str = "read_write"
    admin: bool = False
    tenant_id: str = DEFAULT_TENANT
    # What the key may do in its tenant's user space: none, read, read_write (a key permission, not implied).
    shared_spaces: str = "read_write"
    # Whether the request at hand writes: a key that may only read the user space does not see it then.
    writing: bool = False
    # A token's: the key at the top of its chain (whose rate budget it draws from), and when it stops working.
    root_id: str | None = None
    expires_at: datetime | None = None

    @classmethod
    def open(cls) -> Principal:
        """Auth mode ``none``: every workspace, but not the admin routes (those always need the admin key)."""
        return cls(key_id=None, workspaces=None, admin=False)

    @property
    def budget_id(self) -> str | None:
        """Whose per-key limits this request counts against: a token shares its root key's, so minting tokens
        never multiplies a key's budget."""
        return self.root_id or self.key_id

    @property
    def user_space(self) -> str:
        """Where ``scope: "user"`` memories of this caller's tenant live."""
        return user_space(self.tenant_id)

    @property
    def global_space(self) -> str:
        return global_space(self.tenant_id)

    def visible_workspaces(self) -> tuple[str, ...] | None:
        """The workspaces this caller may read or write: its key's, plus its tenant's user space, which every
        workspace of the tenant shares. None: all (the admin key, auth mode ``none``). It is also the row-level
        wall of the caller's requests (shared/db/rls.py)."""
        if self.workspaces is None:
            return None
        shared = self.shared_spaces == "read_write" or (self.shared_spaces == "read" and not self.writing)
        return tuple(dict.fromkeys((*self.workspaces, self.user_space))) if shared else self.workspaces

    def require_workspace(self, workspace_id: str) -> str:
        visible = self.visible_workspaces()
        if visible is not None and workspace_id not in visible:
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
        tenant_id: str | None = None,
        shared_spaces: str = "read",
        token: TokenOrigin | None = None,
    ) -> tuple[dict, str]:
        """A new key. Without ``tenant_id`` it joins the tenant that owns its workspaces, or, for new ones, a
        tenant of its own: two customers onboarded with the defaults never share a tenant's spaces. ``token``:
        a token minted by the caller (shared/domain/tokens.py), which has already narrowed what it may do."""
        if not workspaces:
            raise InvalidInput("a key needs at least one workspace", code="workspaces_required")
        prefix = secrets.token_hex(6)
        key = f"{KEY_PREFIX}{prefix}_{secrets.token_urlsafe(32)}"
        with self.db.transaction() as conn:
            if (
                token
                and token.parent_id
                and keys_repo.lock_children(conn, token.parent_id) >= MAX_TOKENS_PER_KEY
            ):
                raise Conflict(
                    f"a key holds at most {MAX_TOKENS_PER_KEY} tokens; delete revoked or expired ones",
                    code="too_many_tokens",
                )
            tenant_id = tenant_id or self._implied_tenant(conn, workspaces)
            self._claim(conn, tenant_id, workspaces)
            row = keys_repo.insert(
                conn,
                key_id=f"key_{uuid.uuid4().hex[:16]}",
                prefix=prefix,
                key_hash=_hash(key),
                workspaces=workspaces,
                access=access,
                name=name,
                expires_at=expires_at,
                tenant_id=tenant_id,
                shared_spaces=shared_spaces,
                parent_id=token.parent_id if token else None,
                root_id=token.root_id if token else None,
                scopes=token.scopes if token else None,
                principal_type=token.principal_type if token else None,
            )
            # Listed under the key's first workspace: the tenant's keys see it, and a token minted behind a
            # key's wall can write it.
            audit.record(
                conn,
                workspaces[0],
                "api_key",
                "create",
                resource_type="token" if token else "api_key",
                resource_id=row["id"],
                metadata={"workspaces": workspaces, "access": access},
                tenant_id=tenant_id,
            )
        return row, key

    @staticmethod
    def _implied_tenant(conn: Connection, workspaces: list[str]) -> str:
        owners = sorted(
            {*keys_repo.workspace_tenants(conn, workspaces), *filter(None, map(space_owner, workspaces))}
        )
        if len(owners) > 1:
            raise Conflict(
                "these workspaces belong to different tenants; name the key's tenant_id",
                code="workspaces_of_several_tenants",
            )
        return owners[0] if owners else f"tn_{secrets.token_hex(8)}"

    @staticmethod
    def _claim(conn: Connection, tenant_id: str, workspaces: list[str]) -> None:
        """Make the key's workspaces the tenant's, or refuse the key if another tenant owns one.

        Claiming now (not at the first write) leaves no window in which two tenants' keys name one new
        workspace; a concurrent claim waits on the other transaction's row and then sees its owner."""
        reserved = [w for w in workspaces if space_owner(w) not in (None, tenant_id)]
        foreign = keys_repo.claim_workspaces(conn, tenant_id, [w for w in workspaces if w not in reserved])
        taken = sorted({*reserved, *foreign})
        if taken:
            raise Conflict(
                f"workspace {taken[0]} belongs to another tenant", code="workspace_of_another_tenant"
            )

    def list(self) -> list[dict]:
        with self.db.connection() as conn:
            return keys_repo.list_all(conn)

    def revoke(self, key_id: str) -> None:
        with self.db.transaction() as conn:
            found = keys_repo.revoke(conn, key_id)
            if found is None:
                raise NotFound(f"api key {key_id} not found", code="api_key_not_found")
            audit.record(
                conn,
                found["workspaces"][0],
                "api_key",
                "revoke",
                resource_type="api_key",
                resource_id=key_id,
                tenant_id=found["tenant_id"],
            )

    def authenticate(self, key: str) -> Principal:
        parts = key.split("_")
        if not key.startswith(KEY_PREFIX) or len(parts) < 3:
            raise Unauthorized("invalid API key", code="invalid_api_key")
        # A workspace another tenant owns drops out of the key (it was deleted and claimed anew since the key
        # was made): the wall holds even for a key whose list is stale.
        with self.db.connection() as conn:
            row = keys_repo.by_prefix(conn, parts[1])
        if row is None or not hmac.compare_digest(row["key_hash"], _hash(key)):
            raise Unauthorized("invalid API key", code="invalid_api_key")
        if row["revoked"]:
            raise Unauthorized("this API key was revoked", code="api_key_revoked")
        if row["expired"]:
            raise Unauthorized("this API key has expired", code="api_key_expired")
        return Principal(
            key_id=row["id"],
            workspaces=tuple(row["workspaces"]),
            access=row["access"],
            tenant_id=row["tenant_id"],
            shared_spaces=row["shared_spaces"],
            root_id=row["root_id"],
            expires_at=row["expires_at"],
        )


# What the shared windows are counted by. The database's now() by default, one clock for every container;
# a test sets one that stands still, so a window boundary cannot reset a count halfway through it.
WindowClock = Callable[[], datetime]


def count_in_window(
    db: Database, bucket: str, window_s: float, cost: int = 1, clock: WindowClock | None = None
) -> tuple[int, float]:
    """Add ``cost`` to ``bucket``'s current window; returns (count so far, seconds until the window ends)."""
    with db.connection() as conn:
        return rate_limits.count_in_window(conn, bucket, window_s, cost, at=clock() if clock else None)


def purge_rate_windows(db: Database, older_than_s: int = 3600) -> int:
    """Drop windows that ended long ago (the cleanup function, every few minutes)."""
    with db.transaction() as conn:
        return rate_limits.purge(conn, older_than_s)


class RateLimiter:
    """Per-key work, counted in Postgres so the limit holds for the whole fleet, not per container: ``burst``
    units per window of ``burst / rate_per_s`` seconds (50/s with a burst of 100: 100 per 2 s). A request
    costs one unit, an expensive one more (``cost``: recall, traverse, import, the sandbox)."""

    def __init__(self, db: Callable[[], Database], rate_per_s: float, burst: int) -> None:
        self._db = db
        self.burst = burst
        self.window_s = max(1.0, burst / rate_per_s)
        self.clock: WindowClock | None = None  # None: the database's clock

    def take(self, key_id: str, cost: int = 1) -> None:
        count, resets_in_s = count_in_window(self._db(), f"key:{key_id}", self.window_s, cost, self.clock)
        if count > self.burst:
            raise RateLimited(
                "rate limit exceeded for this key", retry_after_s=max(1, math.ceil(resets_in_s))
            )


class AuthGuard:
    """What stands in front of the api_keys lookup: a limit on failed authentications per source address, and a
    short negative cache of keys that just failed.

    A blocked address and a remembered bad key are answered from this process's memory, so a flood of garbage
    keys costs no database work once it is recognised. Failures are also counted in the shared window
    (one statement per failure), so each container learns of a block the fleet has reached.

    A blocked address still gets its keys looked up when they name a live key's prefix (the set of prefixes is
    read at most every ``PREFIXES_TTL_S``): the other clients behind it (the console, an MCP server, an SDK on
    the same laptop) keep working. Guessing the secret of one such key is then limited per address and prefix,
    to the same budget.

    >>> guard = AuthGuard(lambda: None, failures_per_minute=2, negative_ttl_s=30)
    >>> guard.remember_bad("mlk_x_y"); guard.known_bad("mlk_x_y"), guard.known_bad("mlk_x_z")
    (True, False)
    """

    WINDOW_S = 60.0
    MAX_ENTRIES = 10_000  # bounds memory under a flood of distinct keys or addresses
    GOOD_TTL_S = 900.0  # a key that worked here lately is not locked out by its neighbours' failures
    PREFIXES_TTL_S = 5.0  # a key made while its address is blocked works from then on within this

    def __init__(
        self,
        db: Callable[[], Database | None],
        failures_per_minute: int,
        negative_ttl_s: float,
        *,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self._db = db
        self.failures_per_minute = failures_per_minute
        self.negative_ttl_s = negative_ttl_s
        self._timer = timer
        self._bad_keys = _expiring(self.MAX_ENTRIES, timer)  # sha256 of the key -> expiry
        self._blocked = _expiring(self.MAX_ENTRIES, timer)  # source address -> end of its block
        self._good_keys = _expiring(self.MAX_ENTRIES, timer)  # sha256 of a key that authenticated -> expiry
        self._prefixes: frozenset[str] = frozenset()  # live keys' prefixes, read while an address is blocked
        self._prefixes_until = 0.0  # monotonic time they are read again
        self._lock = threading.Lock()
        self.clock: WindowClock | None = None  # None: the database's clock

    def check_source(self, source: str, key: str = "") -> None:
        """429 for an address over its failure budget, before any key is looked at, unless the key is one
        that authenticated here lately: clients behind one address (a NAT, a laptop) keep working while
        another of them floods garbage keys. A key new to this process waits out the block."""
        with self._lock:
            if key and _hash(key) in self._good_keys:
                return
            until = self._blocked.get(source)
            prefix = _prefix(key)
            if until is not None and prefix:
                until = self._blocked.get(f"{source} {prefix}")
                if until is None and prefix not in self._live_prefixes():
                    until = self._blocked.get(source)
        if until is not None:
            raise RateLimited(
                "too many failed authentications from this address",
                code="auth_rate_limited",
                retry_after_s=max(1, math.ceil(until - self._timer())),
            )

    def failed(self, source: str, key: str = "") -> None:
        db = self._db()
        if db is None:
            return
        with self._lock:
            blocked = source in self._blocked
        # Once the address is blocked, what still reaches a lookup names a live prefix: count it by prefix too.
        name = f"{source} {_prefix(key)}" if blocked and _prefix(key) else source
        count, resets_in_s = count_in_window(db, f"authfail:{name}", self.WINDOW_S, clock=self.clock)
        if count >= self.failures_per_minute:
            with self._lock:
                self._blocked[name] = self._timer() + max(1.0, resets_in_s)

    def _live_prefixes(self) -> frozenset[str]:
        """Called under the lock: one read per ``PREFIXES_TTL_S`` however many requests a flood sends."""
        now = self._timer()
        if now >= self._prefixes_until:
            db = self._db()
            if db is not None:
                with db.connection() as conn:
                    self._prefixes = frozenset(keys_repo.live_prefixes(conn))
            self._prefixes_until = now + self.PREFIXES_TTL_S
        return self._prefixes

    def known_bad(self, key: str) -> bool:
        with self._lock:
            return _hash(key) in self._bad_keys

    def remember_good(self, key: str) -> None:
        with self._lock:
            self._good_keys[_hash(key)] = self._timer() + self.GOOD_TTL_S

    def remember_bad(self, key: str) -> None:
        with self._lock:
            self._bad_keys[_hash(key)] = self._timer() + self.negative_ttl_s


# What a request costs the limiter, by route: the expensive ones by the work they start, and a batch, an import
# or a document upload also by its size (one unit per 64 KiB of body), so a large file costs what its work does.
ROUTE_COSTS: tuple[tuple[re.Pattern[str], int, bool], ...] = (  # (path, units, plus one per 64 KiB)
    (re.compile(r"^/v1/context/(execute|rlm|query)$"), 10, False),
    (re.compile(r"^/v1/context/(load|inject)$"), 3, False),
    (re.compile(r"^/v1/memories/(recall|reflect|answer)$"), 3, False),
    (re.compile(r"^/v1/memories/[^/]+/traverse$"), 3, False),
    (re.compile(r"^/v1/graph/(analyze|densify-preview)$"), 3, False),
    (re.compile(r"^/v1/workspaces/[^/]+/contradictions/scan$"), 5, False),
    (re.compile(r"^/v1/memories/batch$"), 5, True),
    (re.compile(r"^/v1/workspaces/[^/]+/import$"), 5, True),
    (re.compile(r"^/v1/entities/[^/]+/derive$"), 10, False),
    (re.compile(r"^/v1/entities/(backfill|dedupe)$"), 5, False),
    (re.compile(r"^/v1/entities/seed$"), 1, True),
    (re.compile(r"^/v1/knowledgebase/generate$"), 10, False),  # reads and rewrites a whole workspace
    # An upload is parsed (a child process), stored and ingested: priced by its size like an import.
    (re.compile(r"^/v1/documents$"), 5, True),
    (re.compile(r"^/v1/documents/[^/]+/reprocess$"), 5, False),
)
IMPORT_BYTES_PER_UNIT = 64 * 1024


def request_cost(method: str, path: str, content_length: int) -> int:
    """Units of the per-key limit one request takes.

    >>> request_cost("GET", "/v1/memories", 0), request_cost("POST", "/v1/memories/recall", 120)
    (1, 3)
    >>> request_cost("POST", "/v1/workspaces/ws/import", 10 * 1024 * 1024)
    165
    >>> request_cost("POST", "/v1/documents", 4 * 1024 * 1024), request_cost("GET", "/v1/documents", 0)
    (69, 1)
    """
    if method in ("GET", "HEAD", "OPTIONS"):
        return 1
    for pattern, cost, by_size in ROUTE_COSTS:
        if pattern.match(path):
            return cost + (content_length // IMPORT_BYTES_PER_UNIT if by_size else 0)
    return 1


def _prefix(key: str) -> str:
    """The lookup prefix of a well-formed key (``mlk_<prefix>_<secret>``), else ""."""
    parts = key.split("_")
    return parts[1] if key.startswith(KEY_PREFIX) and len(parts) >= 3 else ""


def _expiring(maxsize: int, timer: Callable[[], float]) -> TLRUCache[str, float]:
    """Names mapped to the time each expires (the value is the expiry): an entry is gone once its time has
    passed, and a full cache drops the expired entries, then the least recently used, to make room for one."""
    return TLRUCache(maxsize=maxsize, ttu=lambda _name, until, _now: until, timer=timer)
