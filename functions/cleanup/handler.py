"""Lambda "cleanup", invoked by an EventBridge schedule (every 5 minutes): commits expired sessions that
auto-commit, removes them, drops expired working-memory keys, ages out context events, and re-sends
extraction jobs whose queue message was never sent, and drops rate-limit windows that ended an hour ago.

    >>> handler({"source": "aws.events", "detail-type": "Scheduled Event"}, context)   # doctest: +SKIP
    {'sessions_expired': 2, 'sessions_committed': 2, 'working_keys_expired': 0, 'events_purged': 0}

The service (pool, embedder) is built on the first invocation and reused while the container is warm.
"""

from __future__ import annotations

from functools import lru_cache

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

from shared.auth import purge_rate_windows
from shared.extraction.worker import index_pending
from shared.queue import JobQueue, create_queue
from shared.sessions.cleanup import build_session_service
from shared.sessions.service import SessionService
from shared.settings import get_settings
from shared.threads import requeue_stale_jobs
from shared.tracing import lambda_tracer

logger = Logger(service="memorylayer-cleanup")
tracer = lambda_tracer("memorylayer-cleanup")  # X-Ray, see shared/tracing.py
metrics = Metrics(namespace="MemoryLayer", service="cleanup")

_service: SessionService | None = None


@lru_cache(maxsize=1)
def queue() -> JobQueue:
    return create_queue(get_settings())


def service() -> SessionService:
    global _service
    if _service is None:
        _service = build_session_service(get_settings())
    return _service


@logger.inject_lambda_context
@tracer.capture_lambda_handler(capture_response=False)  # no response bodies in traces
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict, context: object) -> dict[str, int]:
    result = service().cleanup()
    result["jobs_requeued"] = requeue_stale_jobs(service().db, queue())
    # A safety net: bulk writes whose indexing message was lost still join the HNSW graph.
    result["vectors_indexed"] = index_pending(service().db, max_batches=10)
    result["rate_windows_purged"] = purge_rate_windows(service().db)
    for name, value in result.items():
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)
    logger.info("session cleanup", extra=result)
    return result
