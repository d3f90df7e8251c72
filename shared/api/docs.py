"""Swagger UI at /docs and ReDoc at /redoc, with their assets served by this server (no CDN).

    >>> asset_dir() is None or (asset_dir() / "swagger-ui-bundle.js").exists()
    True

The assets (Swagger UI and ReDoc bundles, ~2.8 MB) come from the ``fastapi-offline`` package, in the ``local``
extra: the local server and tests have them; Lambda zips do not carry them, so a deployed API serves
/openapi.json and no /docs (point any OpenAPI viewer at it).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse

from shared.api.edge import script_hashes

ASSETS = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")
PREFIX = "/docs/assets"


def asset_dir() -> Path | None:
    """The folder holding the bundles, or None when the package is not installed."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    return folder if all((folder / name).exists() for name in ASSETS) else None


def install(app: FastAPI, scripts: set[str] | None = None) -> bool:
    """Add /docs, /redoc and their assets when the bundles are installed; True if it did. The two pages are
    built here, once, and the hashes of their inline scripts added to ``scripts``: the policy that lets those
    scripts run (``shared.api.edge.SecurityHeaders``) then trusts exactly these, never script in a response."""
    folder = asset_dir()
    if folder is None:
        return False
    title = f"{app.title} API"
    swagger_page = get_swagger_ui_html(
        openapi_url=app.openapi_url or "/openapi.json",
        title=title,
        swagger_js_url=f"{PREFIX}/swagger-ui-bundle.js",
        swagger_css_url=f"{PREFIX}/swagger-ui.css",
        swagger_favicon_url=f"{PREFIX}/favicon.png",
        # The key stays in the page's memory: never in localStorage, where any script of the origin reads it.
        swagger_ui_parameters={"persistAuthorization": False},
    ).body
    redoc_page = get_redoc_html(
        openapi_url=app.openapi_url or "/openapi.json",
        title=title,
        redoc_js_url=f"{PREFIX}/redoc.standalone.js",
        redoc_favicon_url=f"{PREFIX}/favicon.png",
        with_google_fonts=False,
    ).body
    if scripts is not None:
        for page in (swagger_page, redoc_page):
            scripts.update(script_hashes(bytes(page).decode()))

    @app.get("/docs", include_in_schema=False)
    def swagger() -> HTMLResponse:
        return HTMLResponse(swagger_page)

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return HTMLResponse(redoc_page)

    @app.get(PREFIX + "/{name}", include_in_schema=False)
    def asset(name: str) -> FileResponse:
        if name not in ASSETS:  # only the four files: never a path into the package
            raise HTTPException(status_code=404)
        # Versioned with the package: a day of caching is safe and spares 2.8 MB per visit.
        return FileResponse(folder / name, headers={"Cache-Control": "public, max-age=86400"})

    return True
