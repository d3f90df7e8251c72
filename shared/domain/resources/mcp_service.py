"""MCP servers on the resource mechanism: every create and update is a revision (with an Idempotency-Key made
here and the ETag just read, as the reference's writes are unconditional); a delete is final (``purge``), as
the reference's, so the name is free again. ``.mcp.json`` import creates or updates one record per entry.

    >>> servers = McpServerService(resources)                                                  # doctest: +SKIP
    >>> servers.import_json("ws_a", McpServerImport(mcpServers={"fs": {"command": "npx"}}),
    ...                     actor=None, tenant_id="_default")                                  # doctest: +SKIP
    {'imported': 1, 'updated': 0, 'skipped': 0, 'errors': []}
"""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import ValidationError

from shared.core.errors import InvalidInput, MemoryLayerError
from shared.domain.resources import mcp_servers as mcp
from shared.domain.resources.service import Precondition, ResourceService, Written

SCAN_LIMIT = 1000


def _auto(actor: str | None, etag: str) -> Precondition:
    return Precondition(f"auto:{uuid.uuid4().hex}", etag, actor)


class McpServerService:
    def __init__(self, resources: ResourceService) -> None:
        self.resources = resources

    def create(
        self, workspace_id: str, body: mcp.McpServerCreate, *, actor: str | None, tenant_id: str
    ) -> Written:
        pre = _auto(actor, "*")
        return self.resources.create(
            mcp.MCP_SERVERS, workspace_id, body.name, body.document(), pre, tenant_id=tenant_id
        )

    def update(
        self, workspace_id: str, server_id: str, body: mcp.McpServerUpdate, *, actor: str | None
    ) -> Written:
        head = self.resources.get(mcp.MCP_SERVERS, workspace_id, server_id)
        doc = mcp.updated(head, body)
        return self.resources.replace(
            mcp.MCP_SERVERS, workspace_id, server_id, doc, _auto(actor, head["etag"])
        )

    def delete(self, workspace_id: str, server_id: str) -> None:
        self.resources.purge(mcp.MCP_SERVERS, workspace_id, server_id)

    def get(self, workspace_id: str, server_id: str) -> dict[str, Any]:
        return self.resources.get(mcp.MCP_SERVERS, workspace_id, server_id)

    def listing(
        self,
        workspace_id: str,
        *,
        name: str | None = None,
        transport: str | None = None,
        enabled: bool | None = None,
        user_id: str | None = None,
        limit: int = 500,
        offset: int = 0,
    ) -> list[dict[str, Any]]:
        """Servers, most recently changed first, filtered; offset then limit."""
        wanted = {"name": name, "transport": transport, "enabled": enabled, "user_id": user_id}
        wanted = {k: v for k, v in wanted.items() if v is not None}
        page = self.resources.filtered_page(
            mcp.MCP_SERVERS,
            workspace_id,
            limit=offset + limit,
            matches=lambda row: all(row["content"].get(k) == v for k, v in wanted.items()),
            filter_scope=repr(sorted(wanted.items())),
            scan_limit=max(offset + limit, SCAN_LIMIT),
        )
        return page.rows[offset:]

    def resolve(self, workspace_id: str, body: mcp.McpServerResolve) -> list[dict[str, Any]]:
        """By name: that server if enabled. By query: enabled servers sharing most of its words (best first)."""
        if not body.name and not body.query:
            raise InvalidInput("Either 'name' or 'query' must be provided", code="name_or_query_required")
        if body.name:
            return self.listing(workspace_id, name=body.name, enabled=True, limit=1)
        candidates = self.listing(workspace_id, enabled=True, transport=body.transport, limit=SCAN_LIMIT)
        wanted = mcp.words(body.query or "")
        scored = [(mcp.relevance(row["content"], wanted), row) for row in candidates]
        return [row for score, row in sorted(scored, key=lambda pair: -pair[0]) if score > 0][:10]

    def import_json(
        self, workspace_id: str, body: mcp.McpServerImport, *, actor: str | None, tenant_id: str
    ) -> dict[str, Any]:
        """Create each entry, or update the server of its name; a bad entry is reported and skipped."""
        imported = updated = skipped = 0
        errors: list[str] = []
        for name, entry in body.mcpServers.items():
            try:
                create = mcp.from_entry(name, entry, user_id=body.user_id, source_mode=body.source_mode)
                existing = self.listing(workspace_id, name=create.name, limit=1)
                if existing:
                    fields = create.model_dump(
                        include={"description", "command", "args", "env", "url", "headers", "source_mode"}
                    )
                    change = mcp.McpServerUpdate.model_validate(fields)
                    self.update(workspace_id, existing[0]["id"], change, actor=actor)
                    updated += 1
                else:
                    self.create(workspace_id, create, actor=actor, tenant_id=tenant_id)
                    imported += 1
            except (ValidationError, ValueError, MemoryLayerError) as exc:
                skipped += 1
                errors.append(f"{str(name)[:64]}: {str(exc)[:300]}")
        return {"imported": imported, "updated": updated, "skipped": skipped, "errors": errors}
