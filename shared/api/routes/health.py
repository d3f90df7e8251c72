"""Liveness and readiness."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from shared.api.deps import ServicesDep
from shared.errors import DatabaseUnavailable
from shared.version import __version__

router = APIRouter(tags=["health"])
VERSION = __version__  # one version for the server, the API and the clients (shared/version.py)


@router.get("/")
def info() -> dict[str, Any]:
    return {
        "name": "MemoryLayer.ai",
        "version": VERSION,
        "description": "MemoryLayer serverless: Postgres + pgvector",
    }


@router.get("/health")
def health() -> dict[str, str]:
    return {"status": "healthy"}


@router.get("/health/ready")
def ready(svc: ServicesDep) -> JSONResponse:
    try:
        svc.db.ping()
    except DatabaseUnavailable:
        body = {"status": "not_ready", "services": {"database": "unavailable", "cache": "not_configured"}}
        return JSONResponse(body, status_code=503)
    return JSONResponse({"status": "ready", "services": {"database": "connected", "cache": "not_configured"}})
