"""The request body of ``POST /v1/tokens`` (shared/domain/tokens.py mints the token)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.domain.requests.base import RequestModel

# A workspace id, or a glob over the minting key's workspaces (`*`, `support-*`).
WorkspacePattern = Annotated[str, Field(pattern=r"^[A-Za-z0-9_*?\[][A-Za-z0-9._:*?\[\]!-]{0,127}$")]


class TokenCreate(RequestModel):
    name: str = Field(min_length=1, max_length=200, description="A display name.")
    principal_type: str = Field(
        default="User",
        min_length=1,
        max_length=64,
        description="Who holds the token (a label; default User).",
    )
    workspace_patterns: list[WorkspacePattern] = Field(
        default_factory=lambda: ["*"],
        min_length=1,
        max_length=100,
        description="Which of the minting key's workspaces the token may use: ids or globs (default `*`, all). "
        "The admin key names workspaces outright.",
    )
    scopes: list[Annotated[str, Field(max_length=32)]] = Field(
        default_factory=lambda: ["*"],
        min_length=1,
        max_length=10,
        description="`*` (all the minting key may do, the default), `read`, `write`, `shared:read`, "
        "`shared:write` (the tenant's user space). Never more than the minting key may do (403).",
    )
    expires_in_days: int | None = Field(
        default=None, ge=1, le=3650, description="Days until it stops working (null: when its key does)."
    )
