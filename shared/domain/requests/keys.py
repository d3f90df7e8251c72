"""The admin's request body: ``POST /v1/admin/api-keys``."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from shared.domain.requests.base import RequestModel


class KeyCreate(RequestModel):
    workspaces: list[str] = Field(
        min_length=1, max_length=100, description="The workspaces the key may use (1–100)."
    )
    access: Literal["read", "read_write"] = Field(
        default="read_write", description="read or read_write (default)."
    )
    expires_at: datetime | None = Field(default=None, description="When the key stops working (null: never).")
    name: str | None = Field(default=None, max_length=200, description="A display name.")
    shared_spaces: Literal["none", "read", "read_write"] = Field(
        default="read",
        description="What the key may do in its tenant's user space (scope `user` memories, shared by every "
        "workspace of the tenant): none, read (default), or read_write.",
    )
    tenant_id: str | None = Field(
        default=None,
        max_length=64,
        description="The tenant that owns the key; its workspaces become the tenant's (409 if another tenant "
        "owns one). Omitted: the tenant that owns the workspaces, or for new ones a tenant of its own.",
    )
