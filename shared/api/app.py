"""The ASGI app: served by uvicorn locally and by Mangum in Lambda, the same code either way.

    >>> app = create_app(Settings(database_url="postgresql://…"))   # doctest: +SKIP

Services (pool, embedder) are built on first use, not at import, so a Lambda cold start pays only for what
the first request needs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import JSONResponse

from shared.api import errors
from shared.api.deps import principal, row_wall
from shared.api.routes import health
from shared.auth import RateLimiter
from shared.settings import Settings, get_settings

if TYPE_CHECKING:
    from shared.api.services import Services
    from shared.embeddings import Embedder


def all_routers() -> tuple[APIRouter, ...]:
    """Every router, for the local server; each Lambda imports only its own routers (faster cold starts)."""
    from shared.api.routes import admin, context, memories, sessions, threads, workspaces

    return (
        health.router,
        memories.router,
        workspaces.router,
        threads.router,
        sessions.router,
        context.router,
        admin.router,
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


def create_app(
    settings: Settings | None = None,
    *,
    services: Services | None = None,
    routers: Iterable[APIRouter] | None = None,
) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(title="MemoryLayer", version=health.VERSION, description="Long-term memory for LLM apps")
    app.state.settings = settings
    # An embedder loaded before a SnapStart snapshot (shared/snapstart.py) is the one the services use.
    app.state.embedder = None
    app.state.services = LazyServices(lambda: services or _build(settings, app.state.embedder))
    app.state.rate_limiter = RateLimiter(settings.rate_limit_per_s, settings.rate_limit_burst)
    errors.install(app)

    @app.middleware("http")
    async def limit_body_size(request: Request, call_next):
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > settings.max_request_bytes:
            return JSONResponse(
                {
                    "detail": {
                        "code": "request_too_large",
                        "message": f"body over {settings.max_request_bytes} bytes",
                    }
                },
                status_code=413,
            )
        return await call_next(request)

    for router in routers if routers is not None else all_routers():
        # Every route but the health checks authenticates, even one that forgets to ask for the caller, and
        # runs behind the caller's row-level wall (router dependencies come before the route's own).
        open_route = router is health.router
        app.include_router(router, dependencies=[] if open_route else [Depends(principal), Depends(row_wall)])
    return app
