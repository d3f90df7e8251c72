"""Lambda "memory": /v1/memories*, /v1/threads*, /v1/jobs*, /v1/workspaces*, /v1/entities*, /v1/ingest*,
/v1/admin*, /health*, /console* and /openapi.json (shared/api/route_map.py) — the ASGI app through Mangum.

Heavy work (pool, embedder) happens on the first request, not at import: cold starts stay short.
"""

from __future__ import annotations

from shared.api.lambda_handler import api_function

app, handler = api_function("memory")
