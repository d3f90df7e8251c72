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


class UsageHour(Wire):
    """One tenant's use in one hour of one operation kind, ended one way (GET /v1/admin/usage)."""

    tenant_id: str = Field(description="The tenant (`:admin`: the admin key's own calls).")
    hour: Timestamp = Field(description="The hour's start (ISO-8601 UTC).")
    kind: str = Field(
        description="read, write, recall, upload (priced by size), sandbox, admin (keys and tokens), or "
        "document (a document's pages, counted when its job completes), extraction (a conversation's "
        "extraction job: its model tokens)."
    )
    outcome: str = Field(
        description="ok; client_error (4xx) or server_error (5xx); replayed (an Idempotency-Key answered "
        "from the store: billed once, as its first request)."
    )
    requests: int = Field(description="Requests.")
    units: int = Field(description="The rate limiter's units: a request's weight by its work and size.")
    document_pages: int = Field(description="Document pages parsed.")
    sandbox_ms: int = Field(description="Milliseconds of sandbox (context environment) execution.")
    generation_tokens: int = Field(description="LLM tokens in and out, as the provider reported them.")
    embedding_tokens: int = Field(description="Embedding tokens, where the provider reports them (OpenAI).")


class StoredUsage(Wire):
    """What a tenant stores now (read when asked, not per hour)."""

    tenant_id: str = Field(description="The tenant.")
    memories: int = Field(description="Live memories (not deleted).")
    bytes: int = Field(description="Their text's bytes (UTF-8).")


class UsageReport(Wire):
    since: Timestamp = Field(description="The first hour reported (ISO-8601 UTC).")
    until: Timestamp = Field(description="The end of the period (exclusive).")
    tenant_id: str | None = Field(description="The tenant asked for (null: every tenant).")
    hours: list[UsageHour] = Field(description="Hourly rows, oldest first.")
    truncated: bool = Field(
        description="True when the row cap (10,000) cut the rows: ask again with `since` at the last hour "
        "returned."
    )
    stored: list[StoredUsage] = Field(description="Each tenant's stored memories and bytes now.")
