"""The one place where domain errors become HTTP responses.

Bodies keep FastAPI's ``{"detail": ...}`` envelope (the official SDK reads ``detail``), with a machine-readable
``code`` inside: ``{"detail": {"code": "memory_not_found", "message": "memory mem_… not found"}}``. No database
error text reaches a client: it is logged, and the client gets a generic message with a code.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from shared.core.errors import MemoryLayerError

log = logging.getLogger("memorylayer.api")


async def _domain_error(_: Request, exc: MemoryLayerError) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after_s)} if exc.retry_after_s is not None else None
    return JSONResponse({"detail": exc.to_detail()}, status_code=exc.status, headers=headers)


async def _bad_json(_: Request, exc: json.JSONDecodeError) -> JSONResponse:
    return JSONResponse({"detail": {"code": "invalid_json", "message": str(exc)}}, status_code=400)


# Database errors the client's input caused, by SQLSTATE class: (status, code, message). The database's own text
# (``bigint out of range``, column and constraint names) goes to the log only; the client gets a generic message
# and a code it can act on, plus the SQLSTATE for support.
_DATABASE_ERRORS: dict[str, tuple[int, str, str]] = {
    # Class 22, data exceptions: a value the database cannot hold (NUL characters, numbers out of range).
    # The transaction was rolled back, so nothing changed.
    "22": (422, "invalid_data", "a value in the request is not one the database can store"),
    # Class 54, program limits: e.g. a document or array too large for the column.
    "54": (422, "value_too_large", "a value in the request exceeds what the database can store"),
}


# insufficient_privilege: what a row-level security policy's WITH CHECK raises (migration 0015).
_ROW_WALL_VIOLATION = "42501"


def _database_error(exc: Exception) -> JSONResponse | None:
    """A psycopg error caused by the request's values → a 4xx with a generic message; None for the rest."""
    import psycopg  # loaded already whenever such an error exists; not imported at cold start for this

    if not isinstance(exc, psycopg.Error):
        return None
    # psycopg refuses some values itself, before the server sees them (a NUL in text): a DataError with no
    # SQLSTATE, the same class 22 as the server's.
    sqlstate = exc.sqlstate or ("22000" if isinstance(exc, psycopg.DataError) else "")
    if sqlstate == _ROW_WALL_VIOLATION:
        # Row-level security refused a row the route let through: the second wall held, the first has a bug.
        log.error("row-level security refused a write the API allowed: %s", str(exc).splitlines()[0])
        return JSONResponse(
            {"detail": {"code": "workspace_forbidden", "message": "this key may not use that workspace"}},
            status_code=403,
        )
    known = _DATABASE_ERRORS.get(sqlstate[:2])
    if known is None:
        return None
    status, code, message = known
    log.warning("database refused a value (%s): %s", sqlstate, str(exc).splitlines()[0] if str(exc) else "")
    return JSONResponse(
        {"detail": {"code": code, "message": message, "sqlstate": sqlstate}}, status_code=status
    )


async def _nested_validation(_: Request, exc: ValidationError) -> JSONResponse:
    # Input that passed the request model but not a model built from it (e.g. a derived recall request).
    detail = [writable({k: e[k] for k in ("type", "loc", "msg")}) for e in exc.errors()]
    return JSONResponse({"detail": detail}, status_code=422)


def writable(error: dict[str, Any]) -> dict[str, Any]:
    """A validation error the JSON answer can carry: one whose text holds an undecodable character (a lone
    surrogate, which no UTF-8 encoder writes) loses its echo of the input, and such characters elsewhere (a
    key in ``loc``) become ``?``. Else the answer itself would fail, a 500 for a client's bad input.

    >>> writable({"loc": ["body", "\\ud800"], "msg": "bad", "input": "\\ud800"})
    {'loc': ['body', '?'], 'msg': 'bad'}
    """
    try:
        json.dumps(error, ensure_ascii=False).encode()
        return error
    except UnicodeEncodeError:
        kept = {k: v for k, v in error.items() if k != "input"}
        return _scrubbed(kept)


def _scrubbed(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode()
    if isinstance(value, dict):
        return {_scrubbed(k): _scrubbed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrubbed(v) for v in value]
    return value


# Validation errors listed in a 422; the rest are counted in one closing entry (otherwise a batch of 500 bad
# operations answers over 100 KB of repeated errors, each echoing its input).
VALIDATION_ERRORS_LISTED = 20


async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's 422 body (`{"detail": [{type, loc, msg, input, ctx}]}`, which the SDKs read), capped."""
    errors = list(exc.errors())
    if (response := _not_json(request, errors)) is not None:
        return response
    detail = [writable(e) for e in jsonable_encoder(errors[:VALIDATION_ERRORS_LISTED])]
    if len(errors) > VALIDATION_ERRORS_LISTED:
        left = errors[VALIDATION_ERRORS_LISTED:]
        kinds = sorted({e["type"] for e in left})
        detail.append(
            {
                "type": "too_many_errors",
                "loc": ["body"],
                "msg": f"{len(left)} more errors not listed (types: {', '.join(kinds)})",
                "count": len(left),
            }
        )
    return JSONResponse({"detail": detail}, status_code=422)


def _not_json(request: Request, errors: list[Any]) -> JSONResponse | None:
    """A body sent without ``Content-Type: application/json`` reaches the model as a string: say so (415)
    instead of FastAPI's "Input should be a valid dictionary" about the whole body."""
    content_type = request.headers.get("content-type", "")
    if "json" in content_type.lower():
        return None
    if not any(
        tuple(e.get("loc", ())) == ("body",) and e.get("type") == "model_attributes_type" for e in errors
    ):
        return None
    sent = f"Content-Type {content_type!r}" if content_type else "no Content-Type"
    message = f"the request body must be JSON sent with Content-Type: application/json ({sent} was sent)"
    return JSONResponse({"detail": {"code": "unsupported_media_type", "message": message}}, status_code=415)


# Starlette's own answers when no route matches: the same ``{code, message}`` envelope as every other error.
_ROUTER_CODES = {404: "route_not_found", 405: "method_not_allowed"}


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    code = _ROUTER_CODES.get(exc.status_code)
    if code is None or not isinstance(exc.detail, str):
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
    message = f"{exc.detail}: no route {request.method} {request.url.path}"
    if exc.status_code == 405:
        message = f"{exc.detail}: {request.method} is not served on {request.url.path}"
    return JSONResponse(
        {"detail": {"code": code, "message": message}}, status_code=exc.status_code, headers=exc.headers
    )


async def unexpected(_: Request, exc: Exception) -> JSONResponse:
    if type(exc).__module__.startswith("psycopg") and (response := _database_error(exc)) is not None:
        return response
    # The traceback goes to the log; the client gets the same JSON envelope as every other error.
    log.exception("unhandled error", exc_info=exc)
    return JSONResponse(
        {"detail": {"code": "internal_error", "message": "internal server error"}}, status_code=500
    )


def install(app: FastAPI) -> None:
    app.add_exception_handler(Exception, unexpected)
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(ValidationError, _nested_validation)  # type: ignore[arg-type]
    app.add_exception_handler(MemoryLayerError, _domain_error)  # type: ignore[arg-type]
    app.add_exception_handler(json.JSONDecodeError, _bad_json)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
