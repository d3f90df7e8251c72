"""The body caps fit what AWS delivers: a request reaches the app as an API Gateway HTTP API (v2) event in one
synchronous Lambda invocation, whose payload is at most 6 MB (6,291,456 bytes), the event's JSON included. A
body the local cap takes must fit there too, or `make dev` would accept what the deployed API cannot."""

from __future__ import annotations

import json

from shared.core.settings import Settings
from shared.local.api_gateway import http_v2

LAMBDA_SYNC_PAYLOAD = 6 * 1024 * 1024


def _settings() -> Settings:
    return Settings(database_url="postgresql://nobody@127.0.0.1:1/none", embedding_provider="hash")


def test_a_json_body_at_the_request_cap_fits_one_invocation() -> None:
    cap = _settings().max_request_bytes
    body = '{"content": "' + "x" * (cap - 15) + '"}'
    assert len(body) <= cap
    event = http_v2("POST", "/v1/memories", body=body, headers={"x-workspace-id": "ws_demo"})
    assert len(json.dumps(event).encode()) < LAMBDA_SYNC_PAYLOAD


def test_a_document_at_the_upload_cap_fits_once_base64_encoded() -> None:
    settings = _settings()
    assert settings.document_max_bytes <= settings.max_request_bytes
    # A multipart body is binary to API Gateway: it arrives base64-encoded.
    multipart = "m" * (settings.document_max_bytes + 512)  # the file and its part headers
    event = http_v2("POST", "/v1/documents", body=multipart, base64_body=True,
                    headers={"content-type": "multipart/form-data; boundary=b"})  # fmt: skip
    assert len(json.dumps(event).encode()) < LAMBDA_SYNC_PAYLOAD
