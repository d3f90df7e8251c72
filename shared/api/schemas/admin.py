"""API keys (/v1/admin)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire


class ApiKey(Wire):
    id: str
    prefix: str = Field(
        description="The key's first characters, to recognise it; the key itself is not stored."
    )
    tenant_id: str
    workspaces: list[str]
    access: Literal["read", "read_write"]
    shared_spaces: Literal["none", "read", "read_write"] = Field(
        default="read_write", description="What the key may do in its tenant's user space."
    )
    name: str | None
    expires_at: Timestamp | None
    revoked_at: Timestamp | None
    created_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> ApiKey:
        return cls.pick(row, workspaces=list(row["workspaces"]))


class ApiKeyCreated(ApiKey):
    key: str = Field(description="The secret key: shown once, store it now.")


class ApiKeyList(Wire):
    api_keys: list[ApiKey]
