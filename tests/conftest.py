"""Shared fixtures: one throwaway embedded Postgres + pgvector per test run, migrations applied, and the real
app served over HTTP by uvicorn. Every test gets its own workspace id, so tests never see each other's data.

Set ``MEMORYLAYER_TEST_DATABASE_URL`` to run against an already running Postgres instead.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from shared.api.app import create_app
from shared.api.services import Services
from shared.db.migrate import apply_migrations
from shared.local.server import serve_in_thread
from shared.settings import Settings


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    external = os.environ.get("MEMORYLAYER_TEST_DATABASE_URL")
    if external:
        apply_migrations(external)
        yield external
        return
    from shared.local.postgres import EmbeddedPostgres

    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-test-")) / "pg", ephemeral=True)
    apply_migrations(pg.dsn)
    try:
        yield pg.dsn
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, embedding_provider="hash", db_pool_max=8)


@pytest.fixture(scope="session")
def services(settings: Settings) -> Iterator[Services]:
    built = Services.build(settings)
    yield built
    built.close()


@pytest.fixture(scope="session")
def app(settings: Settings, services: Services):
    return create_app(settings, services=services)


@pytest.fixture(scope="session")
def base_url(app) -> Iterator[str]:
    with serve_in_thread(app) as url:
        yield url


@pytest.fixture()
def http(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def official_python() -> str:
    """Python 3.12 with the official memorylayer-client / memorylayer-llamaindex 0.2.1 installed."""
    from tests.compat import official_python as ensure

    return ensure()


@pytest.fixture()
def ws() -> str:
    """A fresh workspace id for this test."""
    return f"ws_{uuid.uuid4().hex[:12]}"


@pytest.fixture()
def other_ws() -> str:
    return f"ws_other_{uuid.uuid4().hex[:12]}"
