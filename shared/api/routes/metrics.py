"""``GET /metrics``: Prometheus text, when ``MEMORYLAYER_METRICS_SERVICE=prometheus`` (else the route does not
exist: a 404 like any unknown path). Only for operators: a request from this machine, or one carrying the admin
key; anyone else gets 403 ``metrics_forbidden``. The series are listed in docs/operations.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response

from shared.api.deps import ServicesDep, bearer_token, is_admin_key
from shared.core.errors import Forbidden
from shared.core.settings import is_loopback

router = APIRouter(tags=["metrics"])


@router.get("/metrics", include_in_schema=False, response_class=Response)
def prometheus_metrics(
    request: Request,
    svc: ServicesDep,
    authorization: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> Response:
    """The process's series as Prometheus text; the stored-rows gauges are read at each scrape."""
    # Behind a trusted proxy uvicorn has already put X-Forwarded-For's client here (shared/local/server.py).
    local = request.client is not None and is_loopback(request.client.host)
    if not local and not is_admin_key(request.app.state.settings, bearer_token(authorization)):
        raise Forbidden("/metrics answers only to the local host or the admin key", code="metrics_forbidden")
    svc.publish_totals()
    body, content_type = request.app.state.metrics_sink.render()
    return Response(content=body, media_type=content_type)
