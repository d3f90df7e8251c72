"""/openapi.json that documents itself: tags, a bearer scheme, open routes marked open, examples kept whole.

Every field and parameter describes itself where it is declared (``Field(description=…)``, ``Query``/``Path``/
``Header``; the shared types in shared/core/fields.py), so only FastAPI's own 422 models are described here. The
schema is built on the first request for it, never at cold start.

    >>> sorted(VALIDATION_ERROR["ValidationError"])
    ['ctx', 'input', 'loc', 'msg', 'type']
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

# FastAPI's own 422 body models: declared by FastAPI, not by us, so their fields are described here.
VALIDATION_ERROR = {
    "HTTPValidationError": {"detail": "What was wrong with the request."},
    "ValidationError": {
        "loc": "Where: `body`, then the path into it.",
        "msg": "What is wrong.",
        "type": "The error's kind, e.g. `missing` or `string_too_short`.",
        "input": "The value that was refused.",
        "ctx": "Details of the rule.",
    },
}


def _describe_validation_error(schemas: dict[str, Any]) -> None:
    for name, fields in VALIDATION_ERROR.items():
        for field, prop in (schemas.get(name, {}).get("properties") or {}).items():
            if field in fields and not prop.get("description"):
                prop["description"] = fields[field]


def _restore_examples(schemas: dict[str, Any]) -> None:
    """FastAPI drops None values inside examples when it builds the document (`exclude_none`), which makes an
    example with a null field an invalid body: put the models' own examples back."""
    import shared.domain.requests as requests
    from shared.api import schemas as responses

    for name, schema in schemas.items():
        model = getattr(responses, name, None) or getattr(requests, name, None)
        extra = getattr(model, "model_config", {}).get("json_schema_extra")
        if "examples" in schema and isinstance(extra, dict) and "examples" in extra:
            schema["examples"] = extra["examples"]


BEARER = {
    "type": "http",
    "scheme": "bearer",
    "description": "An API key (`memorylayer keys create`), or the admin key for /v1/admin. Local `make dev` "
    "runs without keys (auth_mode none): any value works.",
}


def build(app: FastAPI, open_paths: frozenset[str]) -> dict[str, Any]:
    """The app's OpenAPI document, completed: the bearer scheme, open routes marked open, FastAPI's 422 models
    described."""
    spec = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes, tags=TAGS
    )
    components = spec.setdefault("components", {})
    _describe_validation_error(components.get("schemas", {}))
    _restore_examples(components.get("schemas", {}))
    components["securitySchemes"] = {"bearer": BEARER}
    spec["security"] = [{"bearer": []}]
    for path, item in spec.get("paths", {}).items():
        if path in open_paths:
            for operation in item.values():
                operation["security"] = []
    return spec


TAGS = [
    {
        "name": "memories",
        "description": "Remember, recall, update and forget memories; associations and batch.",
    },
    {"name": "workspaces", "description": "Workspaces, their contexts, schema, export and import."},
    {"name": "sessions", "description": "Sessions, working memory, commits and transcript checkpoints."},
    {"name": "context", "description": "Context packs and deltas: what a model should know now."},
    {
        "name": "context environment",
        "description": "A per-session Python sandbox (`X-Session-ID`): load memories as data, run code over "
        "them, ask the LLM about them. Caller code runs in a confined process, never in the API.",
    },
    {"name": "threads", "description": "Conversation threads that feed memory extraction, and its jobs."},
    {"name": "admin", "description": "API keys (admin key only)."},
    {"name": "health", "description": "Liveness and readiness (no key needed)."},
    {"name": "console", "description": "What the memory console page (/console) needs beyond /v1."},
]


def install(app: FastAPI, open_paths: frozenset[str]) -> None:
    """Serve the completed document at /openapi.json (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build(app, open_paths)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
