"""The ASGI app: served by uvicorn locally and by Mangum in Lambda, the same code either way.

    >>> app = create_app(Settings(database_url="postgresql://…"))   # doctest: +SKIP

Services (pool, embedder) are built on first use, not at import, so a Lambda cold start pays only for what
the first request needs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from fastapi import APIRouter, Depends, FastAPI
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shared.api import docs, errors, openapi
from shared.api.deps import principal, row_wall
from shared.api.routes import health
from shared.auth import AuthGuard, RateLimiter
from shared.errors import PayloadTooLarge
from shared.models import IGNORED_FIELDS
from shared.settings import Settings, get_settings

if TYPE_CHECKING:
    from shared.api.services import Services
    from shared.embeddings import Embedder


DESCRIPTION = """Long-term memory for LLM apps, wire-compatible with the MemoryLayer reference server's `/v1` API.

Authenticate with `Authorization: Bearer <key>` (the Authorize button). Errors are `{"detail": …}`: a domain error
carries `{code, message}`, a validation error FastAPI's list. Unknown body fields are not stored: a near-miss of a
real field is a 422 `unknown_field`; others are named in the `X-MemoryLayer-Ignored-Fields` response header."""


def all_routers() -> tuple[APIRouter, ...]:
    """Every router, for the local server; each Lambda imports only its own routers (faster cold starts)."""
    from shared.api.routes import (
        admin,
        context,
        entities,
        ingest,
        memories,
        sandbox,
        sessions,
        threads,
        workspaces,
    )

    return (
        health.router,
        memories.router,
        workspaces.router,
        threads.router,
        sessions.router,
        context.router,
        sandbox.router,
        admin.router,
        entities.router,
        ingest.router,
    )


def _build(settings: Settings, embedder: Embedder | None) -> Services:
    from shared.api.services import Services  # the pool, embedder and SDKs load on the first request

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
    read into a 400) is dropped and the 413 sent instead.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._too_large()(scope, receive, send)
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
                    raise self._error()
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
            await self._too_large()(scope, receive, send)

    def _error(self) -> PayloadTooLarge:
        return PayloadTooLarge(f"body over {self.max_bytes} bytes", code="request_too_large")

    def _too_large(self) -> JSONResponse:
        return JSONResponse({"detail": self._error().to_detail()}, status_code=413)


class WireChecks:
    """Two checks at the edge, as one plain ASGI layer (no per-request task or body copy):

    - a wrong method on a fixed path is a 405 with ``Allow``, not a match of a parameterised route beside it
      (``GET /v1/memories/recall`` used to be ``GET /v1/memories/{memory_id}``: 404 "memory recall not found");
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
) -> FastAPI:
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
    # An embedder loaded before a SnapStart snapshot (shared/snapstart.py) is the one the services use.
    app.state.embedder = None
    app.state.services = LazyServices(lambda: services or _build(settings, app.state.embedder))
    app.state.rate_limiter = RateLimiter(
        lambda: app.state.services.db, settings.rate_limit_per_s, settings.rate_limit_burst
    )
    app.state.auth_guard = AuthGuard(
        lambda: app.state.services.db, settings.auth_failures_per_minute, settings.negative_key_cache_s
    )
    errors.install(app)

    app.add_middleware(BodySizeLimit, max_bytes=settings.max_request_bytes)
    fixed: dict[str, set[str]] = {}
    app.add_middleware(WireChecks, fixed=fixed)

    included = tuple(routers) if routers is not None else all_routers()
    for router in included:
        # Every route but the health checks authenticates, even one that forgets to ask for the caller, and
        # runs behind the caller's row-level wall (router dependencies come before the route's own).
        open_route = router is health.router
        app.include_router(router, dependencies=[] if open_route else [Depends(principal), Depends(row_wall)])
    from shared.api.routes import console  # the memory console: its page open, its API behind auth

    console.install(app)
    fixed.update(fixed_paths(included))
    openapi.install(app, frozenset(route.path for route in health.router.routes))  # type: ignore[attr-defined]
    docs.install(app)
    return app
