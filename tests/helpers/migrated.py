"""A database of an earlier schema: migrated up to a given numbered migration only, with no repeatable file
applied, as a database of that time had it (its functions and triggers from those migrations). For tests of
what a later migration does to the rows already there.

with database_migrated_to(database_url, "0027") as dsn:
    ...  # rows as they were written then
    apply_migrations(dsn)  # the rest, as a deploy applies it
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import make_conninfo

from shared.db.migrate import migration_files


@contextmanager
def database_migrated_to(database_url: str, last: str) -> Iterator[str]:
    """A new database with the migrations up to ``last`` (its four-digit number) applied; yields its superuser
    DSN (``database_url`` is the superuser's) and drops it on exit."""
    name = f"upto{last}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    dsn = make_conninfo(database_url, dbname=name)
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            # The table apply_migrations keeps, so that it applies only the migrations after ``last`` later.
            conn.execute(
                "CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            for file, sql in migration_files():
                if file[:4] > last:
                    break
                with conn.transaction():
                    conn.execute(sql)
                    conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (file,))
        yield dsn
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
