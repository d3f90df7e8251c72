"""Lambda "context": POST /v1/sessions/{sid}/context-pack and /context-delta (the context environment,
/v1/context/*, is the environment function's).

>>> handler(api_gateway_v2_event, context)        # doctest: +SKIP
"""

from __future__ import annotations

from shared.api.lambda_handler import api_function

app, handler = api_function("context")
