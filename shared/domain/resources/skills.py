"""Skills: agent skills (a SKILL.md manifest, frontmatter and body, plus a bundle of files), versioned on the
resource mechanism (/v1/skills). The manifest is the resource (key = its name); its files are child rows (not
in its revisions), summarised by ``bundle_hash``.

    >>> render_manifest({"name": "pdf", "description": "Read: PDFs", "version": "0.1.0"}, {}, "Use it.")
    '---\\nname: pdf\\ndescription: "Read: PDFs"\\nversion: 0.1.0\\n---\\n\\nUse it.'
    >>> sync_action("a", "b", "", "")
    ('pull', 'No local state; server version available')
    >>> file_kind("references/api.md"), file_kind("notes.txt")
    ('reference', 'other')
    >>> served_type("text/plain; charset=utf-8"), served_type("text/html"), served_type(None)
    ('text/plain', 'application/octet-stream', 'application/octet-stream')
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from shared.core.errors import InvalidInput, NotFound
from shared.core.fields import WorkspaceId
from shared.domain.requests import RequestModel
from shared.domain.resources.fields import NonBlank, ResourceBody, ResourceMetadata
from shared.domain.resources.service import Document, Kind

SKILLS = Kind("skill", "skill", "skl")

# RFC 9110's media type: type "/" subtype, then "; name=value" parameters (a token or a quoted string), spaces and
# tabs only between them. No control character: a CR or LF stored here would later break the response head that
# names it.
_TOKEN = r"[A-Za-z0-9!#$%&'*+.^_`|~-]+"
_MEDIA_TYPE = re.compile(
    rf"{_TOKEN}/{_TOKEN}(?:[ \t]*;[ \t]*{_TOKEN}=(?:{_TOKEN}|\"(?:[^\"\\\x00-\x1f\x7f]|\\[^\x00-\x1f\x7f])*\"))*"
)


def _media_type(value: str | None) -> str | None:
    if value is not None and not _MEDIA_TYPE.fullmatch(value):
        raise ValueError(
            "a MIME type is type/subtype with optional ; name=value parameters, no control characters"
        )
    return value


MimeType = Annotated[
    str | None,
    Field(max_length=200, description="Its MIME type (`type/subtype`, optional `; name=value` parameters)."),
    AfterValidator(_media_type),
]
# Types a browser shows without running anything: a stored file of one of these is served as that type; any other
# (HTML, SVG, XML, JavaScript: a script on the API's origin) as an attachment of application/octet-stream.
INERT_TYPES = frozenset(
    {
        "text/plain",
        "text/markdown",
        "text/csv",
        "application/json",
        "application/x-ndjson",
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
    }
)


def served_type(mime_type: str | None) -> str:
    """The content type a stored file is served with: its own type (without parameters) if inert, else
    ``application/octet-stream``."""
    bare = (mime_type or "").split(";", 1)[0].strip().lower()
    return bare if bare in INERT_TYPES else "application/octet-stream"


SourceMode = Literal["server", "filesystem", "mirrored"]
SkillName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$",
        description="The skill's name (its key in the workspace): 1-64 lowercase letters, digits and single "
        "hyphens, not starting or ending with one. Fixed once created.",
    ),
]
Description = Annotated[
    NonBlank, Field(min_length=1, max_length=1024, description="What the skill does (1-1024 characters).")
]
Version = Annotated[str, Field(min_length=1, max_length=64, description="Its version (default 0.1.0).")]
License = Annotated[str | None, Field(max_length=200, description="A license identifier.")]
Compatibility = Annotated[
    str | None, Field(max_length=500, description="Compatibility notes (up to 500 characters).")
]
AllowedTools = Annotated[
    str | None, Field(max_length=4096, description="A space-separated list of the tools it may use.")
]
Body = Annotated[str, Field(max_length=262144, description="The SKILL.md body, markdown (up to 256 KiB).")]
MAX_FILE_BYTES = 1024 * 1024
MAX_FILES = 256
# The manifest's fields, in the order of the rendered frontmatter.
MANIFEST = ("name", "description", "version", "license", "compatibility", "allowed_tools")


class SkillFileInline(RequestModel):
    path: str = Field(
        min_length=1, max_length=512, description="Its path in the bundle (e.g. `scripts/run.py`)."
    )
    content: str = Field(default="", max_length=MAX_FILE_BYTES, description="Its text (UTF-8).")
    mime_type: MimeType = None


class SkillReplace(ResourceBody):
    """A whole manifest (PUT /v1/skills/{id}/manifest): what a conditional write replaces."""

    description: Description
    version: Version = "0.1.0"
    license: License = None
    compatibility: Compatibility = None
    allowed_tools: AllowedTools = None
    body: Body = ""
    metadata: ResourceMetadata = Field(default_factory=dict)
    source_mode: SourceMode = Field(
        default="server", description="Where it is canonical: server, filesystem, mirrored."
    )
    enabled: bool = Field(default=True, description="Whether it is active (default true).")


class SkillCreate(ResourceBody):
    name: SkillName
    description: Description
    version: Version = "0.1.0"
    license: License = None
    compatibility: Compatibility = None
    allowed_tools: AllowedTools = None
    body: Body = ""
    metadata: ResourceMetadata = Field(default_factory=dict)
    source_mode: SourceMode = Field(
        default="server", description="Where it is canonical: server, filesystem, mirrored."
    )
    workspace_id: WorkspaceId = None
    user_id: str | None = Field(
        default=None, max_length=200, description="The user it is private to (none: shared)."
    )
    files: list[SkillFileInline] = Field(
        default_factory=list,
        max_length=MAX_FILES,
        description="Bundle files written with it (unconditional create only; up to 256).",
    )

    def document(self) -> Document:
        content = self.model_dump(exclude={"metadata", "workspace_id", "files"}) | {"enabled": True}
        return Document(1, content, self.metadata)


class SkillUpdate(ResourceBody):
    """A partial change (PUT /v1/skills/{id}): the fields sent replace theirs, ``metadata`` is merged."""

    description: NonBlank | None = Field(
        default=None, min_length=1, max_length=1024, description="A new description (1-1024 characters)."
    )
    version: str | None = Field(default=None, min_length=1, max_length=64, description="A new version.")
    license: License = None
    compatibility: Compatibility = None
    allowed_tools: AllowedTools = None
    body: Annotated[str | None, Field(max_length=262144, description="A new SKILL.md body.")] = None
    metadata: dict[str, Any] | None = Field(default=None, description="Keys to merge into its metadata.")
    source_mode: SourceMode | None = Field(default=None, description="server, filesystem or mirrored.")
    enabled: bool | None = Field(default=None, description="Enable or disable it.")
    manifest_hash: str | None = Field(default=None, max_length=200, description="Ignored: computed here.")
    bundle_hash: str | None = Field(default=None, max_length=200, description="Ignored: computed here.")


class SkillFileUpsert(RequestModel):
    content_b64: str | None = Field(
        default=None, max_length=2 * MAX_FILE_BYTES, description="Its content, base64."
    )
    mime_type: MimeType = None
    workspace_id: WorkspaceId = None


class SkillResolve(RequestModel):
    name: str | None = Field(default=None, max_length=64, description="A skill's exact name.")
    query: str | None = Field(default=None, max_length=4096, description="What the skill should do (words).")
    scope_hint: str | None = Field(default=None, max_length=32, description="Accepted; one workspace here.")
    workspace_id: WorkspaceId = None
    include_addenda: bool = Field(default=False, description="Accepted; skills here have no addenda.")


class SkillSync(RequestModel):
    manifest_hash: str = Field(default="", max_length=200, description="SHA-256 of the local SKILL.md.")
    bundle_hash: str = Field(default="", max_length=200, description="SHA-256 of the local bundle.")
    workspace_id: WorkspaceId = None


def replaced(head: dict[str, Any], body: SkillReplace) -> Document:
    """The document a manifest replace writes: the body's fields over the head's name and owner."""
    fields = body.model_dump(exclude={"metadata"})
    content = {**head["content"], **fields}
    return Document(head["schema_version"], content, body.metadata)


def updated(head: dict[str, Any], body: SkillUpdate) -> Document:
    """The document a partial update writes."""
    changes = body.model_dump(exclude_none=True, exclude={"metadata", "manifest_hash", "bundle_hash"})
    metadata = {**head["metadata"], **(body.metadata or {})}
    return Document(head["schema_version"], {**head["content"], **changes}, metadata)


# ---------------------------------------------------------------------------------------------- the manifest
def _scalar(value: object) -> str:
    text = str(value)
    if any(c in text for c in (":", "#", '"', "'", "\n", "[")):
        return '"' + text.replace('"', '\\"') + '"'
    return text


def render_manifest(content: dict[str, Any], metadata: dict[str, Any], body: str) -> str:
    """SKILL.md as the reference renders it: frontmatter (its fields in order, empty ones left out), then body."""
    lines = ["---"]
    for name in MANIFEST:
        value = content.get(name)
        if value:
            lines.append(f"{name.replace('_', '-')}: {_scalar(value)}")
    if metadata:
        lines.append(f"metadata: {_scalar(str(metadata))}")
    lines.append("---")
    lines.append((body if body.startswith("\n") else "\n" + body) if body else "")
    return "\n".join(lines)


def manifest_text(row: dict[str, Any]) -> str:
    return render_manifest(row["content"], row["metadata"], row["content"].get("body", ""))


def manifest_hash(row: dict[str, Any]) -> str:
    """SHA-256 of the rendered SKILL.md: what a mirror compares with (``sync``)."""
    return hashlib.sha256(manifest_text(row).encode()).hexdigest()


def bundle_hash(files: list[tuple[str, str]]) -> str:
    """SHA-256 over the sorted ``path:content_hash`` lines of its files; empty when it has none."""
    if not files:
        return ""
    return hashlib.sha256("\n".join(f"{p}:{h}" for p, h in sorted(files)).encode()).hexdigest()


def sync_action(
    server_manifest: str, server_bundle: str, client_manifest: str, client_bundle: str
) -> tuple[str, str]:
    """What a mirror should do, from the hashes on both sides: in_sync, pull, push or conflict."""
    manifest_same, bundle_same = server_manifest == client_manifest, server_bundle == client_bundle
    if manifest_same and bundle_same:
        return "in_sync", "Local and server are identical"
    if not client_manifest and not client_bundle:
        return "pull", "No local state; server version available"
    if not server_manifest and not server_bundle:
        return "push", "Server has no content; local version available"
    parts = [name for name, same in (("manifest", manifest_same), ("bundle", bundle_same)) if not same]
    return "conflict", f"Conflict: {' and '.join(parts)} differ between local and server"


# ------------------------------------------------------------------------------------------------- bundle files
def file_path(path: str) -> str:
    """A bundle-relative path, refused when it could leave the bundle or name nothing."""
    if not path or len(path) > 512 or "\\" in path or "\x00" in path or path.startswith("/"):
        raise InvalidInput(f"invalid skill file path {path[:100]!r}", code="invalid_skill_file_path")
    normal = posixpath.normpath(path)
    if normal != path or normal.startswith("..") or normal in (".", "SKILL.md"):
        raise InvalidInput(f"invalid skill file path {path[:100]!r}", code="invalid_skill_file_path")
    return path


def file_kind(path: str) -> str:
    """script, reference or asset by its top directory; other for the rest."""
    top = path.split("/")[0] if "/" in path else ""
    return {"scripts": "script", "references": "reference", "assets": "asset"}.get(top, "other")


def file_row(path: str, content: bytes, mime_type: str | None) -> dict[str, Any]:
    if len(content) > MAX_FILE_BYTES:
        raise InvalidInput("a skill file is at most 1 MiB", code="skill_file_too_large")
    return {
        "path": file_path(path),
        "kind": file_kind(path),
        "content": content,
        "content_hash": hashlib.sha256(content).hexdigest(),
        "size_bytes": len(content),
        "mime_type": mime_type,
    }


def words(text: str) -> set[str]:
    return {w for w in "".join(c.lower() if c.isalnum() else " " for c in text).split() if len(w) > 2}


def relevance(row: dict[str, Any], query_words: set[str]) -> int:
    """How many of the query's words the skill's name, description and body contain (resolve by query)."""
    content = row["content"]
    text = " ".join(str(content.get(k) or "") for k in ("name", "description", "body"))
    return len(query_words & words(text))


def file_not_found(path: str) -> NotFound:
    return NotFound(f"File {path[:200]} not found", code="skill_file_not_found")
