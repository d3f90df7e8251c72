"""Tokens (/v1/tokens): the reference's shapes, and what the token may do here (its access and user space)."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.fields import CreatedAt, ObjectId, TenantId


class Token(Wire):
    id: ObjectId
    name: str = Field(description="The token's name.")
    principal_type: str = Field(default="User", description="Who holds the token (a label; default User).")
    workspace_patterns: list[str] = Field(
        description="The workspaces the token may use: the minting key's that its patterns matched."
    )
    scopes: list[str] = Field(description="The scopes it was minted with (`*`, read, write, shared:read, …).")
    created_at: CreatedAt
    expires_at: Timestamp | None = Field(
        description="When it stops working (ISO-8601 UTC; never later than its key's; null: never)."
    )
    revoked: bool = Field(default=False, description="Whether it was revoked (it is refused from then on).")
    access: Literal["read", "read_write"] = Field(description="What its scopes allow in its workspaces.")
    shared_spaces: Literal["none", "read", "read_write"] = Field(
        description="What its scopes allow in its tenant's user space."
    )
    tenant_id: TenantId

    @classmethod
    def from_row(cls, row: dict[str, Any], **more: Any) -> Self:
        return cls.pick(
            row,
            name=row["name"] or "",
            principal_type=row["principal_type"] or "User",
            workspace_patterns=list(row["workspaces"]),
            scopes=list(row["scopes"] or ["*"]),
            revoked=row["revoked_at"] is not None,
            **more,
        )


class TokenCreated(Token):
    token: str = Field(
        description="The secret: shown once, store it now (send it as `Authorization: Bearer`)."
    )


class TokenList(Wire):
    tokens: list[Token] = Field(description="The tokens under the calling key, newest first.")
