"""The ASGI app: served by uvicorn locally and by Mangum in Lambda, the same code either way.

    >>> app = create_app(Settings(database_url="postgresql://…"))   # doctest: +SKIP

Services (pool, embedder) are built on first use, not at import, so a Lambda cold start pays only for what
the first request needs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Depends, FastAPI
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette._utils import get_route_path
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shared.api import docs, errors, openapi
from shared.api.deps import principal, row_wall
from shared.api.edge import (
    CrossSiteCheck,
    HostCheck,
    LastResort,
    RequestMetrics,
    SecurityHeaders,
    StrictJson,
)
from shared.api.metering import UsageMetering
from shared.api.routes import health
from shared.core.errors import PayloadTooLarge
from shared.core.settings import Settings, get_settings
from shared.domain.auth import AuthGuard, RateLimiter
from shared.domain.requests import IGNORED_FIELDS
from shared.providers.metrics import install_for

if TYPE_CHECKING:
    from shared.app.services import Services
    from shared.providers.embeddings import Embedder


DESCRIPTION = """Long-term memory for LLM apps, wire-compatible with the MemoryLayer reference server's `/v1` API.

Authenticate with `Authorization: Bearer <key>` (the Authorize button). Errors are `{"detail": …}`: a domain error
carries `{code, message}`, a validation error FastAPI's list. Unknown body fields are not stored: a near-miss of a
real field is a 422 `unknown_field`; others are named in the `X-MemoryLayer-Ignored-Fields` response header."""


def all_routers() -> tuple[APIRouter, ...]:
    """Every router, for the local server; each Lambda imports only its own routers (faster cold starts)."""
    from shared.api.routes import (
        admin,
        audit,
        context_env,
        contradictions,
        data_providers,
        documents,
        entities,
        graph,
        ingest,
        kb_viewer,
        knowledgebase,
        mcp_servers,
        memories,
        packs,
        representation,
        resources,
        sessions,
        skills,
        threads,
        tokens,
        users,
        views,
        workspaces,
    )

    return (
        health.router,
        memories.router,
        workspaces.router,
        views.router,
        users.router,
        threads.router,
        sessions.router,
        packs.router,
        context_env.router,
        admin.router,
        tokens.router,
        entities.router,
        ingest.router,
        resources.router,
        skills.router,
        mcp_servers.router,
        data_providers.router,
        representation.router,
        documents.router,
        contradictions.router,
        graph.router,
        audit.router,
        knowledgebase.router,
        kb_viewer.router,
    )


def _build(settings: Settings, embedder: Embedder | None) -> Services:
    from shared.app.services import Services  # the pool, embedder and SDKs load on the first request

    return Services.build(settings, embedder=embedder)


class LazyServices:
    """Builds ``Services`` once, on the first request that needs them (thread-safe)."""

    def __init__(self, factory: Callable[[], Services]) -> None:
        self._factory = factory
        self._value: Services | None = None
        self._lock = threading.Lock()

    def get(self) -> Services:
        if self._value is None:
            with self._lock:
                if self._value is None:
                    self._value = self._factory()
        return self._value

    def close(self) -> None:
        if self._value is not None:
            self._value.close()

    def __getattr__(self, name: str):  # delegate: `state.services.memories` just works
        return getattr(self.get(), name)


class BodySizeLimit:
    """413 for a body over ``max_bytes``: at once when Content-Length says so, else as soon as the streamed
    (chunked) body passes the limit, so a 9 MB chunked body is never read whole.

    The streamed case stops ``receive`` with an error; whatever the app then answers (FastAPI turns a failed body
    read into a 400) is dropped and the 413 sent instead. A document upload over the cap gets the upload route's
    own ``document_too_large`` and its pointer to the presigned route: the file is what is too large.
    """

    UPLOAD = ("POST", "/v1/documents")

    def __init__(self, app: ASGIApp, max_bytes: int, document_max_bytes: int | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.document_max_bytes = min(max_bytes, document_max_bytes or max_bytes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        upload = (scope["method"], scope["path"].rstrip("/")) == self.UPLOAD
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._too_large(upload)(scope, receive, send)
            return
        seen = 0
        exceeded = False
        started = False

        async def limited() -> Message:
            nonlocal seen, exceeded
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    exceeded = True
                    raise self._error(upload)
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if exceeded and not started:
                return  # the app's answer to a body it could not read: replaced by the 413 below
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, guarded_send)
        except Exception:
            if not exceeded:
                raise
        if exceeded and not started:
            await self._too_large(upload)(scope, receive, send)

    def _error(self, upload: bool) -> PayloadTooLarge:
        if upload:
            return PayloadTooLarge(
                f"the body is over {self.max_bytes} bytes; uploads through the API take files of at most "
                f"{self.document_max_bytes} (use POST /v1/documents/uploads for larger files)",
                code="document_too_large",
                max_bytes=self.document_max_bytes,
            )
        return PayloadTooLarge(f"body over {self.max_bytes} bytes", code="request_too_large")

    def _too_large(self, upload: bool) -> JSONResponse:
        return JSONResponse({"detail": self._error(upload).to_detail()}, status_code=413)


class WireChecks:
    """Two checks at the edge, as one plain ASGI layer (no per-request task or body copy):

    - a wrong method on a fixed path is a 405 with ``Allow``, not a match of a parameterised route beside it
      (else ``GET /v1/memories/recall`` would be ``GET /v1/memories/{memory_id}``: 404 "memory recall not found");
    - unknown request-body fields the models ignored are named in ``X-MemoryLayer-Ignored-Fields``.

    ``fixed`` maps each path without parameters to its methods; ``create_app`` fills it once routers are in.
    """

    def __init__(self, app: ASGIApp, fixed: dict[str, set[str]]) -> None:
        self.app = app
        self.fixed = fixed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        methods = self.fixed.get(scope["path"])
        if methods is not None and scope["method"] not in methods:
            allow = ", ".join(sorted(methods))
            message = f"{scope['method']} is not allowed on {scope['path']}; allowed: {allow}"
            response = JSONResponse(
                {"detail": {"code": "method_not_allowed", "message": message}},
                status_code=405,
                headers={"Allow": allow},
            )
            await response(scope, receive, send)
            return
        ignored: list[str] = []
        token = IGNORED_FIELDS.set(ignored)

        async def reporting_send(message: Message) -> None:
            if message["type"] == "http.response.start" and ignored:
                headers = list(message.get("headers") or [])
                headers.append((b"x-memorylayer-ignored-fields", ",".join(ignored).encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, reporting_send)
        finally:
            IGNORED_FIELDS.reset(token)


class Gate(APIRouter):
    """Includes one router, and lets a request be matched against it only if its path could be one of the router's.

    FastAPI analyses an included router's routes (dependencies, body and response models: a few ms each) the
    first time a request is matched against that router, whether it matches or not, and it tries routers in
    order: without the gate the first ``POST /v1/threads/{id}/messages`` after a cold start analysed memories,
    workspaces and threads, 40-odd routes, to use one. Behind gates a request analyses only its own router.

        >>> app.include_router(Gate(threads.router), dependencies=[Depends(principal)])  # doctest: +SKIP
    """

    def __init__(self, router: APIRouter) -> None:
        super().__init__()
        # The router's own routes (they carry its prefix, tags and dependencies), not the router included: an
        # included router nested in another is analysed whole when the outer one is included, at cold start.
        self.routes.extend(router.routes)
        paths = [route.path for route in router.routes if isinstance(route, APIRoute)]
        self.exact = frozenset(path for path in paths if "{" not in path)
        # A parameterised path can only match below its fixed head (``/v1/threads/{thread_id}`` → ``/v1/threads/``).
        self.heads = tuple(sorted({path.split("{", 1)[0] for path in paths if "{" in path}))

    def reaches(self, path: str) -> bool:
        """Whether one of the router's routes could match ``path`` (with or without a trailing slash)."""
        bare = path.rstrip("/") or "/"
        return path in self.exact or bare in self.exact or path.startswith(self.heads)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and not self.reaches(get_route_path(scope)):
            return Match.NONE, {}
        return super().matches(scope)


