"""Described field types that only response models use (what the server sends, not what a client chooses)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.api.schemas.base import Timestamp

InWorkspace = Annotated[str, Field(description="The workspace it belongs to.")]
CreatedAt = Annotated[Timestamp, Field(description="When it was created (ISO-8601 UTC).")]
UpdatedAt = Annotated[Timestamp, Field(description="When it last changed (ISO-8601 UTC).")]
ExpiresAt = Annotated[Timestamp | None, Field(description="When it expires (ISO-8601 UTC).")]
ObjectId = Annotated[str, Field(description="The object's id.")]
TenantId = Annotated[
    str, Field(description="The tenant owning the workspace (`_default` unless keys say otherwise).")
]
EmbeddingModel = Annotated[
    str | None, Field(description="The model (and dimensions) that embedded it, e.g. `local-minilm@384`.")
]
ErrorText = Annotated[str | None, Field(description="What went wrong (null: nothing).")]
EventTimeOut = Annotated[
    Timestamp | None,
    Field(description="When the event happened (ISO-8601); temporal filters fall back to created_at."),
]
