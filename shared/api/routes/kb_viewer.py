"""/kb: the knowledgebase viewer, server-rendered HTML pages of the stored articles (the reference's viewer).

Unlike the reference's, these pages sit behind the same key check and row-level wall as ``/v1`` (a page
shows what its key may see, nothing else), and every stored text is escaped (shared/api/kb_html.py); the
CSP and no-framing headers come from shared/api/edge.py, as for every HTML page.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import HTMLResponse

from shared.api import kb_html
from shared.api.deps import CallerDep, ServicesDep, valid_workspace
from shared.domain.knowledgebase.articles import vault_path

router = APIRouter(tags=["knowledgebase-viewer"])
# The pages carry a workspace's data: never kept by a browser or a proxy.
_PRIVATE = {"Cache-Control": "no-store"}


@router.get("/kb", response_class=HTMLResponse)
def kb_workspaces(caller: CallerDep, svc: ServicesDep) -> HTMLResponse:
    """A page listing the workspaces this key may see, each linking to its knowledgebase."""
    named = caller.principal.workspaces
    rows: list[dict[str, Any]] = svc.workspaces.list([], True, list(named) if named is not None else None)
    counts = svc.knowledgebase.article_counts([r["id"] for r in rows])
    return HTMLResponse(kb_html.workspaces_page(rows, counts), headers=_PRIVATE)


@router.get("/kb/{workspace_id}", response_class=HTMLResponse)
def kb_viewer(
    workspace_id: Annotated[str, Path(description="The workspace whose knowledgebase to show.")],
    caller: CallerDep,
    svc: ServicesDep,
    article: Annotated[
        str | None, Query(max_length=300, description="The article to show (default: the index).")
    ] = None,
) -> HTMLResponse:
    """A workspace's knowledgebase as a page: its articles in the side bar, one rendered (`?article=`, else
    the index), wikilinks made links between them."""
    workspace = caller.principal.require_workspace(valid_workspace(workspace_id))
    titles, shown = svc.knowledgebase.viewer(workspace, article)
    links = {vault_path(t["article_type"], t["id"]): t["id"] for t in titles}
    return HTMLResponse(kb_html.article_page(workspace, titles, shown, links), headers=_PRIVATE)
