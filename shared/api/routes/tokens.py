"""/v1/tokens: scoped, expiring tokens a key mints for itself (shared/domain/tokens.py). The secret is shown once."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from shared.api import schemas
from shared.api.deps import PrincipalDep, ServicesDep
from shared.domain.requests.tokens import TokenCreate

router = APIRouter(prefix="/v1/tokens", tags=["tokens"])

TokenIdPath = Annotated[str, Path(max_length=64, description="The token's id.")]


@router.post("", status_code=201, response_model=schemas.TokenCreated)
def create_token(body: TokenCreate, who: PrincipalDep, svc: ServicesDep) -> schemas.TokenCreated:
    """Mint a token no wider than the calling key. The secret is in this response only."""
    row, secret = svc.tokens.mint(who, **body.model_dump())
    return schemas.TokenCreated.from_row(row, token=secret)


@router.get("", response_model=schemas.TokenList)
def list_tokens(
    who: PrincipalDep,
    svc: ServicesDep,
    include_revoked: Annotated[bool, Query(description="Include revoked tokens (default false).")] = False,
) -> schemas.TokenList:
    """The tokens minted under the calling key (the admin key: every token), without their secrets."""
    rows = svc.tokens.list(who, include_revoked=include_revoked)
    return schemas.TokenList.model_construct(tokens=[schemas.Token.from_row(r) for r in rows])


@router.get("/{token_id}", response_model=schemas.Token)
def get_token(token_id: TokenIdPath, who: PrincipalDep, svc: ServicesDep) -> schemas.Token:
    """One token under the calling key, without its secret."""
    return schemas.Token.from_row(svc.tokens.get(who, token_id))


@router.post("/{token_id}/revoke", status_code=204)
def revoke_token(token_id: TokenIdPath, who: PrincipalDep, svc: ServicesDep) -> Response:
    """Revoke a token (and those minted under it): refused from the next request on, still listed."""
    svc.tokens.revoke(who, token_id)
    return Response(status_code=204)


@router.delete("/{token_id}", status_code=204)
def delete_token(token_id: TokenIdPath, who: PrincipalDep, svc: ServicesDep) -> Response:
    """Delete a token (and those minted under it): refused and no longer listed."""
    svc.tokens.delete(who, token_id)
    return Response(status_code=204)
