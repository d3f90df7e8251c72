"""/v1/admin: API keys (create, the key shown once; list; revoke) and every tenant's usage. Admin key only."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from shared.api import schemas
from shared.api.deps import PrincipalDep, ServicesDep, valid_workspace
from shared.api.routes.params import KeyIdPath
from shared.core.tenants import valid_tenant
from shared.domain.requests.keys import KeyCreate
from shared.domain.usage import Period, as_csv

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


@router.get(
    "/usage",
    response_model=schemas.UsageReport,
    responses={200: {"content": {"text/csv": {}}, "description": "The report, or its hourly rows as CSV."}},
)
def usage(
    who: PrincipalDep,
    svc: ServicesDep,
    tenant_id: Annotated[
        str | None, Query(max_length=64, description="One tenant's usage (default: every tenant's).")
    ] = None,
    since: Annotated[
        datetime | None,
        Query(description="The first hour (ISO-8601; no offset: UTC; default: 24 hours before `until`)."),
    ] = None,
    until: Annotated[
        datetime | None, Query(description="The end, exclusive (default: the end of the current hour).")
    ] = None,
    format: Annotated[
        Literal["json", "csv"], Query(description="json (default), or csv: the hourly rows only.")
    ] = "json",
) -> schemas.UsageReport | Response:
    """What each tenant used, per hour, operation kind and outcome, to bill from; and what each stores now.
    A report covers at most 92 days and 10,000 hourly rows (`truncated` says the cap cut them)."""
    who.require_admin()
    report = svc.usage.report(tenant_id, Period.of(since, until))
    if format == "csv":
        return Response(as_csv(report["hours"]), media_type="text/csv; charset=utf-8")
    return schemas.UsageReport.model_validate(report)
