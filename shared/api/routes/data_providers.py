"""/v1/data-providers: the registry of document sources, on the versioned-resource mechanism, as the reference
serves it (create, list, get, update, delete, sync). Sync: a local provider has nothing to fetch (``[]``); another
type is refused with 422 ``provider_sync_not_supported``. Secrets in ``connection_args`` are masked unless
``reveal_secrets`` (asked by a key that may write)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Response

from shared.api.deps import CallerDep, PrincipalDep, ServicesDep, secrets_shown
from shared.api.routes.resources import actor
from shared.api.schemas import data_providers as wire
from shared.domain.resources import data_providers as dp

router = APIRouter(prefix="/v1/data-providers", tags=["data-providers"])

ProviderId = Annotated[str, Path(description="The provider's id.", max_length=200)]
Reveal = Annotated[
    bool,
    Query(
        description="Answer secrets in `connection_args` (passwords, tokens, keys) as stored (default: `***`); "
        "a key that may write only."
    ),
]


def _reveal(who: PrincipalDep, reveal_secrets: Reveal = False) -> bool:
    return secrets_shown(who, reveal_secrets)


RevealSecrets = Annotated[bool, Depends(_reveal)]


def _provider(row: dict[str, Any], reveal: bool) -> wire.DataProvider:
    return wire.DataProvider.from_row({**row, "content": dp.shown(row["content"], reveal=reveal)})


@router.post("", status_code=201, response_model=wire.DataProviderResponse)
def create_data_provider(
    body: dp.DataProviderCreate, caller: CallerDep, svc: ServicesDep, reveal_secrets: RevealSecrets
) -> wire.DataProviderResponse:
    """Register a document source (type, name, config); the first revision."""
    workspace = caller.workspace(body.workspace_id)
    written = svc.data_providers.create(workspace, body, actor=actor(caller), tenant_id=caller.tenant_id)
    return wire.DataProviderResponse(provider=_provider(written.row, reveal_secrets))


@router.get("", response_model=wire.DataProviderListResponse)
def list_data_providers(
    caller: CallerDep,
    svc: ServicesDep,
    reveal_secrets: RevealSecrets,
    limit: Annotated[int, Query(ge=1, le=200, description="How many at most (1-200, default 50).")] = 50,
    offset: Annotated[int, Query(ge=0, le=1000, description="How many to skip (0-1000).")] = 0,
) -> wire.DataProviderListResponse:
    """The workspace's providers, newest first, with the total count."""
    rows, total = svc.data_providers.listing(caller.workspace(), limit=limit, offset=offset)
    return wire.DataProviderListResponse(
        providers=[_provider(r, reveal_secrets) for r in rows], total_count=total
    )


@router.get("/{provider_id}", response_model=wire.DataProviderResponse)
def get_data_provider(
    provider_id: ProviderId, caller: CallerDep, svc: ServicesDep, reveal_secrets: RevealSecrets
) -> wire.DataProviderResponse:
    """One provider by id; 404 `not_found` if the workspace has none by that id."""
    row = svc.data_providers.get(caller.workspace(), provider_id)
    return wire.DataProviderResponse(provider=_provider(row, reveal_secrets))


@router.put("/{provider_id}", response_model=wire.DataProviderResponse)
def update_data_provider(
    provider_id: ProviderId,
    body: dp.DataProviderUpdate,
    caller: CallerDep,
    svc: ServicesDep,
    reveal_secrets: RevealSecrets,
) -> wire.DataProviderResponse:
    """Change the fields sent; still a revision."""
    written = svc.data_providers.update(
        caller.workspace(body.workspace_id), provider_id, body, actor=actor(caller)
    )
    return wire.DataProviderResponse(provider=_provider(written.row, reveal_secrets))


@router.delete("/{provider_id}", status_code=204, response_class=Response)
def delete_data_provider(provider_id: ProviderId, caller: CallerDep, svc: ServicesDep) -> Response:
    """Remove it for good, as the reference; documents it brought stay."""
    svc.data_providers.delete(caller.workspace(), provider_id)
    return Response(status_code=204)


@router.post(
    "/{provider_id}/sync",
    response_model=wire.DataProviderSyncResponse,
    responses={422: {"description": "`provider_sync_not_supported`: no connector for this provider's type."}},
)
def sync_data_provider(
    provider_id: ProviderId, caller: CallerDep, svc: ServicesDep
) -> wire.DataProviderSyncResponse:
    """A local provider's documents arrive by upload: the answer lists nothing fetched."""
    workspace = caller.workspace()
    synced = svc.data_providers.sync(workspace, provider_id)
    return wire.DataProviderSyncResponse(
        provider_id=provider_id, workspace_id=workspace, synced_documents=synced
    )
