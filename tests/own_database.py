"""Services over a freshly migrated database of their own: table-wide statistics (ANALYZE, the word counts recall
reads) that no other test's rows dilute. Dropped on exit.

with services_in_own_database(database_url, "recall") as (services, settings):
    services.memories.remember("ws_a", MemoryCreate(content="..."))
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.conninfo import make_conninfo

from shared.app.services import Services
from shared.core.settings import Settings
from shared.db.migrate import apply_migrations


@contextmanager
def _new_database(superuser_url: str, prefix: str, *, owner: str | None = None) -> Iterator[str]:
    """A database named ``prefix``_<random> (owned by ``owner`` if given), dropped on exit; yields its name."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(superuser_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}" + (f" OWNER {owner}" if owner else ""))
    try:
        yield name
    finally:
        with psycopg.connect(superuser_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


@contextmanager
def services_in_own_database(
    database_url: str, prefix: str, *, session_settings: dict[str, str] | None = None
) -> Iterator[tuple[Services, Settings]]:
    """``database_url`` is the superuser's (it creates and drops the database); ``prefix`` names it;
    ``session_settings`` are the database's defaults for every session the services open (ALTER DATABASE SET,
    after the migrations): planner or pgvector settings a test holds fixed."""
    with _new_database(database_url, prefix) as name:
        dsn = make_conninfo(database_url, dbname=name)
        apply_migrations(dsn)
        if session_settings:
            with psycopg.connect(database_url, autocommit=True) as conn:
                for setting, value in session_settings.items():
                    conn.execute(f"ALTER DATABASE {name} SET {setting} = {value}")
        settings = Settings(database_url=dsn, embedding_provider="hash", db_pool_max=2, auth_mode="none")
        services = Services.build(settings)
        try:
            yield services, settings
        finally:
            services.close()


@contextmanager
def owner_and_app_services(
    superuser_url: str, proxy_dsn: Callable[[str, str], str], prefix: str, **overrides: Any
) -> Iterator[tuple[Services, str]]:
    """A database of its own owned by the owner role (graph builds publish generations in it), migrated as the
    owner; yields (services as the app role through ``proxy_dsn`` (the stand-in RDS Proxy's), trusted in-process
    as the worker is, the owner's DSN). ``overrides``: more settings (``database_owner_url=OWNER`` for the
    owner's DSN itself)."""
    from shared.db import rls
    from shared.db.pool import Database
    from shared.local.postgres import OWNER_ROLE

    with _new_database(superuser_url, prefix, owner=OWNER_ROLE) as name:
        with psycopg.connect(make_conninfo(superuser_url, dbname=name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE EXTENSION IF NOT EXISTS btree_gin")
            conn.execute(f"ALTER SCHEMA public OWNER TO {OWNER_ROLE}")
        owner = make_conninfo(superuser_url, user=OWNER_ROLE, dbname=name)
        apply_migrations(owner)
        if overrides.get("database_owner_url") is OWNER:
            overrides["database_owner_url"] = owner
        settings = Settings(
            **{
                "database_url": proxy_dsn("memorylayer_app", name),
                "embedding_provider": "hash",
                "db_pool_max": 4,
                "auth_mode": "none",
                **overrides,
            }
        )
        db = Database.from_settings(settings, purpose="api")
        db.default_visible = rls.EVERY  # trusted in-process caller, as the worker
        services = Services.build(settings, db=db)
        try:
            yield services, owner
        finally:
            services.close()


OWNER = object()  # owner_and_app_services(..., database_owner_url=OWNER): the services get the owner's DSN
