"""Lambda "sessions": /v1/sessions* except context packs and deltas (those are functions/context).

>>> handler(api_gateway_v2_event, context)        # doctest: +SKIP
"""

from __future__ import annotations

from shared.api.lambda_handler import api_function

app, handler = api_function("sessions")
