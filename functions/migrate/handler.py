"""Lambda "migrate": the CloudFormation custom resource that applies SQL migrations on deploy.

Create and Update (a new ``MigrationsHash``) apply pending migrations; Delete does nothing: tearing down a
stack must never drop data (prod retains the database anyway). ``{"action": "rebuild_vector_index"}`` (the
worker's asynchronous invoke when a large bulk-written set waits: shared/domain/indexing/indexer.py) builds the next
HNSW graph generation (shared/domain/indexing/bulk.py): DDL, so the owner's. Runs as the owner: in AWS the RDS-managed
master user secret (``MEMORYLAYER_DATABASE_OWNER_SECRET_ARN``, read at invocation) on the writer endpoint
(``MEMORYLAYER_DATABASE_HOST``) with TLS verify-full.

An ask the owner's own count no longer backs (it waited in Lambda's queue behind the build it asked for, or a
build here ran out of time since) builds nothing: ``not_needed``, ``too_large``. The build is bounded by the
invocation's time left (less ``REBUILD_MARGIN_MS`` for publishing), so one too long for Lambda is cancelled by
PostgreSQL and abandoned cleanly (status ``timed_out``; recall keeps the published generation) instead of being
killed mid-statement with its connection; such a graph is built by ``memorylayer index --bulk`` elsewhere
(infra/README.md, "A graph too large for Lambda's 15 minutes").
"""

from __future__ import annotations

import time

import psycopg
from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.core.settings import get_settings
from shared.db.connection import owner_target
from shared.db.migrate import apply_migrations
from shared.providers.tracing import lambda_tracer

logger = Logger(service="memorylayer-migrate")
tracer = lambda_tracer("memorylayer-migrate")  # OpenTelemetry to X-Ray, see shared/providers/tracing.py
PHYSICAL_ID = "memorylayer-schema"
# Of the invocation's time, what the build leaves for what follows it: ANALYZE, the recall function, publishing,
# the pause before the old graph is dropped (bulk.DROP_GRACE_S) and the drop; or, cut off, abandoning the build
# and dropping its invalid index.
REBUILD_MARGIN_MS = 60_000
# Of a deploy, at most this long for workspaces' own graphs (vector_index.ensure); the rest are built after it.
DEPLOY_DEDICATED_BUDGET_MS = 120_000


@logger.inject_lambda_context
@tracer.invocation  # a span per invocation, flushed before it returns; no bodies in traces
def handler(event: dict, context: LambdaContext) -> dict:
    if event.get("action") == "rebuild_vector_index":
        return _rebuild_vector_index(context.get_remaining_time_in_millis())
    request = event.get("RequestType", "Create")
    if request == "Delete":
        return {"PhysicalResourceId": event.get("PhysicalResourceId", PHYSICAL_ID)}
    settings = get_settings()
    # The workspaces' own graphs get a bounded share of a deploy: a deploy waits for this resource, and one that
    # failed at the function's limit would roll back. What does not fit, the next indexing pass asks for.
    budget_ms = min(DEPLOY_DEDICATED_BUDGET_MS, context.get_remaining_time_in_millis() - REBUILD_MARGIN_MS)
    applied = apply_migrations(
        owner_target(settings),
        embedding_dimensions=settings.embedding_dimensions or 384,
        dedicated_deadline=time.monotonic() + max(0, budget_ms) / 1000,
    )
    logger.info("migrations applied", extra={"applied": applied, "request": request})
    return {"PhysicalResourceId": PHYSICAL_ID, "Data": {"Applied": ",".join(applied) or "none"}}


def _rebuild_vector_index(remaining_ms: int) -> dict:
    from shared.domain.indexing import owner

    settings = get_settings()
    dims = settings.embedding_dimensions or 384
    # An ask that waited behind the build it asked for (Lambda queues asynchronous invokes past the function's
    # concurrency), or one from before a build here ran out of time: nothing to build here.
    ahead = owner.plan_as_owner(settings, dims)
    timeout_ms = max(1, remaining_ms - REBUILD_MARGIN_MS)
    if not ahead.wants_bulk or ahead.timed_out:
        result: dict = {"status": "too_large" if ahead.timed_out else "not_needed"}
        # No bulk build: the own graphs of workspaces grown past the threshold since the last one, or left by a
        # build out of time (none: []), as many as fit; none after a build too large for the function.
        if not ahead.timed_out and (own := owner.dedicated_as_owner(settings, dims, timeout_ms=timeout_ms)):
            result["dedicated"] = own
        logger.info("vector graph rebuild not started", extra=result)
        return result
    try:
        built = owner.rebuild_as_owner(settings, dims, timeout_ms=timeout_ms)
    except psycopg.errors.QueryCanceled as exc:
        if "statement timeout" not in (exc.diag.message_primary or ""):
            raise  # cancelled by hand: a failure like any other
        result = {"status": "timed_out", "timeout_ms": timeout_ms}
        logger.warning(
            "vector graph build cancelled at the function's time limit: build it with `memorylayer index --bulk` "
            "as the owner (infra/README.md)",
            extra=result,
        )
        return result
    result = {"status": "busy"} if built is None else {"status": "done", **built.__dict__}
    logger.info("vector graph rebuild", extra=result)
    return result
