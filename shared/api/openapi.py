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
from pydantic import BaseModel

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


# Request bodies a route reads itself (e.g. JSON or NDJSON by content type) but declares: their models become
# components when the document is built, not at import (``body_schema``).
_BODY_MODELS: dict[str, type[BaseModel]] = {}


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A ``$ref`` to ``model`` for a route's ``openapi_extra``; ``build`` adds the model to the components."""
    _BODY_MODELS[model.__name__] = model
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _add_body_models(schemas: dict[str, Any]) -> None:
    for name, model in _BODY_MODELS.items():
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for nested, definition in schema.pop("$defs", {}).items():
            schemas.setdefault(nested, definition)
        schemas.setdefault(name, schema)


def build(app: FastAPI, open_paths: frozenset[str]) -> dict[str, Any]:
    """The app's OpenAPI document, completed: the bearer scheme, open routes marked open, FastAPI's 422 models
    described."""
    spec = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes, tags=TAGS
    )
    components = spec.setdefault("components", {})
    _add_body_models(components.setdefault("schemas", {}))
    _describe_validation_error(components.get("schemas", {}))
    _restore_examples(components.get("schemas", {}))
    components["securitySchemes"] = {"bearer": BEARER}
    spec["security"] = [{"bearer": []}]
    components["schemas"]["Error"] = ERROR_SCHEMA
    for path, item in spec.get("paths", {}).items():
        for method, operation in item.items():
            if path in open_paths:
                operation["security"] = []
            _declare_errors(path, method, operation, secured=path not in open_paths)
    return spec


# The ``{"detail": {"code", "message"}}`` envelope every refusal but a 422 carries (shared/api/errors.py).
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Error",
    "description": "A refusal: a machine-readable `code` and a sentence for people.",
    "properties": {
        "detail": {
            "type": "object",
            "description": "The refusal.",
            "properties": {
                "code": {"type": "string", "description": "What went wrong, e.g. `memory_not_found`."},
                "message": {"type": "string", "description": "What went wrong, for people."},
            },
            "required": ["code", "message"],
        }
    },
    "required": ["detail"],
}
ERRORS = {
    "401": "No API key, or one that is unknown, revoked or expired (`missing_api_key`, `invalid_api_key`).",
    "403": "The key may not do this: another workspace, a read-only key writing, an admin route.",
    "404": "What the path names does not exist, or is not visible to this key.",
    "409": "The write conflicts with the current state (an idempotency key reused with another body, a "
    "duplicate, a closed session).",
    "413": "The request body is larger than the API accepts.",
}
# POSTs that only read (shared/api/deps.py READ_ONLY_POSTS): no conflicting write is possible.
_READING = ("/recall", "/reflect", "/answer", "/traverse", "/context-pack", "/context-delta", "/inspect")


def _declare_errors(path: str, method: str, operation: dict[str, Any], *, secured: bool) -> None:
    """The 4xx an operation may answer besides its 422: auth on secured routes, 404 where the path names
    something, 409 on writes, 413 where a body is sent. Declared ones FastAPI already lists are kept."""
    responses = operation.setdefault("responses", {})
    codes = []
    if secured:
        codes += ["401", "403"]
    if "{" in path or path.startswith("/v1/context/"):  # an id in the path, or the X-Session-ID one
        codes.append("404")
    writes = method in ("post", "put", "patch", "delete") and not path.endswith(_READING)
    if secured and writes:
        codes.append("409")
    if "requestBody" in operation:
        codes.append("413")
    for code in codes:
        responses.setdefault(
            code,
            {
                "description": ERRORS[code],
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            },
        )


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
