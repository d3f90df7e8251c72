"""/v1/workspaces/{workspace_id}/views: workspace views and their observers' published state, versioned documents
as the reference serves them. Every write is conditional: ``Idempotency-Key`` always, ``If-None-Match: *`` to
create, ``If-Match: <etag>`` to replace, delete or restore (an observation's PUT takes exactly one of the two: it
creates or replaces); a missing header is a 428, a stale ETag a 412."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Path, Query, Response

from shared.api.deps import Caller, CallerDep, ServicesDep, valid_workspace
from shared.api.routes.params import WorkspaceIdPath
from shared.api.routes.resources import (
    CONDITIONAL,
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    IncludeDeleted,
    Limit,
    PageToken,
    actor,
    required,
)
from shared.api.schemas import views as wire
from shared.core.errors import PreconditionRequired
from shared.domain.resources import workspace_views as wv
from shared.domain.resources.service import Page, Precondition, Written

router = APIRouter(prefix="/v1/workspaces/{workspace_id}/views", tags=["workspace-views"])

ViewIdPath = Annotated[str, Path(pattern=wv.PATH_ID, description="The view's `view_id`.")]
ObserverIdPath = Annotated[str, Path(pattern=wv.PATH_ID, description="The observer's `observer_id`.")]


def _workspace(caller: Caller, workspace_id: str) -> str:
    """The workspace in the path: valid, and one the caller's key may use (403 otherwise)."""
    return caller.principal.require_workspace(valid_workspace(workspace_id))


def _matching(caller: Caller, idempotency_key: str | None, if_match: str | None) -> Precondition:
    return Precondition(
        required(idempotency_key, "Idempotency-Key"), required(if_match, "If-Match"), actor(caller)
    )


def _view(written: Written, response: Response) -> wire.WorkspaceViewResponse:
    response.headers["ETag"] = written.row["etag"]
    return wire.WorkspaceViewResponse(
        view=wire.WorkspaceView.from_row(written.row), replayed=written.replayed
    )


def _observation(written: Written, view_id: str, response: Response) -> wire.WorkspaceViewObservationResponse:
    response.headers["ETag"] = written.row["etag"]
    observation = wire.WorkspaceViewObservation.from_row(written.row, view_id)
    return wire.WorkspaceViewObservationResponse(observation=observation, replayed=written.replayed)


def _view_revisions(page: Page) -> wire.WorkspaceViewRevisionListResponse:
    items = [
        wire.WorkspaceViewRevision(
            view=wire.WorkspaceView.from_row(row), action=row["action"], operation_id=row["operation_id"]
        )
        for row in page.rows
    ]
    return wire.WorkspaceViewRevisionListResponse(revisions=items, next_page_token=page.next_page_token)


# ---------------------------------------------------------------------------------------------------------- views
@router.post("", status_code=201, response_model=wire.WorkspaceViewResponse, responses=CONDITIONAL)
def create_workspace_view(
    workspace_id: WorkspaceIdPath,
    body: wv.ViewCreate,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_none_match: IfNoneMatch = None,
) -> wire.WorkspaceViewResponse:
    """Create a view: send `Idempotency-Key` and `If-None-Match: *`; a taken `view_id` is a 409 (a deleted
    view keeps its id: restore it)."""
    workspace = _workspace(caller, workspace_id)
    pre = Precondition(
        required(idempotency_key, "Idempotency-Key"), required(if_none_match, "If-None-Match"), actor(caller)
    )
    return _view(svc.views.create(workspace, body, pre, tenant_id=caller.tenant_id), response)


@router.get("", response_model=wire.WorkspaceViewListResponse)
def list_workspace_views(
    workspace_id: WorkspaceIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Limit = 100,
    page_token: PageToken = None,
    include_deleted: IncludeDeleted = False,
) -> wire.WorkspaceViewListResponse:
    """The workspace's views, most recently changed first; `next_page_token` continues."""
    page = svc.views.page(
        _workspace(caller, workspace_id), limit=limit, page_token=page_token, include_deleted=include_deleted
    )
    views = [wire.WorkspaceView.from_row(row) for row in page.rows]
    return wire.WorkspaceViewListResponse(views=views, next_page_token=page.next_page_token)


@router.get("/{view_id}/revisions", response_model=wire.WorkspaceViewRevisionListResponse)
def list_workspace_view_revisions(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Limit = 100,
    page_token: PageToken = None,
) -> wire.WorkspaceViewRevisionListResponse:
    """Every accepted write of a view (deleted ones too), newest first, with the view as it left it."""
    page = svc.views.revisions(_workspace(caller, workspace_id), view_id, limit=limit, page_token=page_token)
    return _view_revisions(page)


@router.get("/{view_id}", response_model=wire.WorkspaceViewResponse)
def get_workspace_view(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    include_deleted: IncludeDeleted = False,
) -> wire.WorkspaceViewResponse:
    """One view by its `view_id`; the `ETag` header is its current revision's."""
    row = svc.views.get(_workspace(caller, workspace_id), view_id, include_deleted=include_deleted)
    return _view(Written(row), response)


