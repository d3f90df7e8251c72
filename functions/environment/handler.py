"""Lambda "environment": /v1/context/* (the context environment). Caller code never runs here: each call
invokes the sandbox function, the only function this one may invoke (infra/sandbox.py).

>>> handler(api_gateway_v2_event, context)        # doctest: +SKIP
"""

from __future__ import annotations

from shared.api.lambda_handler import api_function

app, handler = api_function("environment")