def fixed_paths(routers: Iterable[APIRouter]) -> dict[str, set[str]]:
    """Every route path without a parameter, with the methods it serves (routers carry their full paths)."""
    fixed: dict[str, set[str]] = {}
    for router in routers:
        for route in router.routes:
            if isinstance(route, APIRoute) and "{" not in route.path:
                fixed.setdefault(route.path, set()).update(route.methods or ())
    return fixed


def create_app(
    settings: Settings | None = None,
    *,
    services: Services | None = None,
    routers: Iterable[APIRouter] | None = None,
    console: bool = True,
    documents: bool = True,
) -> FastAPI:
    """The app with ``routers`` (default: every router), the memory console and /openapi.json (+ /docs where the
    assets are installed). A Lambda passes only the routers its API Gateway routes reach (shared/api/route_map.py)."""
    settings = settings or get_settings()
    if not settings.has_cursor_secret:
        # Settings lets a default api_key through (the worker signs no cursors); the API cannot run without one.
        raise ValueError(
            "auth_mode=api_key needs MEMORYLAYER_CONTEXT_CURSOR_SECRET or MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN: "
            "without one anybody could forge context cursors"
        )
    app = FastAPI(
        title="MemoryLayer",
        version=health.VERSION,
        description=DESCRIPTION,
        docs_url=None,  # served by shared/api/docs.py from local assets, not from a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    # An embedder loaded before a SnapStart snapshot (shared/api/snapstart.py) is the one the services use.
    app.state.embedder = None
    app.state.services = LazyServices(lambda: services or _build(settings, app.state.embedder))
    app.state.rate_limiter = RateLimiter(
        lambda: app.state.services.db, settings.rate_limit_per_s, settings.rate_limit_burst
    )
    app.state.auth_guard = AuthGuard(
        lambda: app.state.services.db, settings.auth_failures_per_minute, settings.negative_key_cache_s
    )
    errors.install(app)

    app.add_middleware(LastResort, handler=errors.unexpected)  # innermost: first to see an unhandled error
    # Outside the errors' handlers, so it sees the status every request ends with (usage is billed by outcome).
    app.add_middleware(UsageMetering, meter=lambda: getattr(app.state.services, "usage", None))
    app.add_middleware(StrictJson)
    app.add_middleware(
        BodySizeLimit, max_bytes=settings.max_request_bytes, document_max_bytes=settings.document_max_bytes
    )
    fixed: dict[str, set[str]] = {}
    app.add_middleware(WireChecks, fixed=fixed)
    # Before the body is read and whatever the auth mode: a web page's write is refused unless the page is ours.
    origins = frozenset(o for o in (settings.allowed_origins or "").split(",") if o.strip())
    app.add_middleware(CrossSiteCheck, allowed=origins)
    scripts: set[str] = set()  # the hashes of the inline scripts of our own pages; docs.install adds them
    app.add_middleware(SecurityHeaders, scripts=scripts)
    if settings.allowed_hosts:
        app.add_middleware(HostCheck, allowed=frozenset(settings.allowed_hosts.split(",")))
    app.add_middleware(RequestMetrics)  # outermost: every answer is counted, a refusal at the edge too
    app.state.metrics_sink = install_for(settings)

    included = tuple(routers) if routers is not None else all_routers()
    for router in included:
        # Every route but the health checks authenticates, even one that forgets to ask for the caller, and
        # runs behind the caller's row-level wall (router dependencies come before the route's own).
        open_route = router is health.router
        dependencies = [] if open_route else [Depends(principal), Depends(row_wall)]
        app.include_router(Gate(router), dependencies=dependencies)
    if app.state.metrics_sink is not None:
        from shared.api.routes import metrics as metrics_routes  # operators only: no API key, no wall

        app.include_router(metrics_routes.router)
    if console:
        from shared.api.routes import console as console_routes  # its page open, its API behind auth

        console_routes.install(app)
    fixed.update(fixed_paths(included))
    if documents:
        if routers is None:
            openapi.install(app, frozenset(route.path for route in health.router.routes))  # type: ignore[attr-defined]
        else:
            _document_whole_api(app, settings)
        docs.install(app, scripts)
    return app


def _document_whole_api(app: FastAPI, settings: Settings) -> None:
    """/openapi.json of a Lambda that builds only some routers still describes every route: built from the whole
    app, once, on the first request for it (never at cold start)."""

    def whole() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = create_app(settings).openapi()
        return app.openapi_schema

    app.openapi = whole  # type: ignore[method-assign]


def build_routes(app: FastAPI) -> int:
    """Analyse every included route now (dependencies, body and response models); returns how many.

    FastAPI does this lazily, a router at a time, when a request is first matched against the router (a few ms
    a route); SnapStart calls this before the snapshot so no restored first request pays it.

        >>> build_routes(create_app(Settings(auth_mode="none")))  # doctest: +SKIP
        62
    """
    count = 0
    for route in app.router.routes:
        contexts = getattr(route, "effective_route_contexts", None)  # an included router (FastAPI ≥ 0.1xx)
        if contexts is not None:
            count += sum(1 for _ in contexts())
    return count
