"""Session cleanup outside requests: the scheduled Lambda's work, and a periodic thread for ``make dev``.

>>> with session_cleanup(settings, interval_s=300):  # doctest: +SKIP
...     serve()  # meanwhile, expired sessions are committed and removed
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from shared.app.services import Services
from shared.core.settings import Settings
from shared.db import idempotency
from shared.db.pool import Database
from shared.domain.memories.tier_backfill import backfill_tiers

log = logging.getLogger("memorylayer.sessions.cleanup")
# One sweep deletes at most this many idempotency records per statement, and this many statements: short
# transactions, and a backlog (a first run, a long pause) is worked off over a few sweeps.
IDEMPOTENCY_PURGE_BATCH = 5000
IDEMPOTENCY_PURGE_BATCHES = 20


def expire_idempotency_records(db: Database, ttl_s: int) -> int:
    """Delete memory writes' Idempotency-Key records older than ``ttl_s`` (settings.idempotency_ttl_s); how many.
    A write already treats such a record as absent: this only keeps the table from growing for ever."""
    purged = 0
    for _ in range(IDEMPOTENCY_PURGE_BATCHES):
        with db.transaction() as conn:
            count = idempotency.purge(conn, ttl_s, IDEMPOTENCY_PURGE_BATCH)
        purged += count
        if count < IDEMPOTENCY_PURGE_BATCH:
            break
    return purged


@contextmanager
def periodic(task: Callable[[], object], interval_s: float, *, name: str) -> Iterator[threading.Thread]:
    """Run ``task`` every ``interval_s`` seconds on a daemon thread until the block exits; errors are logged,
    never fatal (the next run tries again)."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval_s):
            try:
                task()
            except Exception:  # a failing run must not kill the loop
                log.exception("%s failed", name)

    thread = threading.Thread(target=loop, name=name, daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        stop.set()
        thread.join(timeout=interval_s + 5)


@contextmanager
def session_cleanup(settings: Settings, interval_s: float | None = None) -> Iterator[threading.Thread]:
    """``make dev``'s stand-in for the EventBridge rule that invokes functions/cleanup: the same services."""
    services = Services.build(settings, purpose="cleanup")
    service = services.sessions

    def run() -> None:
        result = service.cleanup()
        result["idempotency_records_expired"] = expire_idempotency_records(
            services.db, settings.idempotency_ttl_s
        )
        if settings.extractive_tiers_enabled:
            result["tiers_written"] = int(backfill_tiers(services.db)["tiers_written"])
        if any(result.values()):
            log.info("session cleanup: %s", result)

    try:
        with periodic(
            run, interval_s or settings.session_cleanup_interval_s, name="session-cleanup"
        ) as thread:
            yield thread
    finally:
        services.close()
