"""One connection pool per warm process; a connection is borrowed per unit of work.

    >>> db = Database.from_settings(settings, purpose="api")   # doctest: +SKIP
    >>> with db.transaction() as conn:                          # doctest: +SKIP
    ...     conn.execute("SELECT 1")

Every pool is built here, from Settings, with the same timeouts: the connection target (URL, or host + IAM
token for each new connection) comes from ``shared/db/connection.py``; session defaults (statement timeout,
HNSW search settings) come from the app role (``ALTER ROLE ... SET``), never from libpq startup ``options``,
which RDS Proxy refuses. ``prepare_threshold=None``: psycopg never creates named prepared statements, which
would pin a client connection to one database connection in RDS Proxy.

Row-level security (migration 0015, ``shared/db/rls.py``): each unit of work runs behind the wall of its
context, a transaction-local ``memorylayer.workspaces`` set first thing, so ``connection()`` runs its block in
one transaction whenever there is a wall to set. An API process sees nothing unless the request set a wall;
the worker, cleanup and the CLI see every workspace, and say so here (``purpose``).

Connection failures surface as ``DatabaseUnavailable`` (503) quickly instead of hanging a request; the pool
re-validates connections so that a database restart (or the server ending an idle session) heals without
restarting the process. A database that is resuming (Aurora Serverless v2 from 0 ACU: connection attempts are
held without an answer for about 15 s, 30 s after a day paused) is waited out instead, up to the purpose's
resume timeout, then ``DatabaseResuming`` (503 with Retry-After): ``_ConnectAttempts`` tells the two apart by
what the pool's own connection attempts are doing. Pools start empty and close idle connections after
``db_pool_max_idle_s``: a frozen Lambda container holds nothing for long, and the role's
``idle_session_timeout`` covers a frozen pool.
"""

from __future__ import annotations

import math
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, Literal, Self, cast

import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from shared.core import metrics
from shared.core.errors import DatabaseResuming, DatabaseUnavailable
from shared.core.settings import Settings
from shared.db import rls
from shared.db.connection import ConnectionTarget, app_target
from shared.db.rows import Connection

Purpose = Literal["api", "worker", "cleanup", "cli"]
# Background pools stay small: the worker and cleanup run one job at a time per container.
_SMALL_POOL = 2
# After this long unused (a quiet spell, a thawed Lambda container), every pooled connection is checked at
# once before the next borrow: the server may have ended them all (the role's idle_session_timeout is 60 s),
# and the pool's own check on borrow would try the dead ones one by one with a growing backoff, long enough
# to time the request out.
IDLE_RECHECK_S = 30.0
# A connection given back this recently is lent again without a check round trip: under load that is one
# round trip (through RDS Proxy, a network hop) saved per request. Older ones are pinged first, as before. What
# can end a connection within this window is a server restart or a kill, which fails that one request (a 503)
# and discards the connection, rather than making every request pay for the check.
RECENTLY_RETURNED_S = 2.0
# A connection attempt without an answer for this long (or half the connect wait, if that is shorter: the
# attempt may have begun after the borrower) is not a slow network but a held one, a resume: a healthy connect,
# TLS and IAM token included, takes milliseconds.
HELD_ATTEMPT_S = 1.0
# Aurora's longest usual resume (after a day paused): what Retry-After counts down from.
LONGEST_RESUME_S = 30.0
# Each connection attempt's libpq connect_timeout. Longer than any resume: a borrower that stops waiting leaves
# the attempt running in the pool, so the connection is there when the resume ends; an attempt given up early
# would put the pool into its reconnect backoff, seconds after the database is back.
ATTEMPT_TIMEOUT_S = 2 * LONGEST_RESUME_S


def _configure(conn: Connection) -> None:
    register_vector(conn)


class _CheckUnlessRecent:
    """The pool's ``check`` callback: ping on borrow only the connections idle for ``RECENTLY_RETURNED_S`` or
    more. ``Database`` marks a connection as it gives it back (not the pool's ``reset`` callback: with one set,
    psycopg_pool returns every connection in a background task, so a borrow straight after a return finds
    none idle and opens another).

        >>> recent = _CheckUnlessRecent()
        >>> ConnectionPool(dsn, check=recent.check)   # doctest: +SKIP
        >>> recent.returned(conn)                     # as the unit of work ends   # doctest: +SKIP
    """

    def __init__(self) -> None:
        self._returned_at: weakref.WeakKeyDictionary[Connection, float] = weakref.WeakKeyDictionary()

    def returned(self, conn: Connection) -> None:
        self._returned_at[conn] = time.monotonic()

    def check(self, conn: Connection) -> None:
        at = self._returned_at.get(conn)
        if at is None or time.monotonic() - at >= RECENTLY_RETURNED_S:
            ConnectionPool.check_connection(conn)


