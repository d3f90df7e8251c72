"""MCP servers: one record per server of a ``.mcp.json`` (stdio command or http/sse URL), on the resource
mechanism (/v1/mcp-servers; key = the server's name). Secrets (``env``, ``headers`` values) are masked in answers
unless asked for; ``${VAR}`` placeholders are shown as they are.

    >>> mask({"TOKEN": "s3cret", "HOME": "${HOME}"})
    {'TOKEN': '***', 'HOME': '${HOME}'}
    >>> compare_hashes("", "abc")
    ('pull', 'server has config, local is empty')
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from shared.core.errors import InvalidInput
from shared.core.fields import WorkspaceId
from shared.domain.requests import RequestModel
from shared.domain.resources.fields import ResourceBody, ResourceMetadata
from shared.domain.resources.service import Document, Kind

MCP_SERVERS = Kind("mcp_server", "MCP server", "mcp")

Transport = Literal["stdio", "http", "sse", "streamable-http"]
SourceMode = Literal["server", "filesystem", "mirrored"]
MASK = "***"


def _bounded_map(value: dict[str, str]) -> dict[str, str]:
    if len(value) > 256 or any(len(k) > 256 or len(v) > 8192 for k, v in value.items()):
        raise ValueError("at most 256 entries, keys up to 256 and values up to 8192 characters")
    return value


def _bounded_args(value: list[str]) -> list[str]:
    if any(len(arg) > 8192 for arg in value):
        raise ValueError("an argument is at most 8192 characters")
    return value


ServerName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$",
        description="The server's name (its key in the workspace): 1-64 lowercase letters, digits and single "
        "hyphens, not starting or ending with one. Fixed once created.",
    ),
]
StringMap = Annotated[dict[str, str], AfterValidator(_bounded_map)]
Args = Annotated[list[str], AfterValidator(_bounded_args)]
ServerDescription = Annotated[str | None, Field(max_length=1024, description="What it offers (up to 1024).")]
Command = Annotated[str | None, Field(max_length=4096, description="The executable (stdio only).")]
Url = Annotated[str | None, Field(max_length=4096, description="Its URL (http, sse, streamable-http).")]
# The server's own fields, stored as the document's content.
CONFIG = (
    "name",
    "description",
    "transport",
    "command",
    "args",
    "env",
    "url",
    "headers",
    "source_mode",
    "enabled",
    "user_id",
)


def check_transport(content: dict[str, Any]) -> None:
    """stdio needs a command, the others a URL (refused as the reference does)."""
    if content["transport"] == "stdio":
        if not content.get("command"):
            raise InvalidInput("command is required for stdio transport", code="mcp_command_required")
    elif not content.get("url"):
        raise InvalidInput(f"url is required for {content['transport']} transport", code="mcp_url_required")


class McpServerCreate(ResourceBody):
    name: ServerName
    description: ServerDescription = None
    transport: Transport = Field(description="stdio, http, sse or streamable-http.")
    command: Command = None
    args: Args = Field(default_factory=list, max_length=256, description="Command arguments (stdio only).")
    env: StringMap = Field(default_factory=dict, description="Environment variables (stdio only; secrets).")
    url: Url = None
    headers: StringMap = Field(default_factory=dict, description="HTTP headers (http, sse; may be secrets).")
    metadata: ResourceMetadata = Field(default_factory=dict)
    source_mode: SourceMode = Field(default="server", description="server, filesystem or mirrored.")
    enabled: bool = Field(default=True, description="Whether it is active (default true).")
    workspace_id: WorkspaceId = None
    user_id: str | None = Field(default=None, max_length=200, description="The user it is private to.")

    @model_validator(mode="after")
    def _transport(self) -> McpServerCreate:
        if self.transport == "stdio" and not self.command:
            raise ValueError("command is required for stdio transport")
        if self.transport != "stdio" and not self.url:
            raise ValueError(f"url is required for {self.transport} transport")
        return self

    def document(self) -> Document:
        return Document(1, self.model_dump(include=set(CONFIG)), self.metadata)


class McpServerUpdate(ResourceBody):
    """A partial change: the fields sent replace theirs, ``metadata`` is merged."""

    description: ServerDescription = None
    command: Command = None
    args: Args | None = Field(default=None, max_length=256, description="New arguments (stdio only).")
    env: StringMap | None = Field(default=None, description="New environment variables (stdio only).")
    url: Url = None
    headers: StringMap | None = Field(default=None, description="New HTTP headers (http, sse).")
    metadata: dict[str, Any] | None = Field(default=None, description="Keys to merge into its metadata.")
    source_mode: SourceMode | None = Field(default=None, description="server, filesystem or mirrored.")
    manifest_hash: str | None = Field(default=None, max_length=200, description="Ignored: computed here.")
    enabled: bool | None = Field(default=None, description="Enable or disable it.")
    workspace_id: WorkspaceId = None


def updated(head: dict[str, Any], body: McpServerUpdate) -> Document:
    changes = body.model_dump(exclude_none=True, include=set(CONFIG))
    content = {**head["content"], **changes}
    check_transport(content)
    return Document(head["schema_version"], content, {**head["metadata"], **(body.metadata or {})})


class McpServerImport(RequestModel):
    mcpServers: dict[str, Any] = Field(  # noqa: N815 - the .mcp.json key
        max_length=256, description="Server name -> its config, as in a `.mcp.json` (up to 256)."
    )
    workspace_id: WorkspaceId = None
    user_id: str | None = Field(default=None, max_length=200, description="The user they are private to.")
    source_mode: SourceMode = Field(default="server", description="server, filesystem or mirrored.")


class McpServerResolve(RequestModel):
    name: str | None = Field(default=None, max_length=64, description="A server's exact name.")
    query: str | None = Field(default=None, max_length=4096, description="What the server should offer.")
    transport: str | None = Field(default=None, max_length=32, description="Only servers of this transport.")
    workspace_id: WorkspaceId = None


class McpServerSync(RequestModel):
    manifest_hash: str = Field(default="", max_length=200, description="SHA-256 of the local config.")
    workspace_id: WorkspaceId = None


def from_entry(name: str, entry: Any, *, user_id: str | None, source_mode: str) -> McpServerCreate:
    """One ``.mcp.json`` entry as a create (its transport inferred from ``command`` / ``url`` / ``type``)."""
    if not isinstance(entry, dict):
        raise ValueError("an entry must be an object")
    transport = entry.get("transport")
    if transport is None:
        kind = entry.get("type") or "http"
        transport = (
            "stdio"
            if entry.get("command")
            else (kind if kind in ("sse", "http", "streamable-http") else "http")
        )
    fields = {
        k: entry[k] for k in ("command", "args", "env", "url", "headers", "description") if entry.get(k)
    }
    return McpServerCreate.model_validate(
        {"name": name, "transport": transport, **fields, "user_id": user_id, "source_mode": source_mode}
    )


def manifest_hash(content: dict[str, Any]) -> str:
    """SHA-256 of its runtime config as canonical JSON, as the reference computes it."""
    config: dict[str, Any] = {"name": content["name"], "transport": content["transport"]}
    if content.get("description") is not None:
        config["description"] = content["description"]
    keys = ("command", "args", "env") if content["transport"] == "stdio" else ("url", "headers")
    config |= {k: content[k] for k in keys if content.get(k)}
    return hashlib.sha256(json.dumps(config, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def mask(values: dict[str, str]) -> dict[str, str]:
    return {k: v if v.startswith("${") and v.endswith("}") else MASK for k, v in values.items()}


def shown(content: dict[str, Any], *, reveal: bool) -> dict[str, Any]:
    """The content as answered: secrets masked unless ``reveal``."""
    if reveal:
        return content
    return {**content, "env": mask(content.get("env") or {}), "headers": mask(content.get("headers") or {})}


def mcp_json(contents: list[dict[str, Any]]) -> dict[str, Any]:
    """Servers as a ``.mcp.json`` document (runtime fields only)."""
    servers: dict[str, dict[str, Any]] = {}
    for c in contents:
        if c["transport"] == "stdio":
            entry = {k: c[k] for k in ("command", "args", "env") if c.get(k)}
        else:
            entry = {**{k: c[k] for k in ("url", "headers") if c.get(k)}, "type": c["transport"]}
        if c.get("description"):
            entry["description"] = c["description"]
        servers[c["name"]] = entry
    return {"mcpServers": servers}


def compare_hashes(local_hash: str, server_hash: str) -> tuple[str, str]:
    local, server = local_hash.strip(), server_hash.strip()
    if local == server:
        return "in_sync", "local and server configs are identical"
    if not local:
        return "pull", "server has config, local is empty"
    if not server:
        return "push", "local has config, server record is empty"
    return "conflict", "local and server configs have both changed"


def words(text: str) -> set[str]:
    return {w for w in "".join(c.lower() if c.isalnum() else " " for c in text).split() if len(w) > 2}


def relevance(content: dict[str, Any], query_words: set[str]) -> int:
    text = (
        " ".join(str(content.get(k) or "") for k in ("name", "description", "transport", "command", "url"))
        + " "
        + " ".join(content.get("args") or [])
    )
    return len(query_words & words(text))
