"""Services over a freshly migrated database of their own: table-wide statistics (ANALYZE, the word counts recall
reads) that no other test's rows dilute. Dropped on exit.

with services_in_own_database(database_url, "recall") as (services, settings):
    services.memories.remember("ws_a", MemoryCreate(content="..."))
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import make_conninfo

from shared.app.services import Services
from shared.core.settings import Settings
from shared.db.migrate import apply_migrations


@contextmanager
def services_in_own_database(
    database_url: str, prefix: str, *, session_settings: dict[str, str] | None = None
) -> Iterator[tuple[Services, Settings]]:
    """``database_url`` is the superuser's (it creates and drops the database); ``prefix`` names it;
    ``session_settings`` are the database's defaults for every session the services open (ALTER DATABASE SET,
    after the migrations): planner or pgvector settings a test holds fixed."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
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
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
