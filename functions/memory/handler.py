"""Lambda "memory": /v1/memories*, /v1/workspaces*, /v1/threads*, /v1/jobs*, /health* — the ASGI app through Mangum.

Heavy work (pool, embedder) happens on the first request, not at import: cold starts stay short.
"""

from __future__ import annotations

from shared.api.lambda_handler import api_function
from shared.api.routes import admin, entities, health, ingest, memories, threads, workspaces

app, handler = api_function(
    "memory",
    (
        health.router,
        memories.router,
        workspaces.router,
        threads.router,
        admin.router,
        entities.router,
        ingest.router,
    ),
)
