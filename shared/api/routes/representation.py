"""/v1/representation/user: what the memory holds about one user across workspaces (their memories in the
tenant's user space), assembled deterministically as the reference's open-source path does."""

from __future__ import annotations

from fastapi import APIRouter

from shared.api.deps import CallerDep, ServicesDep
from shared.api.schemas.representation import UserRepresentation
from shared.domain import representation as rep

router = APIRouter(prefix="/v1", tags=["representation"])


@router.post("/representation/user", response_model=UserRepresentation)
def get_user_representation(
    body: rep.UserRepresentationRequest, caller: CallerDep, svc: ServicesDep
) -> UserRepresentation:
    """The user's memories in the tenant's user space (`scope: user`), newest first, and a profile; no
    `user_id` answers an empty representation (`provenance.error: no_user_id`), as the reference."""
    space = caller.principal.require_workspace(caller.principal.user_space)
    found = rep.user_representation(
        svc.db, space, body.user_id, limit=body.limit, include_profile=body.include_profile
    )
    return UserRepresentation.model_validate(found)
