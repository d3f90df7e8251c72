"""Vector indexing in this process when there is no queue (local stack, tests), and its pause around bulk
writes.

    >>> with services.inline_indexer.writing():  # around a bulk write  # doctest: +SKIP
    ...     services.memories.batch(ws, body)
    >>> services.inline_indexer.request()        # as it ends          # doctest: +SKIP
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

__all__ = ["BULK_QUIET_S", "IndexesVectors", "InlineIndexer"]

log = logging.getLogger("memorylayer.indexing")

# A bulk build of the graph waits until bulk writes have paused this long (none in flight, the last ended this long
# ago): an import of a million rows in batches of 1,000 then gets one build at the end instead of a chain of ever
# larger ones racing it for the CPU.
BULK_QUIET_S = 3.0


class IndexesVectors(Protocol):
    """What runs one indexing pass (``VectorIndexer``, or the extraction worker that delegates to one)."""

    def index_vectors(self, *, defer_bulk: bool = False) -> dict[str, Any]: ...


class InlineIndexer:
    """Vector indexing in this process when there is no queue (local stack, tests): one run at a time.

    Every bulk write asks for a run. Asks that arrive during a run set a flag the run checks before it ends,
    so none is lost, and a fast bulk load does not start one UPDATE per batch that then fight over 2 cores
    until they hit the statement timeout. Best effort: a failed run is logged, never raised into a request;
    the rows stay pending (recall still finds them) until the next run or the scheduled cleanup.

    A pending set large enough for a bulk build (``VectorIndexer.index_vectors``) is built once the bulk
    writes have paused for ``quiet_s``: none in flight (``writing``) and the last one ended that long ago. A run that
    finds writes still arriving defers, and asks again after the pause. Counting only the asks (each comes as a
    write ends) let a build begin mid-import whenever one batch took longer than the pause (a GIN pending-list
    merge, a checkpoint): the rows written meanwhile then needed a second build of the whole graph.
    """

    def __init__(self, indexer: IndexesVectors, *, quiet_s: float = BULK_QUIET_S) -> None:
        self.indexer = indexer
        self.quiet_s = quiet_s
        self._running = threading.Lock()
        self._wanted = threading.Event()
        self._last_write = 0.0  # when a bulk write last ended: its ``writing`` block, or its ask
        self._in_flight = 0
        self._counting = threading.Lock()
        self._timer: threading.Timer | None = None

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Mark a bulk write in flight: no bulk build starts until it (and the pause after it) is over."""
        with self._counting:
            self._in_flight += 1
        try:
            yield
        finally:
            with self._counting:
                self._in_flight -= 1
                self._last_write = time.monotonic()

    def request(self) -> None:
        self._last_write = time.monotonic()
        self._run()

    def _writes_arriving(self) -> bool:
        return self._in_flight > 0 or time.monotonic() - self._last_write < self.quiet_s

    def _run(self) -> None:
        self._wanted.set()
        while self._wanted.is_set() and self._running.acquire(blocking=False):
            try:
                while self._wanted.is_set():
                    self._wanted.clear()
                    result = self.indexer.index_vectors(defer_bulk=self._writes_arriving())
                    if isinstance(result, dict) and result.get("status") == "deferred":
                        self._ask_later()
                    elif isinstance(result, dict) and result.get("more"):
                        # The run's time budget ended with rows still pending: go on (no later ask may come).
                        self._wanted.set()
            except Exception:
                log.exception("inline vector indexing failed; the rows stay pending for the next run")
                return
            finally:
                self._running.release()

    def _ask_later(self) -> None:
        """Run again once the asks have paused (each new ask starts a run of its own meanwhile)."""
        if self._timer is not None:
            self._timer.cancel()
        # A write in flight asks again as it ends; this is only the fallback.
        idle = time.monotonic() - self._last_write
        wait = self.quiet_s + 0.1 if self._in_flight else max(0.1, self.quiet_s - idle + 0.1)
        self._timer = threading.Timer(wait, self._run)
        self._timer.daemon = True
        self._timer.start()
