"""/v1/admin/api-keys: create (the key is shown once), list, revoke. Admin key only."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from shared.api.deps import PrincipalDep, ServicesDep, valid_workspace
from shared.memories import serialize
from shared.tenants import DEFAULT_TENANT, valid_tenant

router = APIRouter(prefix="/v1/admin", tags=["admin"])


class KeyCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    workspaces: list[str] = Field(min_length=1, max_length=100)
    access: Literal["read", "read_write"] = "read_write"
    expires_at: datetime | None = None
    name: str | None = Field(default=None, max_length=200)
    # The tenant that owns the key; its workspaces become the tenant's (refused if another tenant owns one).
    tenant_id: str = Field(default=DEFAULT_TENANT, max_length=64)


def key_out(row: dict) -> dict[str, Any]:
    return {
        "id": row["id"],
        "prefix": row["prefix"],
        "tenant_id": row["tenant_id"],
        "workspaces": list(row["workspaces"]),
        "access": row["access"],
        "name": row["name"],
        "expires_at": serialize.iso(row["expires_at"]),
        "revoked_at": serialize.iso(row["revoked_at"]),
        "created_at": serialize.iso(row["created_at"]),
    }


@router.post("/api-keys", status_code=201)
def create_key(body: KeyCreate, who: PrincipalDep, svc: ServicesDep) -> dict[str, Any]:
    who.require_admin()
    row, key = svc.api_keys.create(
        [valid_workspace(w) for w in body.workspaces],
        access=body.access,
        expires_at=body.expires_at,
        name=body.name,
        tenant_id=valid_tenant(body.tenant_id),
    )
    return {**key_out(row), "key": key}


@router.get("/api-keys")
def list_keys(who: PrincipalDep, svc: ServicesDep) -> dict[str, Any]:
    who.require_admin()
    return {"api_keys": [key_out(r) for r in svc.api_keys.list()]}


@router.delete("/api-keys/{key_id}", status_code=204)
def revoke_key(key_id: str, who: PrincipalDep, svc: ServicesDep) -> Response:
    who.require_admin()
    svc.api_keys.revoke(key_id)
    return Response(status_code=204)
