"""Lambda "cleanup", invoked by an EventBridge schedule (every 5 minutes): commits expired sessions that
auto-commit, removes them, drops expired working-memory keys, ages out context events, and re-sends
extraction jobs whose queue message was never sent, drops rate-limit windows that ended an hour ago and memory
writes' Idempotency-Key records past their time (settings.idempotency_ttl_s), and writes the extractive tiers of
older memories (a bounded step per run).

    >>> handler({"source": "aws.events", "detail-type": "Scheduled Event"}, context)   # doctest: +SKIP
    {'sessions_expired': 2, 'sessions_committed': 2, 'working_keys_expired': 0, 'events_purged': 0}

The services (pool, embedder) are built on the first invocation and reused while the container is warm.
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

from shared.app.bootstrap import process_services
from shared.app.cleanup import expire_idempotency_records
from shared.domain.auth import purge_rate_windows
from shared.domain.indexing import index_pending
from shared.domain.memories.tier_backfill import backfill_tiers
from shared.domain.threads import requeue_stale_jobs
from shared.providers.metrics import lambda_metrics
from shared.providers.tracing import lambda_tracer

logger = Logger(service="memorylayer-cleanup")
tracer = lambda_tracer("memorylayer-cleanup")  # OpenTelemetry to X-Ray, see shared/providers/tracing.py
metrics = Metrics(namespace="MemoryLayer", service="cleanup")
# Every run publishes exactly these custom metrics (plus Powertools' ColdStart on a cold start): CloudWatch bills
# each one for every hour it is published in, and infra/cost.py prices them from this tuple.
PUBLISHED_METRICS = (
    "sessions_expired",
    "sessions_committed",
    "working_keys_expired",
    "events_purged",
    "jobs_requeued",
    "vectors_indexed",
    "rate_windows_purged",
)


@logger.inject_lambda_context
@tracer.invocation  # a span per invocation, flushed before it returns; no bodies in traces
@metrics.log_metrics(capture_cold_start_metric=True)
@lambda_metrics("cleanup")  # the series of shared/core/metrics.py, as EMF, flushed per invocation
def handler(event: dict, context: object) -> dict[str, int]:
    services = process_services("cleanup")
    result = services.sessions.cleanup()
    result["jobs_requeued"] = requeue_stale_jobs(services.db, services.threads.queue)
    # A safety net: bulk writes whose indexing message was lost still join the HNSW graph.
    result["vectors_indexed"] = index_pending(services.db, max_batches=10)
    result["rate_windows_purged"] = purge_rate_windows(services.db)
    # Logged, not published: each custom metric is billed (infra/cost.py prices PUBLISHED_METRICS).
    result["idempotency_records_expired"] = expire_idempotency_records(
        services.db, services.settings.idempotency_ttl_s
    )
    if services.settings.extractive_tiers_enabled:  # logged only: older memories' tiers, a bounded step
        result["tiers_written"] = int(backfill_tiers(services.db)["tiers_written"])
    services.publish_totals()  # the stored-rows gauges, every run (docs/operations.md)
    for name in PUBLISHED_METRICS:
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=result[name])
    logger.info("session cleanup", extra=result)
    return result
