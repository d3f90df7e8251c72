"""/v1/mcp-servers: an MCP server registry (one record per ``.mcp.json`` entry) on the versioned-resource
mechanism, as the reference serves it: create, list, get, update, delete, resolve, ``.mcp.json`` import and
export, hash sync. Secrets are masked unless ``reveal_secrets``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Response

from shared.api.deps import CallerDep, PrincipalDep, ServicesDep, secrets_shown
from shared.api.routes.resources import Limit, actor
from shared.api.schemas import mcp_servers as wire
from shared.domain.resources import mcp_servers as mcp

router = APIRouter(prefix="/v1/mcp-servers", tags=["mcp-servers"])

ServerId = Annotated[str, Path(description="The server's id.", max_length=200)]
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


@router.post("", status_code=201, response_model=wire.McpServerResponse)
def create_mcp_server(
    body: mcp.McpServerCreate, caller: CallerDep, svc: ServicesDep, reveal_secrets: RevealSecrets
) -> wire.McpServerResponse:
    """Register a server (stdio needs `command`, the others `url`); a taken name is a 409."""
    workspace = caller.workspace(body.workspace_id)
    written = svc.mcp_servers.create(workspace, body, actor=actor(caller), tenant_id=caller.tenant_id)
    return wire.McpServerResponse(mcp_server=_server(written.row, reveal_secrets))


@router.get("", response_model=wire.McpServerListResponse)
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
) -> wire.McpServerListResponse:
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
    return wire.McpServerListResponse(mcp_servers=servers, total_count=len(servers))


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


@router.get("/{server_id}", response_model=wire.McpServerResponse)
def get_mcp_server(
    server_id: ServerId, caller: CallerDep, svc: ServicesDep, reveal_secrets: RevealSecrets
) -> wire.McpServerResponse:
    """One server by id; secrets in its config are masked unless `reveal_secrets`."""
    return wire.McpServerResponse(
        mcp_server=_server(svc.mcp_servers.get(caller.workspace(), server_id), reveal_secrets)
    )


@router.put("/{server_id}", response_model=wire.McpServerResponse)
def update_mcp_server(
    server_id: ServerId,
    body: mcp.McpServerUpdate,
    caller: CallerDep,
    svc: ServicesDep,
    reveal_secrets: RevealSecrets,
) -> wire.McpServerResponse:
    """Change the fields sent (`metadata` merged); still a revision."""
    written = svc.mcp_servers.update(
        caller.workspace(body.workspace_id), server_id, body, actor=actor(caller)
    )
    return wire.McpServerResponse(mcp_server=_server(written.row, reveal_secrets))


@router.delete("/{server_id}", status_code=204, response_class=Response)
def delete_mcp_server(server_id: ServerId, caller: CallerDep, svc: ServicesDep) -> Response:
    """Remove it for good (its name is free again), as the reference."""
    svc.mcp_servers.delete(caller.workspace(), server_id)
    return Response(status_code=204)


@router.post("/{server_id}/sync", response_model=wire.McpServerSyncResponse)
def sync_mcp_server(
    server_id: ServerId, body: mcp.McpServerSync, caller: CallerDep, svc: ServicesDep
) -> wire.McpServerSyncResponse:
    """Compare a local config's hash with the server's: push, pull, conflict or in_sync (nothing written)."""
    row = svc.mcp_servers.get(caller.workspace(body.workspace_id), server_id)
    server_hash = mcp.manifest_hash(row["content"])
    action, reason = mcp.compare_hashes(body.manifest_hash, server_hash)
    return wire.McpServerSyncResponse(action=action, reason=reason, server_manifest_hash=server_hash)
