"""Lambda "memory": /v1/memories*, /v1/workspaces*, /v1/threads*, /v1/jobs*, /health* — the ASGI app through Mangum.

Heavy work (pool, embedder) happens on the first request, not at import: cold starts stay short.
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging import correlation_paths
from mangum import Mangum
from mangum.types import LambdaContext

from shared import snapstart
from shared.api.app import create_app
from shared.api.routes import admin, entities, health, ingest, memories, threads, workspaces
from shared.tracing import lambda_tracer, propagate

logger = Logger(service="memorylayer-memory")
tracer = lambda_tracer("memorylayer-memory")  # X-Ray, see shared/tracing.py
metrics = Metrics(namespace="MemoryLayer", service="memory")

app = create_app(
    routers=(
        health.router,
        memories.router,
        workspaces.router,
        threads.router,
        admin.router,
        entities.router,
        ingest.router,
    )
)
asgi_handler = Mangum(app, lifespan="off")
# SnapStart: the first request's imports and the local model load before the snapshot, not after a restore.
snapstart.prime_before_snapshot(app)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler(capture_response=False)  # no response bodies in traces
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict, context: LambdaContext) -> dict:
    with propagate():  # FastAPI's worker threads continue this invocation's trace
        return asgi_handler(event, context)
