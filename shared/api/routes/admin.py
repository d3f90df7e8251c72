"""/v1/admin/api-keys: create (the key is shown once), list, revoke. Admin key only."""

from __future__ import annotations

from fastapi import APIRouter, Response

from shared.api import schemas
from shared.api.deps import PrincipalDep, ServicesDep, valid_workspace
from shared.api.routes.params import KeyIdPath
from shared.core.tenants import valid_tenant
from shared.domain.requests.keys import KeyCreate

router = APIRouter(prefix="/v1/admin", tags=["admin"])


@router.post("/api-keys", status_code=201, response_model=schemas.ApiKeyCreated)
def create_key(body: KeyCreate, who: PrincipalDep, svc: ServicesDep) -> schemas.ApiKeyCreated:
    """Create an API key for some workspaces (admin key only). The key is in this response only."""
    who.require_admin()
    row, key = svc.api_keys.create(
        [valid_workspace(w) for w in body.workspaces],
        access=body.access,
        expires_at=body.expires_at,
        name=body.name,
        tenant_id=valid_tenant(body.tenant_id) if body.tenant_id is not None else None,
        shared_spaces=body.shared_spaces,
    )
    return schemas.ApiKeyCreated.pick(row, workspaces=list(row["workspaces"]), key=key)


@router.get("/api-keys", response_model=schemas.ApiKeyList)
def list_keys(who: PrincipalDep, svc: ServicesDep) -> schemas.ApiKeyList:
    """Every API key (without the secrets), revoked ones included."""
    who.require_admin()
    return schemas.ApiKeyList.model_construct(
        api_keys=[schemas.ApiKey.from_row(r) for r in svc.api_keys.list()]
    )


@router.delete("/api-keys/{key_id}", status_code=204)
def revoke_key(key_id: KeyIdPath, who: PrincipalDep, svc: ServicesDep) -> Response:
    """Revoke a key: it is refused from now on."""
    who.require_admin()
    svc.api_keys.revoke(key_id)
    return Response(status_code=204)
