"""shared/db/schema.sql is the schema a database migrated from empty has (``make schema`` rewrites it), every SQL
function in it comes from its file in shared/db/functions/, and those files are applied by checksum: once, and
again when they change (shared/db/repeatable.py)."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from shared.db.repeatable import apply_function_files, function_files
from shared.local.postgres import OWNER_ROLE
from shared.local.schema import POSTGRES_MAJOR, SCHEMA_FILE, diff, dump, migrated_database

POLICY_FAMILIES = {"workspace_wall.sql"}


@pytest.fixture(scope="module")
def fresh(database_url: str) -> Iterator[str]:
    """A database migrated from empty, untouched by other tests (superuser DSN)."""
    with migrated_database(database_url) as dsn:
        yield dsn


@pytest.fixture()
def scratch(database_url: str) -> Iterator[psycopg.Connection]:
    """The owner's autocommit connection to a database migrated from empty, for tests that change it."""
    with (
        migrated_database(database_url) as dsn,
        psycopg.connect(make_conninfo(dsn, user=OWNER_ROLE), autocommit=True) as conn,
    ):
        yield conn


def test_schema_sql_is_what_the_migrations_make(fresh: str) -> None:
    with psycopg.connect(fresh) as conn:
        major = conn.info.server_version // 10000
    if major != POSTGRES_MAJOR:
        pytest.skip(f"schema.sql is PostgreSQL {POSTGRES_MAJOR}'s dump; this server is {major}")
    actual = dump(fresh)
    expected = SCHEMA_FILE.read_text()
    if actual != expected:
        pytest.fail(
            f"shared/db/schema.sql is out of date: run `make schema`\n{diff(expected, actual)}", False
        )


def test_every_function_comes_from_its_file(fresh: str) -> None:
    """A function is dropped by a migration when its file goes; a new one is written as a file."""
    with psycopg.connect(fresh) as conn:
        live = {
            name
            for (name,) in conn.execute(
                "SELECT p.proname FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace "
                "AND p.proname !~ '^recall_(hot|sorted|own)_' "
                "AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')"
            )
        }
    files = {name.removesuffix(".sql") for name, _ in function_files() if name not in POLICY_FAMILIES}
    assert live - files == set(), "functions without a file: drop them in a migration, or add their file"
    assert files - live == set()


def _applied_at(conn: psycopg.Connection, name: str) -> object:
    row = conn.execute("SELECT applied_at FROM schema_functions WHERE name = %s", (name,)).fetchone()
    return row[0] if row else None


def test_a_file_runs_again_only_when_it_changes(scratch: psycopg.Connection) -> None:
    files = function_files()
    assert {name for name, _ in files} == {
        name for (name,) in scratch.execute("SELECT name FROM schema_functions")
    }
    assert apply_function_files(scratch) == []  # nothing changed since the migration
    before = _applied_at(scratch, "analyze_memories.sql")

    changed = [
        (name, sql.replace("BEGIN\n", "BEGIN\n    -- edited\n", 1) if name == "analyze_memories.sql" else sql)
        for name, sql in files
    ]
    assert apply_function_files(scratch, changed) == ["analyze_memories.sql"]
    (definition,) = scratch.execute("SELECT pg_get_functiondef('analyze_memories'::regproc)").fetchone()
    assert "-- edited" in definition
    assert _applied_at(scratch, "analyze_memories.sql") != before
    # Replaced, its grants are still the file's: the app role may call it, PUBLIC may not.
    assert scratch.execute(
        "SELECT has_function_privilege('memorylayer_app', 'analyze_memories()', 'EXECUTE'), "
        "has_function_privilege('public', 'analyze_memories()', 'EXECUTE')"
    ).fetchone() == (True, False)

    assert apply_function_files(scratch) == ["analyze_memories.sql"]  # back to the file as shipped
    (definition,) = scratch.execute("SELECT pg_get_functiondef('analyze_memories'::regproc)").fetchone()
    assert "-- edited" not in definition


def test_a_removed_file_is_forgotten_and_applied_when_it_comes_back(scratch: psycopg.Connection) -> None:
    files = function_files()
    assert apply_function_files(scratch, [f for f in files if f[0] != "memorylayer_sees_all.sql"]) == []
    assert _applied_at(scratch, "memorylayer_sees_all.sql") is None
    assert apply_function_files(scratch, files) == ["memorylayer_sees_all.sql"]


def test_the_wall_file_changes_only_the_tables_whose_wall_differs(scratch: psycopg.Connection) -> None:
    def policies() -> dict[str, int]:
        return dict(
            scratch.execute(
                "SELECT polrelid::regclass::text, oid::int FROM pg_policy WHERE polname = 'workspace_wall'"
            ).fetchall()
        )

    before = policies()
    assert len(before) == 32
    scratch.execute("DROP POLICY workspace_wall ON contexts")
    scratch.execute("ALTER TABLE threads DISABLE ROW LEVEL SECURITY")
    scratch.execute("DELETE FROM schema_functions WHERE name = 'workspace_wall.sql'")

    assert apply_function_files(scratch) == ["workspace_wall.sql"]
    after = policies()
    assert set(after) == set(before)
    # Only the missing policy is new: the others were not dropped and made again (each would lock its table).
    assert {table for table in after if after[table] != before[table]} == {"contexts"}
    assert scratch.execute(
        "SELECT relrowsecurity FROM pg_class WHERE oid = 'threads'::regclass"
    ).fetchone() == (True,)
