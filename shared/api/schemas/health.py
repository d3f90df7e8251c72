"""The answers of the liveness and readiness routes (shared/api/routes/health.py)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Info(BaseModel):
    name: str = Field(description="`MemoryLayer.ai`, as the reference.")
    version: str = Field(description="The API version.")
    description: str = Field(description="A free-text description.")


class Health(BaseModel):
    status: str = Field(description="`healthy` while the process answers.")


class Readiness(BaseModel):
    status: str = Field(description="`ready`, or `not_ready` (with a 503).")
    services: dict[str, str] = Field(
        description="Each dependency's state: database connected or unavailable."
    )
