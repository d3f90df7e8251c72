"""The services one process shares across requests and invocations (one pool per warm container).

>>> services = Services.build(Settings(database_url="postgresql://…"))   # doctest: +SKIP
>>> services.sessions.cleanup()                                          # doctest: +SKIP

Every entry point that needs services builds them here: the API app (``shared/api/app.py``), the worker and
cleanup Lambdas (``shared/app/bootstrap.py``), ``make dev``'s cleanup thread; ``purpose`` sizes the pool and picks
its default row-level wall. The CLI needs only a pool: ``Database.from_settings(settings, purpose="cli")``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from shared.core.settings import Settings
from shared.db.pool import Database, Purpose
from shared.db.scope import Scope
from shared.domain.auth import ApiKeys
from shared.domain.context_env.service import SandboxService
from shared.domain.documents.service import DocumentService
from shared.domain.extraction.worker import ExtractionWorker
from shared.domain.memories.service import MemoryService
from shared.domain.retrieval.answer import Answerer
from shared.domain.retrieval.recall import Recaller
from shared.domain.sessions.packs import ContextService
from shared.domain.sessions.service import SessionService
from shared.domain.threads import ThreadService
from shared.domain.workspaces import WorkspaceService
from shared.providers.blobs import create_blobs
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.base import Embedder
from shared.providers.llm import create_llm
from shared.providers.queue import create_document_queue, create_queue
from shared.providers.tracing import traced_database

log = logging.getLogger("memorylayer.indexing")


# A bulk build of the graph waits until bulk writes have paused this long (none in flight, the last ended this long
# ago): an import of a million rows in batches of 1,000 then gets one build at the end instead of a chain of ever
# larger ones racing it for the CPU.
BULK_QUIET_S = 3.0


class InlineIndexer:
    """Vector indexing in this process when there is no queue (local stack, tests): one run at a time.

    Every bulk write asks for a run. Asks that arrive during a run set a flag the run checks before it ends,
    so none is lost, and a fast bulk load does not start one UPDATE per batch that then fight over 2 cores
    until they hit the statement timeout. Best effort: a failed run is logged, never raised into a request;
    the rows stay pending (recall still finds them) until the next run or the scheduled cleanup.

    A pending set large enough for a bulk build (``ExtractionWorker.index_vectors``) is built once the bulk
    writes have paused for ``quiet_s``: none in flight (``writing``) and the last one ended that long ago. A run that
    finds writes still arriving defers, and asks again after the pause. Counting only the asks (each comes as a
    write ends) let a build begin mid-import whenever one batch took longer than the pause (a GIN pending-list
    merge, a checkpoint): the rows written meanwhile then needed a second build of the whole graph.

    >>> with services.inline_indexer.writing():  # around a bulk write  # doctest: +SKIP
    ...     services.memories.batch(ws, body)
    """

    def __init__(self, worker: ExtractionWorker, *, quiet_s: float = BULK_QUIET_S) -> None:
        self.worker = worker
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
                    result = self.worker.index_vectors(defer_bulk=self._writes_arriving())
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


@dataclass
class Services:
    """Every service of one process, built together by ``build`` over one pool and one embedder."""

    settings: Settings
    db: Database
    embedder: Embedder
    memories: MemoryService
    recaller: Recaller
    workspaces: WorkspaceService
    sessions: SessionService
    context: ContextService
    threads: ThreadService
    answerer: Answerer
    api_keys: ApiKeys
    worker: ExtractionWorker
    inline_indexer: InlineIndexer
    sandboxes: SandboxService
    documents: DocumentService

    @classmethod
    def build(
        cls,
        settings: Settings,
        *,
        purpose: Purpose = "api",
        db: Database | None = None,
        embedder: Embedder | None = None,
    ) -> Services:
        """The services over a new pool for ``purpose`` (or ``db``: tests share one) and the configured
        embedder (or ``embedder``: one loaded before a SnapStart snapshot)."""
        db = traced_database(db or Database.from_settings(settings, purpose=purpose))
        embedder = embedder or create_embedder(settings)
        memories = MemoryService(db, embedder, settings)
        recaller = Recaller(db, embedder, settings)
        sessions = SessionService(db, embedder, settings)
        worker = ExtractionWorker(db, embedder, settings)
        return cls(
            settings=settings,
            db=db,
            embedder=embedder,
            memories=memories,
            recaller=recaller,
            workspaces=WorkspaceService(db, memories),
            sessions=sessions,
            context=ContextService(db, sessions, recaller, settings),
            threads=ThreadService(db, create_queue(settings), worker),
            answerer=Answerer(recaller, create_llm(settings)),
            sandboxes=SandboxService(db, sessions, recaller, create_llm(settings), settings),
            api_keys=ApiKeys(db),
            worker=worker,
            inline_indexer=InlineIndexer(worker),
            documents=DocumentService(
                db, embedder, create_blobs(settings), create_document_queue(settings), settings
            ),
        )

    def request_vector_indexing(self) -> None:
        """After a bulk write: the worker moves the pending rows into the HNSW graph; with no queue, now."""
        if not self.threads.queue.send({"kind": "index_vectors"}):
            self.inline_indexer.request()

    def session_workspace(self, scope: Scope, session_id: str, *, write: bool = True) -> str | None:
        """The workspace of a live session within ``scope`` (the caller's workspaces: X-Session-ID
        resolution); for a caller who may write, slides its TTL in the same statement."""
        return self.sessions.slide(scope, session_id, write=write)

    def close(self) -> None:
        self.db.close()
