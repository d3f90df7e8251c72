"""The full-text index per workspace (migration 0046, ``ensure_workspace_text_index`` in shared/db/migrate.py):
a word's lookup reads the asked workspace's matches instead of every workspace's. Built after the migrations,
built again when a failed build left it invalid, and answering the same rows as before."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from shared.db.migrate import WORKSPACE_TEXT_INDEX, apply_migrations
from shared.local.postgres import OWNER_ROLE, bootstrap_owner

VALID = (
    "SELECT i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i WHERE i.indexrelid = to_regclass(%s)"
)
# A small workspace among a large one, their rows interleaved as tenants' writes are: "zebra" in 5 of a's 2,000
# memories (one more deleted), and in 2,000 of b's 40,000: common in the table, rare in a.
ROWS = """
INSERT INTO workspaces (id, name) VALUES ('ws_a', 'a'), ('ws_b', 'b');
INSERT INTO memories (id, workspace_id, content, content_hash, dedup_key, type, deleted_at)
SELECT ws || '_' || i, ws, CASE WHEN (ws = 'ws_a' AND i <= 6) OR (ws = 'ws_b' AND i % 20 = 0)
                                THEN 'a zebra crossing ' ELSE 'a quiet street ' END || i,
       ws || i, ws || i, 'fact', CASE WHEN ws = 'ws_a' AND i = 6 THEN now() END
FROM unnest(ARRAY['ws_a', 'ws_b']) AS ws, generate_series(1, CASE WHEN ws = 'ws_a' THEN 2000 ELSE 40000 END) AS i
ORDER BY md5(ws || i);
ANALYZE memories;
"""
LOOKUP = "SELECT id FROM memorylayer_text_rows(ARRAY['ws_a'], to_tsquery('english', 'zebra')) ORDER BY id"
EXPECTED = [f"ws_a_{i}" for i in (1, 2, 3, 4, 5)]


@pytest.fixture()
def own_database(database_url: str) -> Iterator[tuple[str, str]]:
    """(superuser DSN, owner DSN) of a new database bootstrapped as the local stack's and migrated as the owner."""
    name = f"wstsv_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    superuser = make_conninfo(database_url, dbname=name)
    try:
        with psycopg.connect(superuser, autocommit=True) as conn:
            bootstrap_owner(conn)
        owner = make_conninfo(superuser, user=OWNER_ROLE)
        apply_migrations(owner)
        yield superuser, owner
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_migrations_build_a_valid_index_of_workspace_and_words(own_database: tuple[str, str]) -> None:
    _, owner = own_database
    with psycopg.connect(owner) as conn:
        valid, definition = conn.execute(VALID, (WORKSPACE_TEXT_INDEX,)).fetchone()  # type: ignore[misc]
    assert valid
    assert "USING gin (workspace_id, tsv) WHERE (deleted_at IS NULL)" in definition


def test_a_failed_build_is_built_again_by_the_next_migration_run(own_database: tuple[str, str]) -> None:
    superuser, owner = own_database
    with psycopg.connect(superuser, autocommit=True) as conn:
        # What a CREATE INDEX CONCURRENTLY that failed leaves: an index the planner does not use.
        conn.execute(
            "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass", (WORKSPACE_TEXT_INDEX,)
        )
    apply_migrations(owner)
    with psycopg.connect(owner) as conn:
        assert conn.execute(VALID, (WORKSPACE_TEXT_INDEX,)).fetchone()[0]  # type: ignore[index]


def test_a_workspace_lookup_reads_that_workspace_through_it(own_database: tuple[str, str]) -> None:
    _, owner = own_database
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(ROWS)
        conn.execute("VACUUM ANALYZE memories")
        plan = "\n".join(
            r[0]
            for r in conn.execute(
                "EXPLAIN SELECT id FROM memories WHERE workspace_id = ANY (ARRAY['ws_a']) AND deleted_at IS NULL "
                "AND tsv @@ to_tsquery('english', 'zebra')"
            )
        )
        assert [r[0] for r in conn.execute(LOOKUP)] == EXPECTED
    # The text functions' condition, planned: the workspace is a condition of the index search, not a filter over
    # every workspace's matches.
    assert f"Bitmap Index Scan on {WORKSPACE_TEXT_INDEX}" in plan
    assert "Index Cond: ((workspace_id = ANY" in plan


def test_the_table_wide_index_can_go(own_database: tuple[str, str]) -> None:
    """The later contract step: without ``memories_tsv`` the statistics refresh still runs and the lookups find
    the same rows (a condition on the words alone is answered by the per-workspace index too)."""
    _, owner = own_database
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(ROWS)
        conn.execute("DROP INDEX memories_tsv")
        conn.execute("SELECT analyze_memories()")
        assert [r[0] for r in conn.execute(LOOKUP)] == EXPECTED
        found = conn.execute(
            "SELECT count(*) FROM memorylayer_text_matches(ARRAY['ws_a', 'ws_b'], to_tsquery('english', 'zebra'))"
        ).fetchone()
    assert found == (2005,)
