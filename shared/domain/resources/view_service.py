"""Workspace views and their observations on the resource mechanism, addressed as the reference addresses them:
a view by its ``view_id`` (its key), an observation by its view and its ``observer_id``. Every write is the
mechanism's conditional write on the resource the key names; an observation is reached only through a live
view (its revisions also through a deleted one), so a deleted view hides its observations until restored.

    >>> views = ViewService(resources)                                                  # doctest: +SKIP
    >>> views.create("ws_a", ViewCreate(view_id="main", kind="directory"), pre, tenant_id="_default")
    ...                                                                                 # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from shared.domain.resources import workspace_views as wv
from shared.domain.resources.service import Kind, Page, Precondition, ResourceService, Written


class ViewService:
    def __init__(self, resources: ResourceService) -> None:
        self.resources = resources

    # ---------------------------------------------------------------------------------------------------- views
    def create(self, workspace_id: str, body: wv.ViewCreate, pre: Precondition, *, tenant_id: str) -> Written:
        return self.resources.create(
            wv.VIEWS, workspace_id, body.view_id, body.document(body.view_id), pre, tenant_id=tenant_id
        )

    def get(self, workspace_id: str, view_id: str, *, include_deleted: bool = False) -> dict[str, Any]:
        return self.resources.get_by_key(wv.VIEWS, workspace_id, view_id, include_deleted=include_deleted)

    def page(self, workspace_id: str, *, limit: int, page_token: str | None, include_deleted: bool) -> Page:
        return self.resources.page(
            wv.VIEWS, workspace_id, limit=limit, page_token=page_token, include_deleted=include_deleted
        )

    def replace(self, workspace_id: str, view_id: str, body: wv.ViewReplace, pre: Precondition) -> Written:
        head = self.get(workspace_id, view_id)
        return self.resources.replace(wv.VIEWS, workspace_id, head["id"], body.document(view_id), pre)

    def delete(self, workspace_id: str, view_id: str, pre: Precondition) -> Written:
        head = self.get(workspace_id, view_id)
        return self.resources.delete(wv.VIEWS, workspace_id, head["id"], pre)

    def restore(self, workspace_id: str, view_id: str, pre: Precondition) -> Written:
        head = self.get(workspace_id, view_id, include_deleted=True)
        return self.resources.restore(wv.VIEWS, workspace_id, head["id"], pre)

    def revisions(self, workspace_id: str, view_id: str, *, limit: int, page_token: str | None) -> Page:
        head = self.get(workspace_id, view_id, include_deleted=True)
        return self.resources.revisions(
            wv.VIEWS, workspace_id, head["id"], limit=limit, page_token=page_token
        )

    # --------------------------------------------------------------------------------------------- observations
    def _observations(self, workspace_id: str, view_id: str, *, include_deleted: bool = False) -> Kind:
        """The kind of a view's observations; 404 unless the view is live (or deleted, when asked)."""
        return wv.observations_of(self.get(workspace_id, view_id, include_deleted=include_deleted)["id"])

    def put_observation(
        self,
        workspace_id: str,
        view_id: str,
        observer_id: str,
        body: wv.ObservationReplace,
        pre: Precondition,
        *,
        create: bool,
        tenant_id: str,
    ) -> Written:
        """Publish: a create (``If-None-Match: *``), or a replace whose sequence must advance."""
        kind = self._observations(workspace_id, view_id)
        doc = body.document(view_id, observer_id)
        if create:
            return self.resources.create(kind, workspace_id, observer_id, doc, pre, tenant_id=tenant_id)
        head = self.resources.get_by_key(kind, workspace_id, observer_id)
        return self.resources.replace(
            kind, workspace_id, head["id"], doc, pre, check=lambda current: wv.check_cursor(current, body)
        )

    def get_observation(
        self, workspace_id: str, view_id: str, observer_id: str, *, include_deleted: bool = False
    ) -> dict[str, Any]:
        kind = self._observations(workspace_id, view_id)
        return self.resources.get_by_key(kind, workspace_id, observer_id, include_deleted=include_deleted)

    def observations(self, workspace_id: str, view_id: str, *, limit: int, page_token: str | None) -> Page:
        kind = self._observations(workspace_id, view_id)
        return self.resources.page(kind, workspace_id, limit=limit, page_token=page_token)

    def delete_observation(
        self, workspace_id: str, view_id: str, observer_id: str, pre: Precondition
    ) -> Written:
        kind = self._observations(workspace_id, view_id)
        head = self.resources.get_by_key(kind, workspace_id, observer_id)
        return self.resources.delete(kind, workspace_id, head["id"], pre)

    def restore_observation(
        self, workspace_id: str, view_id: str, observer_id: str, pre: Precondition
    ) -> Written:
        kind = self._observations(workspace_id, view_id)
        head = self.resources.get_by_key(kind, workspace_id, observer_id, include_deleted=True)
        return self.resources.restore(kind, workspace_id, head["id"], pre)

    def observation_revisions(
        self, workspace_id: str, view_id: str, observer_id: str, *, limit: int, page_token: str | None
    ) -> Page:
        kind = self._observations(workspace_id, view_id, include_deleted=True)
        head = self.resources.get_by_key(kind, workspace_id, observer_id, include_deleted=True)
        return self.resources.revisions(kind, workspace_id, head["id"], limit=limit, page_token=page_token)