@router.put("/{view_id}", response_model=wire.WorkspaceViewResponse, responses=CONDITIONAL)
def replace_workspace_view(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    body: wv.ViewReplace,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> wire.WorkspaceViewResponse:
    """Replace a live view's description: send `Idempotency-Key` and `If-Match` (a stale ETag is a 412)."""
    workspace = _workspace(caller, workspace_id)
    pre = _matching(caller, idempotency_key, if_match)
    return _view(svc.views.replace(workspace, view_id, body, pre), response)


@router.delete("/{view_id}", response_model=wire.WorkspaceViewResponse, responses=CONDITIONAL)
def delete_workspace_view(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> wire.WorkspaceViewResponse:
    """Leave a tombstone (its `view_id` stays taken; its observations are hidden until a restore)."""
    workspace = _workspace(caller, workspace_id)
    pre = _matching(caller, idempotency_key, if_match)
    return _view(svc.views.delete(workspace, view_id, pre), response)


@router.post("/{view_id}/restore", response_model=wire.WorkspaceViewResponse, responses=CONDITIONAL)
def restore_workspace_view(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> wire.WorkspaceViewResponse:
    """Revive a deleted view (and so its observations): `If-Match` is the tombstone's ETag; a live one is 409."""
    workspace = _workspace(caller, workspace_id)
    pre = _matching(caller, idempotency_key, if_match)
    return _view(svc.views.restore(workspace, view_id, pre), response)


# --------------------------------------------------------------------------------------------------- observations
@router.get("/{view_id}/observations", response_model=wire.WorkspaceViewObservationListResponse)
def list_workspace_view_observations(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Limit = 100,
    page_token: PageToken = None,
) -> wire.WorkspaceViewObservationListResponse:
    """A live view's live observations, most recently changed first."""
    page = svc.views.observations(
        _workspace(caller, workspace_id), view_id, limit=limit, page_token=page_token
    )
    observations = [wire.WorkspaceViewObservation.from_row(row, view_id) for row in page.rows]
    return wire.WorkspaceViewObservationListResponse(
        observations=observations, next_page_token=page.next_page_token
    )


@router.get(
    "/{view_id}/observations/{observer_id}/revisions",
    response_model=wire.WorkspaceViewObservationRevisionListResponse,
)
def list_workspace_view_observation_revisions(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    observer_id: ObserverIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Limit = 100,
    page_token: PageToken = None,
) -> wire.WorkspaceViewObservationRevisionListResponse:
    """Every accepted publish, delete and restore of one observer's observation, newest first."""
    page = svc.views.observation_revisions(
        _workspace(caller, workspace_id), view_id, observer_id, limit=limit, page_token=page_token
    )
    items = [
        wire.WorkspaceViewObservationRevision(
            observation=wire.WorkspaceViewObservation.from_row(row, view_id),
            action=row["action"],
            operation_id=row["operation_id"],
        )
        for row in page.rows
    ]
    return wire.WorkspaceViewObservationRevisionListResponse(
        revisions=items, next_page_token=page.next_page_token
    )


@router.get("/{view_id}/observations/{observer_id}", response_model=wire.WorkspaceViewObservationResponse)
def get_workspace_view_observation(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    observer_id: ObserverIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    include_deleted: Annotated[
        bool, Query(description="Also a deleted one (its tombstone's ETag is what a restore sends).")
    ] = False,
) -> wire.WorkspaceViewObservationResponse:
    """One observer's observation of a live view; the `ETag` header is its current revision's."""
    row = svc.views.get_observation(
        _workspace(caller, workspace_id), view_id, observer_id, include_deleted=include_deleted
    )
    return _observation(Written(row), view_id, response)


@router.put(
    "/{view_id}/observations/{observer_id}",
    response_model=wire.WorkspaceViewObservationResponse,
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
) -> wire.WorkspaceViewObservationResponse:
    """Publish an observer's state for a live view: `If-None-Match: *` creates it (201), `If-Match: <etag>`
    replaces it (200; within one `generation` the `sequence` must advance, else 400); exactly one of the two."""
    workspace = _workspace(caller, workspace_id)
    create = bool((if_none_match or "").strip())
    if create == bool((if_match or "").strip()):
        raise PreconditionRequired(
            "exactly one of If-None-Match or If-Match is required", code="if_match_or_if_none_match_required"
        )
    pre = Precondition(
        required(idempotency_key, "Idempotency-Key"),
        required(if_none_match, "If-None-Match") if create else required(if_match, "If-Match"),
        actor(caller),
    )
    written = svc.views.put_observation(
        workspace, view_id, observer_id, body, pre, create=create, tenant_id=caller.tenant_id
    )
    if create and not written.replayed:
        response.status_code = 201
    return _observation(written, view_id, response)


@router.delete(
    "/{view_id}/observations/{observer_id}",
    response_model=wire.WorkspaceViewObservationResponse,
    responses=CONDITIONAL,
)
def delete_workspace_view_observation(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    observer_id: ObserverIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> wire.WorkspaceViewObservationResponse:
    """Leave a tombstone of an observation (`restore` revives it)."""
    workspace = _workspace(caller, workspace_id)
    pre = _matching(caller, idempotency_key, if_match)
    written = svc.views.delete_observation(workspace, view_id, observer_id, pre)
    return _observation(written, view_id, response)


@router.post(
    "/{view_id}/observations/{observer_id}/restore",
    response_model=wire.WorkspaceViewObservationResponse,
    responses=CONDITIONAL,
)
def restore_workspace_view_observation(
    workspace_id: WorkspaceIdPath,
    view_id: ViewIdPath,
    observer_id: ObserverIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> wire.WorkspaceViewObservationResponse:
    """Revive a deleted observation: `If-Match` is the tombstone's ETag; a live one is a 409."""
    workspace = _workspace(caller, workspace_id)
    pre = _matching(caller, idempotency_key, if_match)
    written = svc.views.restore_observation(workspace, view_id, observer_id, pre)
    return _observation(written, view_id, response)
