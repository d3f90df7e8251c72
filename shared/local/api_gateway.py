"""API Gateway HTTP API (payload v2.0) events, for running the API handlers in-process (tests, benchmarks).

>>> http_v2("GET", "/v1/memories", query={"limit": "1"})["rawQueryString"]
'limit=1'
"""

from __future__ import annotations

import base64
import json
import uuid
from typing import Any


def http_v2(
    method: str,
    path: str,
    *,
    body: Any = None,
    query: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    base64_body: bool = False,
) -> dict[str, Any]:
    raw = None if body is None else (body if isinstance(body, str) else json.dumps(body))
    is_b64 = False
    if base64_body and raw is not None:
        raw, is_b64 = base64.b64encode(raw.encode()).decode(), True
    all_headers = {
        "content-type": "application/json",
        "host": "abc123.execute-api.us-east-1.amazonaws.com",
        "user-agent": "memorylayer-local",
        **{k.lower(): v for k, v in (headers or {}).items()},
    }
    request_id = str(uuid.uuid4())
    return {
        "version": "2.0",
        "routeKey": f"{method} {path}",
        "rawPath": path,
        "rawQueryString": "&".join(f"{k}={v}" for k, v in (query or {}).items()),
        "queryStringParameters": query,
        "headers": all_headers,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abc123",
            "domainName": "abc123.execute-api.us-east-1.amazonaws.com",
            "domainPrefix": "abc123",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": "203.0.113.7",
                "userAgent": "memorylayer-local",
            },
            "requestId": request_id,
            "routeKey": f"{method} {path}",
            "stage": "$default",
            "time": "29/Nov/2026:16:00:00 +0000",
            "timeEpoch": 1796140800000,
        },
        "body": raw,
        "isBase64Encoded": is_b64,
    }
