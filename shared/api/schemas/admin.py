"""API keys (/v1/admin)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.fields import (
    CreatedAt,
    ExpiresAt,
    ObjectId,
    TenantId,
)


class ApiKey(Wire):
    id: ObjectId
    prefix: str = Field(
        description="The key's first characters, to recognise it; the key itself is not stored."
    )
    tenant_id: TenantId
    workspaces: list[str] = Field(description="The workspaces.")
    access: Literal["read", "read_write"] = Field(description="read or read_write (default).")
    shared_spaces: Literal["none", "read", "read_write"] = Field(
        default="read_write", description="What the key may do in its tenant's user space."
    )
    name: str | None = Field(description="A display name.")
    expires_at: ExpiresAt
    revoked_at: Timestamp | None = Field(description="When the key was revoked (null: active).")
    created_at: CreatedAt
    parent_id: str | None = Field(
        default=None, description="A token's minting key (/v1/tokens; null: made here, or by the admin key)."
    )
    scopes: list[str] | None = Field(default=None, description="A token's scopes (null: not a token).")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> ApiKey:
        return cls.pick(row, workspaces=list(row["workspaces"]))


class ApiKeyCreated(ApiKey):
    key: str = Field(description="The secret key: shown once, store it now.")


class ApiKeyList(Wire):
    api_keys: list[ApiKey] = Field(description="The keys (without their secrets).")
