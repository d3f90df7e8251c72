"""Lambda "context": POST /v1/sessions/{sid}/context-pack and /context-delta, /v1/context/*, /health*.

>>> handler(api_gateway_v2_event, context)        # doctest: +SKIP
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging import correlation_paths
from mangum import Mangum
from mangum.types import LambdaContext

from shared import snapstart
from shared.api.app import create_app
from shared.api.routes import context, health, sandbox
from shared.tracing import lambda_tracer, propagate

logger = Logger(service="memorylayer-context")
tracer = lambda_tracer("memorylayer-context")  # X-Ray, see shared/tracing.py
metrics = Metrics(namespace="MemoryLayer", service="context")

app = create_app(routers=(health.router, context.router, sandbox.router))
asgi_handler = Mangum(app, lifespan="off")
# SnapStart: the first request's imports and the local model load before the snapshot, not after a restore.
snapstart.prime_before_snapshot(app)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler(capture_response=False)  # no response bodies in traces
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict, context: LambdaContext) -> dict:
    with propagate():  # FastAPI's worker threads continue this invocation's trace
        return asgi_handler(event, context)
