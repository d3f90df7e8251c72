"""Lambda "context": POST /v1/sessions/{sid}/context-pack and /context-delta, /v1/context/*, /health*.

>>> handler(api_gateway_v2_event, context)        # doctest: +SKIP
"""

from __future__ import annotations

from shared.api.lambda_handler import api_function
from shared.api.routes import context, health, sandbox

app, handler = api_function("context", (health.router, context.router, sandbox.router))
