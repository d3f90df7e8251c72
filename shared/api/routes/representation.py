"""/v1/representation: what an observer holds about a subject in a workspace; /v1/representation/user: what
the memory holds about one user across workspaces (their memories in the tenant's user space). Both assembled
deterministically, as the reference's open-source path does."""

from __future__ import annotations

from fastapi import APIRouter

from shared.api.deps import CallerDep, ServicesDep
from shared.api.schemas.entities import Entity
from shared.api.schemas.representation import Representation, UserRepresentation
from shared.domain import representation as rep

router = APIRouter(prefix="/v1", tags=["representation"])


@router.post("/representation", response_model=Representation)
def get_representation(
    body: rep.RepresentationRequest, caller: CallerDep, svc: ServicesDep
) -> Representation:
    """What `observer` holds about `subject` in the workspace: both resolved in the entity registry (never
    created); the observer's memories (`observer_id`) about the subject (`subject_id`, or evidence of one of its
    relations), newest first. An unknown name answers an empty representation (`provenance.unresolved`)."""
    found = svc.representations.perspective(caller.workspace(body.workspace_id), body)
    return Representation.model_validate(
        {
            **found,
            "observer": Entity.from_row(found["observer"]),
            "subject": Entity.from_row(found["subject"]),
        }
    )


@router.post("/representation/user", response_model=UserRepresentation)
def get_user_representation(
    body: rep.UserRepresentationRequest, caller: CallerDep, svc: ServicesDep
) -> UserRepresentation:
    """The user's memories in the tenant's user space (`scope: user`), newest first, and a profile; no
    `user_id` answers an empty representation (`provenance.error: no_user_id`), as the reference."""
    space = caller.principal.require_workspace(caller.principal.user_space)
    found = svc.representations.of_user(
        space, body.user_id, limit=body.limit, include_profile=body.include_profile
    )
    return UserRepresentation.model_validate(found)
