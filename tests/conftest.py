"""Shared fixtures: one throwaway embedded Postgres + pgvector per test run, migrations applied as the owner
role, the stand-in RDS Proxy in front of it, and the real app (logged in as the app role through the proxy)
served over HTTP by uvicorn. Every test gets its own workspace id, so tests never see each other's data.

Set ``ML_TEST_DATABASE_URL`` to run against an already running Postgres instead.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from shared.api.app import create_app
from shared.app.bootstrap import process_services
from shared.app.services import Services
from shared.core.settings import Settings, get_settings
from shared.db import rls
from shared.db.migrate import apply_migrations
from shared.db.pool import Database
from shared.local.rds_proxy import RdsProxyStandIn
from shared.local.server import serve_in_thread
from shared.local.sqs import LocalQueues, SqsPoller, local_sqs
from tests.secured import serve_secured

APP_ROLE = "memorylayer_app"

# The unit tier (`make test-unit`): no Postgres, no servers but in-process ones. Every other folder is the
# integration tier (`make test-integration`); `make test` runs both. The Makefile names the same folders.
UNIT_TIER = ("tests/unit", "tests/embed")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A unit-tier test that asks for Postgres (every database fixture starts from ``superuser_url``) stops
    the run at collection, before a database starts."""
    root = Path(str(config.rootpath))
    wrong = [
        item.nodeid
        for item in items
        if Path(item.path).relative_to(root).as_posix().startswith(tuple(f"{tier}/" for tier in UNIT_TIER))
        and "superuser_url" in getattr(item, "fixturenames", ())
    ]
    if wrong:
        raise pytest.UsageError(f"unit-tier tests that need Postgres belong in tests/integration: {wrong}")


