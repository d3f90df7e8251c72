"""The extraction worker inside ``memorylayer serve --worker``: for a server on a Postgres of your own with no
SQS queue, jobs are taken from the database (``extraction_jobs`` still ``queued``) and run in this process.

>>> with database_worker(services, interval_s=1.0):  # doctest: +SKIP
...     serve()  # meanwhile, queued extraction jobs run here
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from shared.app.cleanup import periodic
from shared.app.services import Services
from shared.db import rls
from shared.db import threads as threads_repo

log = logging.getLogger("memorylayer.worker")


class QueuedJobs:
    """Runs the jobs still queued, oldest first; a job that fails is tried again on the next pass, up to
    ``extraction_max_attempts`` times (its last failure marks it ``failed``), as SQS's redrive would."""

    def __init__(self, services: Services, batch: int = 20) -> None:
        self.services = services
        self.batch = batch
        self._attempts: dict[str, int] = {}
        self._lock = threading.Lock()  # one pass at a time in this process

    def run_once(self) -> int:
        """One pass: the number of jobs that ran (done or failed)."""
        ran = 0
        with self._lock, rls.visible(rls.EVERY):
            with self.services.db.connection() as conn:
                jobs = threads_repo.stale_jobs(conn, 0, self.batch)
            for job in jobs:
                attempt = self._attempts.get(job["id"], 0) + 1
                self._attempts[job["id"]] = attempt
                body = json.dumps({"job_id": job["id"], "workspace_id": job["workspace_id"]})
                try:
                    self.services.worker.process(body, receive_count=attempt)
                    self._attempts.pop(job["id"], None)
                except Exception:
                    log.exception("extraction job %s failed (attempt %s)", job["id"], attempt)
                    if attempt >= self.services.settings.extraction_max_attempts:
                        self._attempts.pop(job["id"], None)
                ran += 1
        return ran


@contextmanager
def database_worker(services: Services, interval_s: float = 1.0) -> Iterator[QueuedJobs]:
    """Run queued jobs every ``interval_s`` seconds on a daemon thread until the block exits."""
    jobs = QueuedJobs(services)
    with periodic(jobs.run_once, interval_s, name="extraction-worker"):
        yield jobs
