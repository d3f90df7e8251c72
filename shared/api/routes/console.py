"""/console: the memory console, a small page that shows what the system remembers (static files, no CDN).

    create_app(...)            # install(app) adds /console, /console/app.js, /console/app.css and /console/api/*

The page itself is open (it holds no data, and a browser cannot send a key on navigation); every datum it
shows comes from the ``/v1`` API, called with the key typed into the page, so the console sees exactly what
that key may see. The routes the API lacks live here, behind the same authentication and row-level wall as
``/v1``: ``/console/api/whoami`` (may this key write? which workspaces?), ``/console/api/jobs`` (a
workspace's recent extraction jobs) and ``/console/api/memories/{id}/relations`` (the typed entity relations a
memory is evidence of).
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from fastapi.responses import RedirectResponse, Response

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep, principal, row_wall
from shared.core.errors import NotFound

__all__ = ["install", "pages", "router"]

_ASSETS = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
}
# Only our own files run: no inline script, no third-party origin, no framing (clickjacking of a page that
# can forget memories).
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}

pages = APIRouter(prefix="/console", include_in_schema=False)
router = APIRouter(prefix="/console/api", tags=["console"])


def _asset(name: str) -> Response:
    body = resources.files("shared.api.console").joinpath(name).read_bytes()
    return Response(body, media_type=_ASSETS[name], headers=_HEADERS)


@pages.get("")
def console_root(request: Request) -> RedirectResponse:
    # Relative asset URLs need the trailing slash (and keep working under an API Gateway stage prefix).
    query = request.url.query
    return RedirectResponse(f"console/?{query}" if query else "console/", status_code=307)


@pages.get("/")
def console_index() -> Response:
    return _asset("index.html")


@pages.get("/app.js")
def console_js() -> Response:
    return _asset("app.js")


@pages.get("/app.css")
def console_css() -> Response:
    return _asset("app.css")


@router.get("/whoami", response_model=schemas.ConsoleWhoami)
def whoami(caller: CallerDep, svc: ServicesDep) -> schemas.ConsoleWhoami:
    """What the calling key may do, for the console page: whether it may write (the page hides its write
    buttons unless `can_write`), whether it is the admin key, and which workspaces it reaches."""
    who = caller.principal
    return schemas.ConsoleWhoami.model_construct(
        key_id=who.key_id,
        can_write=who.access == "read_write",
        admin=who.admin,
        workspaces=list(who.workspaces) if who.workspaces is not None else None,
        auth_mode=svc.settings.auth_mode,
    )


@router.get("/jobs", response_model=schemas.ConsoleJobs)
def jobs(
    caller: CallerDep,
    svc: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=200, description="How many jobs at most (1–200, default 50).")] = 50,
) -> schemas.ConsoleJobs:
    """The workspace's newest extraction jobs, newest first, for the console's jobs tab (`GET /v1/jobs/{id}`
    reads one)."""
    workspace = caller.workspace()
    rows = svc.threads.recent_jobs(workspace, limit)
    return schemas.ConsoleJobs.model_construct(
        jobs=[schemas.Job.from_row(r) for r in rows], workspace_id=workspace
    )


@router.get(
    "/memories/{memory_id}/relations",
    response_model=schemas.ConsoleMemoryRelations,
    responses={404: {"description": "No such memory in the workspace (`memory_not_found`)."}},
)
def memory_relations(
    memory_id: Annotated[str, Path(min_length=1, max_length=128, description="The memory's id.")],
    caller: CallerDep,
    svc: ServicesDep,
) -> schemas.ConsoleMemoryRelations:
    """The typed entity relations this memory is evidence of (`Bob Lee —reviewed→ PR-12`), with both
    entities' names and kinds and how the memory evidences each, for the console's memory panel. Deleted
    memories are included: their evidence shows as inactive."""
    workspace = caller.workspace()
    rows = svc.entity_views.of_memory(workspace, memory_id)
    if rows is None:
        raise NotFound(f"memory {memory_id} not found", code="memory_not_found")

    def end(row: dict, side: str) -> schemas.ConsoleRelationEnd:
        return schemas.ConsoleRelationEnd.model_construct(
            id=row[f"{side}_id"], name=row[f"{side}_name"], type=row[f"{side}_type"]
        )

    return schemas.ConsoleMemoryRelations.model_construct(
        memory_id=memory_id,
        workspace_id=workspace,
        relations=[
            schemas.ConsoleRelation.model_construct(
                id=r["relation_id"],
                source=end(r, "source"),
                relationship=r["relationship"],
                target=end(r, "target"),
                confidence=round(float(r["confidence"]), 6),
                active=r["active"],
                evidence_kinds=list(r["evidence_kinds"] or []),
                evidence_active=r["evidence_active"],
            )
            for r in rows
        ],
    )


def install(app: FastAPI) -> None:
    """Serve the console from ``app``: the pages open, the console API behind auth and the row-level wall."""
    app.include_router(pages)
    app.include_router(router, dependencies=[Depends(principal), Depends(row_wall)])