@pytest.fixture(scope="session")
def superuser_url() -> Iterator[str]:
    """The superuser's DSN (white-box tests: read anything, create databases, restart)."""
    external = os.environ.get("ML_TEST_DATABASE_URL")
    if external:
        import psycopg

        from shared.local.postgres import bootstrap_owner

        with psycopg.connect(external, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            bootstrap_owner(conn)
        yield external
        return
    from shared.local.postgres import EmbeddedPostgres

    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-test-")) / "pg", ephemeral=True)
    try:
        yield pg.dsn
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def owner_url(superuser_url: str) -> str:
    """The owner role's DSN, direct: migrations run as this role (as in AWS, where it is the master user)."""
    from psycopg.conninfo import make_conninfo

    from shared.local.postgres import OWNER_ROLE

    dsn = make_conninfo(superuser_url, user=OWNER_ROLE)
    apply_migrations(dsn)
    return dsn


@pytest.fixture(scope="session")
def database_url(superuser_url: str, owner_url: str) -> str:
    """The migrated test database, as the superuser: what white-box tests connect to with psycopg."""
    return superuser_url


@pytest.fixture(scope="session")
def rds_proxy(superuser_url: str, owner_url: str) -> Iterator[RdsProxyStandIn]:
    """The stand-in RDS Proxy (TLS verify-full) the API and worker reach the database through. The session
    ends with a check that nothing the app did would have pinned a real proxy's connections."""
    with RdsProxyStandIn(superuser_url, tls=True) as proxy:
        yield proxy
        app_pins = [pin for pin in proxy.pins if pin.user == APP_ROLE]
        assert not app_pins, f"statements that would pin RDS Proxy connections: {app_pins}"


@pytest.fixture(scope="session")
def app_url(rds_proxy: RdsProxyStandIn, superuser_url: str) -> str:
    """The app role's DSN through the stand-in proxy: what the API, worker and CLI use."""
    from psycopg.conninfo import conninfo_to_dict

    return rds_proxy.dsn(APP_ROLE, str(conninfo_to_dict(superuser_url).get("dbname") or "postgres"))


@pytest.fixture(scope="session")
def settings(app_url: str, owner_url: str) -> Settings:
    # Open on purpose: most tests are about behaviour, not keys (tests/integration/test_auth*.py secure theirs).
    return Settings(
        database_url=app_url,
        database_owner_url=owner_url,
        embedding_provider="hash",
        db_pool_max=8,
        auth_mode="none",
    )


@pytest.fixture(scope="session")
def services(settings: Settings) -> Iterator[Services]:
    db = Database.from_settings(settings, purpose="api")
    # Tests call the services directly, also from their own threads: trusted in-process callers, like the
    # worker. A request to the app sets its caller's wall (shared/api/deps.py row_wall), which wins over this.
    db.default_visible = rls.EVERY
    built = Services.build(settings, db=db)
    yield built
    built.close()


@pytest.fixture(scope="session")
def app(settings: Settings, services: Services):
    return create_app(settings, services=services)


@pytest.fixture(scope="session")
def base_url(app) -> Iterator[str]:
    with serve_in_thread(app) as url:
        yield url


@pytest.fixture(scope="module")
def secured_server(settings: Settings, services: Services) -> Iterator[Callable[..., str]]:
    """``secured_server(**limits)``: the base URL of the real app with API keys on and these settings overrides
    (rate limits, sandbox caps), served over HTTP; one server per distinct overrides, kept for the module."""
    servers: dict[tuple[tuple[str, Any], ...], str] = {}
    with ExitStack() as stack:

        def serve(**limits: Any) -> str:
            key = tuple(sorted(limits.items()))
            if key not in servers:
                servers[key] = stack.enter_context(serve_secured(settings, services, **limits))
            return servers[key]

        yield serve


@pytest.fixture(scope="module")
def secured(request: pytest.FixtureRequest, secured_server: Callable[..., str]) -> str:
    """The secured app's base URL, with the limits its module declares once:
    ``pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=100)``."""
    marker = request.node.get_closest_marker("secured")
    return secured_server(**(marker.kwargs if marker else {}))


@pytest.fixture(scope="module")
def pipeline(app_url: str) -> Iterator[tuple[str, LocalQueues]]:
    """(url, queues): the whole local stack as ``make dev`` runs it, for thread jobs: the app with a real
    extraction queue (moto SQS, DLQ after 3 receives) and the extraction Lambda handler polling it."""
    with local_sqs(visibility_timeout_s=1) as queues, pytest.MonkeyPatch.context() as env:
        for key, value in {
            "DATABASE_URL": app_url,
            "EMBEDDING_PROVIDER": "hash",
            "EXTRACTION_QUEUE_URL": queues.queue_url,
            "SQS_ENDPOINT_URL": queues.endpoint_url,
            "AUTH_MODE": "none",
        }.items():
            env.setenv(f"MEMORYLAYER_{key}", value)
        get_settings.cache_clear()
        process_services.cache_clear()
        settings = Settings()
        services = Services.build(settings)
        from functions.extraction.handler import handler

        try:
            with (
                serve_in_thread(create_app(settings, services=services)) as url,
                SqsPoller(queues, handler),
            ):
                yield url, queues
        finally:
            services.close()
            process_services("worker").close()
            process_services.cache_clear()
            get_settings.cache_clear()


@pytest.fixture()
def http(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=30) as client:
        yield client


# The reference's entity registry is off by default (every /v1/entities route a 501); on, its registry behaviour
# can be compared with ours.
REFERENCE_SETTINGS = {"MEMORYLAYER_ENTITY_REGISTRY_ENABLED": "true"}


@pytest.fixture(scope="session")
def reference_url() -> Iterator[str]:
    """The reference server (PyPI memorylayer-server 0.2.0 in its own Python 3.12 venv), started once for the
    session on a scratch data directory. A failed install or start fails the tests that use it."""
    from bench.compare.servers import reference_server

    with (
        tempfile.TemporaryDirectory(prefix="ref-server-") as workdir,
        reference_server(Path(workdir), REFERENCE_SETTINGS) as server,
    ):
        yield server.base_url


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


class Clock:
    """A clock the test moves; the live server reads it through ``services.sessions.clock``."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture()
def clock(services: Services, monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Session expiry on a clock the test moves instead of sleeping."""
    fake = Clock()
    monkeypatch.setattr(services.sessions, "clock", fake)
    return fake


# _global, _global_user and each tenant's _global:<t> / _global_user:<t>
SHARED_WORKSPACES = r"workspace_id LIKE '\_global%'"


@pytest.fixture(autouse=True)
def shared_workspaces_restored(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test that reaches Postgres: recall searches the shared workspaces (``_global``, the
    tenants' user spaces) from every workspace by default, so whatever a test (or the fuzzer, which may name
    ``_global`` in a body) left there would show up in later tests' results. Every row of theirs goes, as
    the superuser with foreign-key triggers off: a test cleanup, not a product path."""
    yield
    if "superuser_url" not in request.fixturenames:
        return
    with psycopg.connect(request.getfixturevalue("superuser_url"), autocommit=True) as conn:
        if not conn.execute(f"SELECT EXISTS (SELECT FROM memories WHERE {SHARED_WORKSPACES})").fetchone()[0]:
            return
        tables = conn.execute(
            "SELECT c.table_name FROM information_schema.columns c "
            "JOIN information_schema.tables t USING (table_schema, table_name) "
            "WHERE c.table_schema = 'public' AND c.column_name = 'workspace_id' "
            "AND t.table_type = 'BASE TABLE' AND c.table_name <> 'workspaces'"
        ).fetchall()
        with conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            for (table,) in tables:
                conn.execute(f"DELETE FROM {table} WHERE {SHARED_WORKSPACES}")  # catalog names, not input
