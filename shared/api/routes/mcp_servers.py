"""/v1/mcp-servers: an MCP server registry (one record per ``.mcp.json`` entry) on the versioned-resource
mechanism, as the reference serves it: a declared family (create, get, update, delete, written unconditionally)
with resolve, ``.mcp.json`` import and export, and hash sync beside it. Secrets are masked unless
``reveal_secrets``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import Field

from shared.api.deps import CallerDep, PrincipalDep, ServicesDep, secrets_shown
from shared.api.routes.families import Family, Limit, Registry, actor
from shared.api.routes.family_routes import serve
from shared.api.schemas import mcp_servers as wire
from shared.api.schemas.base import Wire
from shared.domain.resources import mcp_servers as mcp

router = APIRouter(prefix="/v1/mcp-servers", tags=["mcp-servers"])

Reveal = Annotated[
    bool,
    Query(
        description="Answer `env` and `headers` values as stored (default: `***`); a key that may write only."
    ),
]


def _reveal(who: PrincipalDep, reveal_secrets: Reveal = False) -> bool:
    return secrets_shown(who, reveal_secrets)


RevealSecrets = Annotated[bool, Depends(_reveal)]


def _server(row: dict[str, Any], reveal: bool) -> wire.McpServer:
    content = mcp.shown(row["content"], reveal=reveal)
    return wire.McpServer.from_row(
        {**row, "content": content, "manifest_hash": mcp.manifest_hash(row["content"])}
    )


MCP_SERVERS = Family(
    mcp.MCP_SERVERS,
    "",
    "server_id",
    "mcp_server",
    "mcp_servers",
    wire.McpServer,
    create=mcp.McpServerCreate,
    update=mcp.McpServerUpdate,
    routes=frozenset({"create", "get", "update", "remove"}),
    conditional=False,
    at={"remove": ("DELETE", "", "delete_mcp_server")},
    params={"server_id": Path(description="The server's id.", max_length=200)},
    store=lambda svc: Registry(svc.mcp_servers),
    items=lambda svc, workspace, rows, reveal_secrets: [_server(row, reveal_secrets) for row in rows],
    answer_params={"reveal_secrets": RevealSecrets},
    named=False,
    listing_fields={"total_count": (int, Field(description="How many are in this answer."))},
    words={"many": "The servers, most recently changed first."},
    texts={
        "create": "Register a server (stdio needs `command`, the others `url`); a taken name is a 409.",
        "get": "One server by id; secrets in its config are masked unless `reveal_secrets`.",
        "update": "Change the fields sent (`metadata` merged); still a revision.",
        "remove": "Remove it for good (its name is free again), as the reference.",
    },
)

serve(router, MCP_SERVERS, {"create"})


@router.get("", response_model=MCP_SERVERS.listing)
def list_mcp_servers(
    caller: CallerDep,
    svc: ServicesDep,
    reveal_secrets: RevealSecrets,
    name: Annotated[str | None, Query(max_length=64, description="Only the server of this name.")] = None,
    transport: Annotated[str | None, Query(max_length=32, description="Only this transport.")] = None,
    enabled: Annotated[
        bool | None, Query(description="Only enabled (true) or disabled (false) ones.")
    ] = None,
    user_id: Annotated[str | None, Query(max_length=200, description="Only this user's.")] = None,
    include_shadowed: Annotated[bool, Query(description="Accepted: one workspace shadows nothing.")] = False,
    limit: Limit = 100,
    offset: Annotated[int, Query(ge=0, le=10000, description="How many to skip (0-10000).")] = 0,
) -> Wire:
    """The workspace's servers, most recently changed first."""
    rows = svc.mcp_servers.listing(
        caller.workspace(),
        name=name,
        transport=transport,
        enabled=enabled,
        user_id=user_id,
        limit=limit,
        offset=offset,
    )
    servers = [_server(row, reveal_secrets) for row in rows]
    return MCP_SERVERS.listing.model_validate({"mcp_servers": servers, "total_count": len(servers)})


@router.post("/resolve", response_model=wire.McpServerResolveResponse)
def resolve_mcp_server(
    body: mcp.McpServerResolve, caller: CallerDep, svc: ServicesDep, reveal_secrets: RevealSecrets
) -> wire.McpServerResolveResponse:
    """By `name`: that server if enabled. By `query`: enabled servers sharing most of its words (`candidates`,
    best first; `transport` filters)."""
    found = svc.mcp_servers.resolve(caller.workspace(body.workspace_id), body)
    servers = [_server(row, reveal_secrets) for row in found]
    return wire.McpServerResolveResponse(
        mcp_server=servers[0] if servers else None, candidates=servers if body.query and not body.name else []
    )


@router.post("/import", response_model=wire.McpServerImportResponse)
def import_mcp_servers(body: mcp.McpServerImport, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """A `.mcp.json` document: each entry creates a server, or updates the one of its name; a bad entry is
    skipped and named in `errors`."""
    workspace = caller.workspace(body.workspace_id)
    return svc.mcp_servers.import_json(workspace, body, actor=actor(caller), tenant_id=caller.tenant_id)


@router.get("/export", response_model=wire.McpJson)
def export_mcp_servers(caller: CallerDep, svc: ServicesDep, reveal_secrets: RevealSecrets) -> dict[str, Any]:
    """The enabled servers as a `.mcp.json` document (`{"mcpServers": {name: config}}`)."""
    rows = svc.mcp_servers.listing(caller.workspace(), enabled=True, limit=500)
    return mcp.mcp_json([mcp.shown(row["content"], reveal=reveal_secrets) for row in rows])


# After /export: a request is matched against the routes in order.
serve(router, MCP_SERVERS, {"get", "update", "remove"})


@router.post("/{server_id}/sync", response_model=wire.McpServerSyncResponse)
def sync_mcp_server(
    server_id: Annotated[str, Path(description="The server's id.", max_length=200)],
    body: mcp.McpServerSync,
    caller: CallerDep,
    svc: ServicesDep,
) -> wire.McpServerSyncResponse:
    """Compare a local config's hash with the server's: push, pull, conflict or in_sync (nothing written)."""
    row = svc.mcp_servers.get(caller.workspace(body.workspace_id), server_id)
    server_hash = mcp.manifest_hash(row["content"])
    action, reason = mcp.compare_hashes(body.manifest_hash, server_hash)
    return wire.McpServerSyncResponse(action=action, reason=reason, server_manifest_hash=server_hash)
