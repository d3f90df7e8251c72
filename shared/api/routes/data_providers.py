"""/v1/data-providers: the registry of document sources, on the versioned-resource mechanism, as the reference
serves it: a declared family (create, get, update, delete, written unconditionally) with its list and sync. Sync:
a local provider has nothing to fetch (``[]``); another type is refused with 422 ``provider_sync_not_supported``.
Secrets in ``connection_args`` are masked unless ``reveal_secrets`` (asked by a key that may write)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import Field

from shared.api.deps import CallerDep, PrincipalDep, ServicesDep, secrets_shown
from shared.api.routes.families import Family, Registry
from shared.api.routes.family_routes import serve
from shared.api.schemas import data_providers as wire
from shared.api.schemas.base import Wire
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


DATA_PROVIDERS = Family(
    dp.DATA_PROVIDERS,
    "",
    "provider_id",
    "provider",
    "providers",
    wire.DataProvider,
    create=dp.DataProviderCreate,
    update=dp.DataProviderUpdate,
    routes=frozenset({"create", "get", "update", "remove"}),
    conditional=False,
    at={"remove": ("DELETE", "", "delete_data_provider")},
    params={"provider_id": Path(description="The provider's id.", max_length=200)},
    store=lambda svc: Registry(svc.data_providers),
    items=lambda svc, workspace, rows, reveal_secrets: [_provider(row, reveal_secrets) for row in rows],
    answer_params={"reveal_secrets": RevealSecrets},
    named=False,
    listing_fields={
        "total_count": (int, Field(description="How many the workspace has (counted up to 1000)."))
    },
    words={"many": "The providers, most recently changed first."},
    texts={
        "create": "Register a document source (type, name, config); the first revision.",
        "get": "One provider by id; 404 `not_found` if the workspace has none by that id.",
        "update": "Change the fields sent; still a revision.",
        "remove": "Remove it for good, as the reference; documents it brought stay.",
    },
)

serve(router, DATA_PROVIDERS, {"create"})


@router.get("", response_model=DATA_PROVIDERS.listing)
def list_data_providers(
    caller: CallerDep,
    svc: ServicesDep,
    reveal_secrets: RevealSecrets,
    limit: Annotated[int, Query(ge=1, le=200, description="How many at most (1-200, default 50).")] = 50,
    offset: Annotated[int, Query(ge=0, le=1000, description="How many to skip (0-1000).")] = 0,
) -> Wire:
    """The workspace's providers, newest first, with the total count."""
    rows, total = svc.data_providers.listing(caller.workspace(), limit=limit, offset=offset)
    return DATA_PROVIDERS.listing.model_validate(
        {"providers": [_provider(r, reveal_secrets) for r in rows], "total_count": total}
    )


serve(router, DATA_PROVIDERS, {"get", "update", "remove"})


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
