"""The real app with API keys on, built one way for every test that needs auth.

A test module takes the ``secured`` fixture (tests/conftest.py: the app's URL, with the limits the module
declares in ``pytestmark = pytest.mark.secured(rate_limit_burst=100)``) or ``secured_server(**limits)``;
``serve_secured`` is for a server of a test's own:

with serve_secured(settings, services, rate_limit_burst=100) as url:
    with admin_client(url) as admin:
        admin.post("/v1/admin/api-keys", json={"workspaces": ["ws_a"]})
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import httpx
from fastapi import FastAPI
from pydantic import SecretStr

from shared.api.app import create_app
from shared.core.settings import Settings
from shared.local.server import serve_in_thread

ADMIN = "admin-secret-for-tests"


def secured_settings(settings: Settings, **overrides: Any) -> Settings:
    """``settings`` with API keys on, the test admin key and a cursor secret; ``overrides`` win."""
    update: dict[str, Any] = {
        "auth_mode": "api_key",
        "admin_key": SecretStr(ADMIN),
        "context_cursor_secret": SecretStr("cursor-secret-for-tests"),
    }
    return settings.model_copy(update={**update, **overrides})


@contextmanager
def serve_secured(settings: Settings, services: Any, **overrides: Any) -> Iterator[str]:
    """Serve the secured app over ``services`` (uvicorn in a thread); yields its base URL."""
    with serve_in_thread(create_app(secured_settings(settings, **overrides), services=services)) as url:
        yield url


def admin_client(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {ADMIN}"})


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def new_key(url: str, *workspaces: str) -> str:
    """A new API key for ``workspaces``, made with the admin key."""
    r = httpx.post(f"{url}/v1/admin/api-keys", json={"workspaces": list(workspaces)}, headers=bearer(ADMIN))
    assert r.status_code == 201, r.text
    return r.json()["key"]


def windows_stand_still(*apps: FastAPI) -> None:
    """Count the apps' rate windows (per key, failed logins) at one instant, the start of this minute, instead
    of the database's clock: a window boundary cannot reset a count halfway through a test, and no test waits
    for a fresh window."""
    at = datetime.now(UTC).replace(second=0, microsecond=0)
    for app in apps:
        app.state.rate_limiter.clock = app.state.auth_guard.clock = lambda: at
