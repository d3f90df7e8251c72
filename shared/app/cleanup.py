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

log = logging.getLogger("memorylayer.sessions.cleanup")


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
        if any(result.values()):
            log.info("session cleanup: %s", result)

    try:
        with periodic(
            run, interval_s or settings.session_cleanup_interval_s, name="session-cleanup"
        ) as thread:
            yield thread
    finally:
        services.close()