class _ConnectAttempts:
    """What the pool's connection attempts are doing, for a borrower whose wait ran out: an attempt answered
    with a failure (refused, starting up, bad login) means the database is down, fail fast; attempts held
    without an answer, and none failing, mean it is resuming, keep waiting.

        >>> attempts = _ConnectAttempts(answered_within_s=5.0)
        >>> with attempts.attempt():             # around each connect   # doctest: +SKIP
        ...     psycopg.connect(...)
        >>> attempts.resuming(since=started)     # doctest: +SKIP
    """

    def __init__(self, *, answered_within_s: float) -> None:
        self._answered_within_s = answered_within_s
        self._held_after_s = min(HELD_ATTEMPT_S, answered_within_s / 2)
        self._lock = threading.Lock()
        self._in_flight: dict[object, float] = {}
        self._last_answered_failure = -math.inf
        self._last_held_failure = -math.inf

    @contextmanager
    def attempt(self) -> Iterator[None]:
        token, started = object(), time.monotonic()
        with self._lock:
            self._in_flight[token] = started
        try:
            yield
        except BaseException:
            ended = time.monotonic()
            with self._lock:
                if ended - started < self._answered_within_s:
                    self._last_answered_failure = ended
                else:  # a held attempt that ran out of connect_timeout: still no answer
                    self._last_held_failure = ended
            raise
        finally:
            with self._lock:
                del self._in_flight[token]

    def resuming(self, *, since: float) -> bool:
        now = time.monotonic()
        with self._lock:
            if self._last_answered_failure >= since:
                return False
            held = any(now - started >= self._held_after_s for started in self._in_flight.values())
            return held or self._last_held_failure >= since


def _tracked_connection_class(attempts: _ConnectAttempts) -> type[Connection]:
    """A connection class whose ``connect`` (what the pool calls for each new connection) reports to
    ``attempts``."""

    class TrackedConnection(psycopg.Connection[DictRow]):
        @classmethod
        def connect(cls, conninfo: str = "", **kwargs: Any) -> Self:
            with attempts.attempt():
                return super().connect(conninfo, **kwargs)

    return TrackedConnection


