"""MCP servers on the wire (/v1/mcp-servers), as the reference sends them: ``{mcp_server}``, ``{mcp_servers,
total_count}``; secrets (``env``, ``headers`` values) masked as ``***`` unless ``reveal_secrets``."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.api.schemas.base import Wire
from shared.api.schemas.fields import CreatedAt, UpdatedAt
from shared.api.schemas.resources import ResourceHead


class McpServer(ResourceHead):
    user_id: str | None = Field(default=None, description="The user it is private to (null: shared).")
    name: str = Field(description="Its name (its key in the workspace).")
    description: str | None = Field(default=None, description="What it offers.")
    transport: str = Field(description="stdio, http, sse or streamable-http.")
    command: str | None = Field(default=None, description="The executable (stdio).")
    args: list[str] = Field(description="Command arguments (stdio).")
    env: dict[str, str] = Field(description="Environment variables (stdio): values `***` unless revealed.")
    url: str | None = Field(default=None, description="Its URL (http, sse, streamable-http).")
    headers: dict[str, str] = Field(description="HTTP headers: values `***` unless revealed.")
    metadata: dict[str, Any] = Field(description="Any JSON object, as written.")
    source_mode: str = Field(description="Where it is canonical: server, filesystem or mirrored.")
    manifest_hash: str = Field(description="SHA-256 of its runtime config (canonical JSON).")
    enabled: bool = Field(description="Whether it is active.")
    revision: int = Field(description="Its revision: 1 at creation, one more per update.")
    etag: str = Field(description="The revision's ETag.")
    created_at: CreatedAt
    updated_at: UpdatedAt


class McpServerResolveResponse(Wire):
    mcp_server: McpServer | None = Field(default=None, description="The server resolved (null: none).")
    candidates: list[McpServer] = Field(
        default_factory=list, description="By query: the matches, best first."
    )


class McpJson(Wire):
    """A `.mcp.json` document, the shape MCP clients read."""

    mcpServers: dict[str, dict[str, Any]] = Field(  # noqa: N815 - the file format's key
        description="Each server by name: `command`/`args`/`env` (stdio) or `url`/`headers`/`type`."
    )


class McpServerImportResponse(Wire):
    imported: int = Field(description="Servers created.")
    updated: int = Field(description="Servers of the same name updated.")
    skipped: int = Field(description="Entries refused (each named in `errors`).")
    errors: list[str] = Field(description="`<name>: <why>` for each entry refused.")


class McpServerSyncResponse(Wire):
    action: str = Field(description="What the mirror should do: push, pull, conflict or in_sync.")
    reason: str = Field(description="Why.")
    server_manifest_hash: str = Field(description="The server's manifest hash.")
