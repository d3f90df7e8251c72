"""/v1/workspaces/{workspace_id}/views: workspace views and their observers' published state, versioned documents
as the reference serves them, two declared families (``shared.api.routes.families``) addressed by key with the workspace
in the path. Every write is conditional: ``Idempotency-Key`` always, ``If-None-Match: *`` to create, ``If-Match:
<etag>`` to replace, delete or restore (an observation's PUT takes exactly one of the two: it creates or
replaces); a missing header is a 428, a stale ETag a 412."""

# No ``from __future__ import annotations``: FastAPI reads the PUT's annotations as objects.

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Response

from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.families import CONDITIONAL, Family, IdempotencyKey, path_workspace, precondition
from shared.api.routes.family_routes import serve
from shared.api.routes.params import WorkspaceIdPath
from shared.api.schemas import views as wire
from shared.api.schemas.base import Wire
from shared.core.errors import PreconditionRequired
from shared.domain.resources import workspace_views as wv
from shared.domain.resources.service import Page, Precondition, Written
from shared.domain.resources.view_service import ViewService

router = APIRouter(prefix="/v1")

ViewIdPath = Annotated[str, Path(pattern=wv.PATH_ID, description="The view's `view_id`.")]
ObserverIdPath = Annotated[str, Path(pattern=wv.PATH_ID, description="The observer's `observer_id`.")]


@dataclass(frozen=True)
class Observations:
    """One view's observations, addressed by ``observer_id``, as a family's store."""

    views: ViewService
    view_id: str

    def get(self, workspace_id: str, observer_id: str, *, include_deleted: bool = False) -> dict[str, Any]:
        return self.views.get_observation(
            workspace_id, self.view_id, observer_id, include_deleted=include_deleted
        )

    def page(self, workspace_id: str, *, limit: int, page_token: str | None) -> Page:
        return self.views.observations(workspace_id, self.view_id, limit=limit, page_token=page_token)

    def delete(self, workspace_id: str, observer_id: str, pre: Precondition) -> Written:
        return self.views.delete_observation(workspace_id, self.view_id, observer_id, pre)

    def restore(self, workspace_id: str, observer_id: str, pre: Precondition) -> Written:
        return self.views.restore_observation(workspace_id, self.view_id, observer_id, pre)

    def revisions(self, workspace_id: str, observer_id: str, *, limit: int, page_token: str | None) -> Page:
        return self.views.observation_revisions(
            workspace_id, self.view_id, observer_id, limit=limit, page_token=page_token
        )


VIEWS = Family(
    wv.VIEWS,
    "/workspaces/{workspace_id}/views",
    "view_id",
    "view",
    "views",
    wire.WorkspaceView,
    create=wv.ViewCreate,
    replace=wv.ViewReplace,
    tag="workspace-views",
    responses={"create": CONDITIONAL},
    params={"view_id": Path(pattern=wv.PATH_ID, description="The view's `view_id`.")},
    store=lambda svc: svc.views,
    named=False,
    words={
        "one": "The view.",
        "many": "The views, most recently changed first.",
        "revision": "The view as this revision left it.",
    },
    texts={
        "create": "Create a view: send `Idempotency-Key` and `If-None-Match: *`; a taken `view_id` is a 409 (a "
        "deleted\nview keeps its id: restore it).",
        "list": "The workspace's views, most recently changed first; `next_page_token` continues.",
        "revisions": "Every accepted write of a view (deleted ones too), newest first, with the view as it left it.",
        "get": "One view by its `view_id`; the `ETag` header is its current revision's.",
        "replace": "Replace a live view's description: send `Idempotency-Key` and `If-Match` (a stale ETag is a "
        "412).",
        "delete": "Leave a tombstone (its `view_id` stays taken; its observations are hidden until a restore).",
        "restore": "Revive a deleted view (and so its observations): `If-Match` is the tombstone's ETag; a live "
        "one is 409.",
    },
)
OBSERVATIONS = Family(
    wv.observations_of(""),
    "/workspaces/{workspace_id}/views/{view_id}/observations",
    "observer_id",
    "observation",
    "observations",
    wire.WorkspaceViewObservation,
    routes=frozenset({"list", "revisions", "get", "delete", "restore"}),  # its PUT creates or replaces: below
    tag="workspace-views",
    params={
        "view_id": Path(pattern=wv.PATH_ID, description="The view's `view_id`."),
        "observer_id": Path(pattern=wv.PATH_ID, description="The observer's `observer_id`."),
        "include_deleted": Query(
            description="Also a deleted one (its tombstone's ETag is what a restore sends)."
        ),
    },
    store=lambda svc, view_id: Observations(svc.views, view_id),
    items=lambda svc, workspace, rows, view_id: [
        wire.WorkspaceViewObservation.from_row(r, view_id) for r in rows
    ],
    named=False,
    name=wv.OBSERVATION_KIND,
    list_deleted=False,
    words={
        "one": "The observation.",
        "many": "The view's live observations, most recently changed first.",
        "revision": "The observation as this revision left it.",
    },
    texts={
        "list": "A live view's live observations, most recently changed first.",
        "revisions": "Every accepted publish, delete and restore of one observer's observation, newest first.",
        "get": "One observer's observation of a live view; the `ETag` header is its current revision's.",
        "delete": "Leave a tombstone of an observation (`restore` revives it).",
        "restore": "Revive a deleted observation: `If-Match` is the tombstone's ETag; a live one is a 409.",
    },
)

serve(router, VIEWS)
serve(router, OBSERVATIONS, {"list", "revisions", "get"})


@router.put(
    "/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}",
    response_model=OBSERVATIONS.envelope,
    tags=["workspace-views"],
    responses={201: {"description": "Created (a first publish with `If-None-Match: *`)."}, **CONDITIONAL},
)
def put_workspace_view_observation(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    observer_id: ObserverIdPath,
    body: wv.ObservationReplace,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_none_match: Annotated[str | None, Header(description="`*` to create it (201).")] = None,
    if_match: Annotated[str | None, Header(description="The ETag of the revision this replaces.")] = None,
) -> Wire:
    """Publish an observer's state for a live view: `If-None-Match: *` creates it (201), `If-Match: <etag>`
    replaces it (200; within one `generation` the `sequence` must advance, else 400); exactly one of the two."""
    workspace = path_workspace(caller, workspace_id)
    create = bool((if_none_match or "").strip())
    if create == bool((if_match or "").strip()):
        raise PreconditionRequired(
            "exactly one of If-None-Match or If-Match is required", code="if_match_or_if_none_match_required"
        )
    header, value = ("If-None-Match", if_none_match) if create else ("If-Match", if_match)
    pre = precondition(caller, idempotency_key, header, value)
    written = svc.views.put_observation(
        workspace, view_id, observer_id, body, pre, create=create, tenant_id=caller.tenant_id
    )
    if create and not written.replayed:
        response.status_code = 201
    return OBSERVATIONS.written(svc, workspace, written, response, {"view_id": view_id})


# After the PUT, as the API has always listed an observation's routes.
serve(router, OBSERVATIONS, {"delete", "restore"})
