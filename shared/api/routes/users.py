"""/v1/users: the users of a workspace with counts, and erasing one user's data for good."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.core.fields import WorkspaceId
from shared.domain.requests import UserErase

router = APIRouter(prefix="/v1/users", tags=["users"])

USER_ID = r"^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,255}$"


@router.get("", response_model=schemas.UserList)
def list_users(
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: WorkspaceId = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="How many at most.")] = 100,
    after: Annotated[str | None, Query(max_length=256, description="Users after this id.")] = None,
) -> dict[str, Any]:
    """The users of the workspace (every `user_id` its memories, threads or sessions carry), by id, with counts."""
    return svc.users.list(caller.workspace(workspace_id), limit=limit, after=after)


@router.post("/{user_id}/erase", response_model=schemas.EraseResult)
def erase_user(
    user_id: Annotated[str, Path(pattern=USER_ID, description="The user_id to erase.")],
    caller: CallerDep,
    svc: ServicesDep,
    body: UserErase | None = None,
) -> dict[str, Any]:
    """Erase everything of one user in the caller's workspaces of its tenant, for good: memories and their
    revisions (theirs by `user_id`, and those about them by `subject_id`), memories derived from them, relation evidence (and relations left with none, and the entities
    only they brought), threads and their messages, sessions with working memory and sandbox state. `dry_run`
    answers the same counts and deletes nothing. A read-only key gets 403."""
    only = list(caller.allowed) if caller.allowed is not None else None
    return svc.users.erase(caller.tenant_id, only, user_id, dry_run=bool(body and body.dry_run))
