"""Liveness and readiness."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from shared.api.deps import ServicesDep
from shared.api.schemas.health import Health, Info, Readiness
from shared.core.errors import DatabaseUnavailable
from shared.core.version import __version__

router = APIRouter(tags=["health"])
VERSION = __version__  # one version for the server, the API and the clients (shared/core/version.py)


@router.get("/", response_model=Info)
def info() -> dict[str, Any]:
    """The server's name and API version."""
    return {
        "name": "MemoryLayer.ai",
        "version": VERSION,
        "description": "MemoryLayer serverless: Postgres + pgvector",
    }


@router.get("/health", response_model=Health)
def health() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "healthy"}


@router.get("/health/ready", response_model=Readiness, responses={503: {"model": Readiness}})
def ready(svc: ServicesDep) -> JSONResponse:
    """Readiness: the database answers (503 `not_ready` when it does not)."""
    try:
        svc.ping()
    except DatabaseUnavailable:
        body = {"status": "not_ready", "services": {"database": "unavailable", "cache": "not_configured"}}
        return JSONResponse(body, status_code=503)
    return JSONResponse({"status": "ready", "services": {"database": "connected", "cache": "not_configured"}})
