"""Skills on the wire (/v1/skills), as the reference sends them: a skill is its manifest's fields beside the
versioned head's (revision, ETag, tombstone), with ``manifest_hash`` and ``bundle_hash``; files are described by
``SkillFileInfo``."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.fields import CreatedAt, UpdatedAt
from shared.api.schemas.resources import ResourceHead


class Skill(ResourceHead):
    user_id: str | None = Field(default=None, description="The user it is private to (null: shared).")
    name: str = Field(description="Its name (its key in the workspace).")
    description: str = Field(description="What it does.")
    version: str = Field(description="Its version.")
    license: str | None = Field(default=None, description="A license identifier.")
    compatibility: str | None = Field(default=None, description="Compatibility notes.")
    allowed_tools: str | None = Field(default=None, description="Space-separated tools it may use.")
    body: str = Field(description="The SKILL.md body (markdown).")
    metadata: dict[str, Any] = Field(description="Any JSON object, as written.")
    source_mode: str = Field(description="Where it is canonical: server, filesystem or mirrored.")
    manifest_hash: str = Field(description="SHA-256 of its rendered SKILL.md.")
    bundle_hash: str = Field(
        description="SHA-256 over its files' sorted `path:content_hash` (empty: no files)."
    )
    enabled: bool = Field(description="Whether it is active.")
    revision: int = Field(description="Its manifest revision: 1 at creation, one more per accepted write.")
    etag: str = Field(description="The revision's ETag (also the `ETag` header): send it as `If-Match`.")
    created_by: str | None = Field(default=None, description="Who created it (`key:<id>`; null: auth off).")
    updated_by: str | None = Field(default=None, description="Who wrote this revision.")
    created_at: CreatedAt
    updated_at: UpdatedAt
    deleted_at: Timestamp | None = Field(default=None, description="When it was deleted (null: live).")


class SkillFileInfo(Wire):
    path: str = Field(description="Its path in the bundle.")
    kind: str = Field(description="script, reference, asset (by its top directory) or other.")
    size_bytes: int = Field(description="Its size in bytes.")
    content_hash: str = Field(description="SHA-256 of its content.")
    mime_type: str | None = Field(default=None, description="Its MIME type, as uploaded.")


class SkillFilesListResponse(Wire):
    files: list[SkillFileInfo] = Field(description="Its files, by path.")


class SkillResolveResponse(Wire):
    skill: Skill | None = Field(default=None, description="The skill resolved (null: none).")
    candidates: list[Skill] = Field(
        default_factory=list, description="By query: the matching skills, best first."
    )


class SkillSyncResponse(Wire):
    action: str = Field(description="What the mirror should do: push, pull, conflict or in_sync.")
    reason: str = Field(description="Why.")
    server_manifest_hash: str = Field(description="The server's manifest hash.")
    server_bundle_hash: str = Field(description="The server's bundle hash.")
