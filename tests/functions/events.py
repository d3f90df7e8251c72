"""Real API Gateway HTTP API (payload v2.0) and SQS event shapes, and a Lambda context."""

from __future__ import annotations

from shared.local.api_gateway import http_v2
from shared.local.lambda_context import LambdaContext

__all__ = ["LambdaContext", "http_v2"]
