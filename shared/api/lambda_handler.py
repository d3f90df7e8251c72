"""One API Lambda function: the app with the routers its API Gateway routes reach (``shared/api/route_map.py``)
behind Mangum, with Powertools logging and metrics, OpenTelemetry tracing to X-Ray, and SnapStart priming. The memory, sessions and
context handlers differ only in their name.

    >>> app, handler = api_function("sessions")                  # doctest: +SKIP
    >>> handler(api_gateway_v2_event, context)                    # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging import correlation_paths
from fastapi import APIRouter, FastAPI
from mangum import Mangum
from mangum.types import LambdaContext

from shared.api import snapstart
from shared.api.app import create_app
from shared.api.route_map import FUNCTIONS
from shared.providers.metrics import lambda_metrics
from shared.providers.tracing import lambda_tracer


def routers_of(name: str) -> tuple[APIRouter, ...]:
    """The routers function ``name`` serves, in match order; their modules are imported only here."""
    return tuple(importlib.import_module(module).router for module in FUNCTIONS[name].routers)


def api_function(name: str) -> tuple[FastAPI, Callable[[dict, LambdaContext], dict]]:
    """(app, handler) for the function ``name`` (service ``memorylayer-<name>``). Heavy work (pool, embedder)
    happens on the first request, not here: cold starts stay short."""
    logger = Logger(service=f"memorylayer-{name}")
    tracer = lambda_tracer(f"memorylayer-{name}")  # OpenTelemetry to X-Ray, see shared/providers/tracing.py
    metrics = Metrics(namespace="MemoryLayer", service=name)
    # The vocabulary's series (shared/core/metrics.py) go out as EMF, flushed after each invocation.
    flushing = lambda_metrics(name)

    function = FUNCTIONS[name]
    app = create_app(routers=routers_of(name), console=function.console, documents=function.documents)
    asgi_handler = Mangum(app, lifespan="off")
    # SnapStart: the first request's imports, its routes' analysis and the local model happen before the
    # snapshot, not after a restore.
    snapstart.prime_before_snapshot(app)

    @logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
    # A span per invocation, flushed before it returns; no bodies in traces. Spans opened in FastAPI's worker
    # threads nest under it: OpenTelemetry's context is a context variable, which anyio copies into them.
    @tracer.invocation
    @metrics.log_metrics(capture_cold_start_metric=True)
    @flushing
    def handler(event: dict, context: LambdaContext) -> dict:
        return asgi_handler(event, context)

    return app, handler
