"""The one place where domain errors become HTTP responses.

Bodies keep FastAPI's ``{"detail": ...}`` envelope (the official SDK reads ``detail``), with a machine-readable
``code`` inside: ``{"detail": {"code": "memory_not_found", "message": "memory mem_… not found"}}``.
"""

from __future__ import annotations

import json
import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from shared.errors import MemoryLayerError, RateLimited

log = logging.getLogger("memorylayer.api")


async def _domain_error(_: Request, exc: MemoryLayerError) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, RateLimited) else None
    return JSONResponse({"detail": exc.to_detail()}, status_code=exc.status, headers=headers)


async def _bad_json(_: Request, exc: json.JSONDecodeError) -> JSONResponse:
    return JSONResponse({"detail": {"code": "invalid_json", "message": str(exc)}}, status_code=400)


def _bad_data(exc: Exception) -> JSONResponse | None:
    """Class 22 errors come from values the database cannot hold (NUL characters, numbers out of range); the
    transaction was rolled back, so nothing changed: a 422, not a 500."""
    import psycopg  # loaded already whenever such an error exists; not imported at cold start for this

    if not isinstance(exc, psycopg.DataError):
        return None
    message = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
    return JSONResponse({"detail": {"code": "invalid_data", "message": message}}, status_code=422)


async def _nested_validation(_: Request, exc: ValidationError) -> JSONResponse:
    # Input that passed the request model but not a model built from it (e.g. a derived recall request).
    detail = [{k: e[k] for k in ("type", "loc", "msg")} for e in exc.errors()]
    return JSONResponse({"detail": detail}, status_code=422)


async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
    if type(exc).__module__.startswith("psycopg") and (response := _bad_data(exc)) is not None:
        return response
    # The traceback goes to the log; the client gets the same JSON envelope as every other error.
    log.exception("unhandled error", exc_info=exc)
    return JSONResponse(
        {"detail": {"code": "internal_error", "message": "internal server error"}}, status_code=500
    )


def install(app: FastAPI) -> None:
    app.add_exception_handler(Exception, _unexpected)
    app.add_exception_handler(ValidationError, _nested_validation)  # type: ignore[arg-type]
    app.add_exception_handler(MemoryLayerError, _domain_error)  # type: ignore[arg-type]
    app.add_exception_handler(json.JSONDecodeError, _bad_json)  # type: ignore[arg-type]