class Database:
    def __init__(
        self,
        pool: ConnectionPool[Connection],
        *,
        default_visible: rls.Visible = rls.NOTHING,
        recent: _CheckUnlessRecent | None = None,
        attempts: _ConnectAttempts | None = None,
        connect_timeout_s: float | None = None,
        resume_timeout_s: float | None = None,
    ) -> None:
        self.pool = pool
        self._recent = recent
        self._attempts = attempts
        self._connect_timeout_s = pool.timeout if connect_timeout_s is None else connect_timeout_s
        self._resume_timeout_s = resume_timeout_s or self._connect_timeout_s
        # The wall when the context sets none: nothing (an API request always sets its own), or every
        # workspace for the processes whose work spans them.
        self.default_visible = default_visible
        self._last_used = time.monotonic()
        self._rechecking = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings, *, purpose: Purpose = "api") -> Database:
        """The app role's pool for this process; ``purpose`` sizes it and picks the default row-level wall:
        the worker, cleanup and the CLI work across workspaces, the API only behind each request's wall."""
        max_size = settings.db_pool_max if purpose == "api" else min(settings.db_pool_max, _SMALL_POOL)
        return cls.open(
            app_target(settings),
            min_size=min(settings.db_pool_min, max_size),
            max_size=max_size,
            timeout_s=settings.db_connect_timeout_s,
            # The API answers inside API Gateway's limit; background work has minutes and alarms on errors.
            resume_timeout_s=settings.db_resume_timeout_s
            if purpose == "api"
            else settings.db_background_resume_timeout_s,
            max_idle_s=settings.db_pool_max_idle_s,
            name=f"memorylayer-{purpose}",
            default_visible=rls.NOTHING if purpose == "api" else rls.EVERY,
        )

    @classmethod
    def open(
        cls,
        target: ConnectionTarget,
        *,
        min_size: int = 0,
        max_size: int = 10,
        timeout_s: float = 5.0,
        resume_timeout_s: float | None = None,
        max_idle_s: float = 60.0,
        name: str | None = None,
        default_visible: rls.Visible = rls.NOTHING,
    ) -> Database:
        """``timeout_s``: a borrower's wait when the database answers but cannot serve; ``resume_timeout_s``
        (default the same): its wait while attempts are held unanswered (a resume)."""
        resume_timeout_s = max(timeout_s, resume_timeout_s or timeout_s)
        static: dict[str, Any] = {
            "row_factory": dict_row,
            "autocommit": True,
            "connect_timeout": math.ceil(max(resume_timeout_s, ATTEMPT_TIMEOUT_S)),
            "prepare_threshold": None,
        }

        def kwargs() -> dict[str, Any]:
            # Called by the pool for each new connection: an IAM token is minted here, never reused stale.
            return {**static, **target.kwargs()}

        recent = _CheckUnlessRecent()
        attempts = _ConnectAttempts(answered_within_s=timeout_s)
        # Rows are dicts (row_factory above), which the pool's type cannot see from a kwargs callable.
        pool = cast(
            "ConnectionPool[Connection]",
            ConnectionPool(
                target.conninfo,
                min_size=min_size,
                max_size=max_size,
                timeout=timeout_s,
                kwargs=kwargs,
                connection_class=_tracked_connection_class(attempts),
                configure=_configure,
                # A pooled connection killed by a restart or by idle_session_timeout is detected here, not by
                # the request (unless it was in use a moment ago: _CheckUnlessRecent).
                check=recent.check,
                max_idle=max_idle_s,
                open=False,
                reconnect_timeout=timeout_s * 6,
                name=name,
            ),
        )
        pool.open(wait=False)
        return cls(
            pool,
            default_visible=default_visible,
            recent=recent,
            attempts=attempts,
            connect_timeout_s=timeout_s,
            resume_timeout_s=resume_timeout_s,
        )

    @contextmanager
    def connection(self, *, pipelined: bool = False) -> Iterator[Connection]:
        """Borrow a connection behind this context's row-level wall. With a wall to set, the block is one
        transaction (committed on success): the wall is transaction-local, autocommit would drop it after the
        first statement. Only behind the empty wall (sees nothing) does it stay in autocommit mode.

        ``pipelined``: the block runs in pipeline mode, so BEGIN and the wall travel with its first
        statements instead of a round trip each (two fewer per read; through RDS Proxy each is a network hop).
        A result is read when it is fetched; COPY is not allowed in it.

            >>> with db.connection(pipelined=True) as conn:                     # doctest: +SKIP
            ...     rows = conn.execute("SELECT id FROM memories LIMIT 1").fetchall()
        """
        with self._unit_of_work(transaction=False, pipelined=pipelined) as conn:
            yield conn

    def _recheck_after_idle(self) -> None:
        if time.monotonic() - self._last_used < IDLE_RECHECK_S or not self._rechecking.acquire(
            blocking=False
        ):
            return
        try:
            self.pool.check()  # drops the dead ones (no backoff) and starts replacing them
            self._last_used = time.monotonic()
        finally:
            self._rechecking.release()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """Borrow a connection and run the block in one transaction (committed on success), behind this
        context's row-level wall."""
        with self._unit_of_work(transaction=True) as conn:
            yield conn

    @contextmanager
    def _unit_of_work(self, *, transaction: bool, pipelined: bool = False) -> Iterator[Connection]:
        visible = rls.current(self.default_visible)
        value = rls.setting(visible)  # before borrowing: a bad id fails without touching the pool
        self._recheck_after_idle()
        try:
            with self._borrow() as conn:
                try:
                    if not value and not transaction:
                        yield conn  # nothing to set: with no setting the policies show nothing
                        return
                    with conn.pipeline() if pipelined else nullcontext(), conn.transaction():
                        if value:
                            # set_config(..., true) is SET LOCAL: gone at COMMIT/ROLLBACK, never seen by the
                            # connection's next borrower, and no reason for RDS Proxy to pin.
                            conn.execute("SELECT set_config(%s, %s, true)", (rls.SETTING, value))
                        yield conn
                finally:
                    if self._recent is not None:
                        self._recent.returned(conn)
        except (PoolTimeout, psycopg.OperationalError) as exc:
            raise DatabaseUnavailable(f"database unavailable: {exc.__class__.__name__}") from exc
        finally:
            self._last_used = time.monotonic()

    @contextmanager
    def _borrow(self) -> Iterator[Connection]:
        """``pool.connection()``, with the wait extended while the database resumes."""
        conn = self._getconn()
        try:
            with conn:
                yield conn
        finally:
            self.pool.putconn(conn)

    def _getconn(self) -> Connection:
        started = time.monotonic()
        try:
            return self.pool.getconn(timeout=self._connect_timeout_s)
        except PoolTimeout:
            if self._attempts is None or not self._attempts.resuming(since=started):
                raise
        left = self._resume_timeout_s - (time.monotonic() - started)
        metrics.record(metrics.DATABASE_RETRIES, reason="resuming")  # waiting on past the connect wait
        try:
            if left > 0:
                return self.pool.getconn(timeout=left)
        except PoolTimeout:
            if not self._attempts.resuming(since=started):
                raise
        waited = time.monotonic() - started
        raise DatabaseResuming(
            f"the database is resuming from a pause (waited {waited:.0f} s); retry shortly",
            retry_after_s=max(1, math.ceil(LONGEST_RESUME_S - waited)),
        )

    def ping(self) -> None:
        """One round trip (readiness): ``DatabaseUnavailable`` when the database cannot be reached."""
        with self.connection() as conn:
            conn.execute("SELECT 1")

    def close(self) -> None:
        self.pool.close()
