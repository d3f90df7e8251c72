"""The full-text indexes per workspace (migration 0046, ``ensure_workspace_text_index`` and
``ensure_context_text_index`` in shared/db/migrate.py): a word's lookup reads the asked workspace's matches instead
of every workspace's, in memories and in the previous turns' words (memory_contexts). Built after the migrations,
built again when a failed build left them invalid, answering the same rows as before; the table-wide
``memories_tsv`` is dropped by the same step, and only once its replacement is valid."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from shared.db.migrate import (
    CONTEXT_TEXT_INDEX,
    TABLE_TEXT_INDEX,
    WORKSPACE_TEXT_INDEX,
    apply_migrations,
    ensure_workspace_text_index,
)
from shared.local.postgres import OWNER_ROLE, bootstrap_owner
from tests.plans import app_role_plans

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
# Each live memory's words as a turn's context (what 0023's triggers keep for the next turn of a stream).
CONTEXTS = """
INSERT INTO memory_contexts (memory_id, workspace_id, tsv)
SELECT id, workspace_id, tsv FROM memories WHERE deleted_at IS NULL;
ANALYZE memory_contexts;
"""
LOOKUP = "SELECT id FROM memorylayer_text_rows(ARRAY['ws_a'], to_tsquery('english', 'zebra')) ORDER BY id"
CONTEXT_LOOKUP = (
    "SELECT id FROM memorylayer_context_matches(ARRAY['ws_a'], to_tsquery('english', 'zebra')) ORDER BY id"
)
EXPECTED = [f"ws_a_{i}" for i in (1, 2, 3, 4, 5)]
TABLE_WIDE_DDL = f"CREATE INDEX {TABLE_TEXT_INDEX} ON memories USING gin (tsv) WHERE deleted_at IS NULL"


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
        context_valid, context_definition = conn.execute(VALID, (CONTEXT_TEXT_INDEX,)).fetchone()  # type: ignore[misc]
        table_wide = conn.execute("SELECT to_regclass(%s)", (TABLE_TEXT_INDEX,)).fetchone()
    assert valid
    assert "USING gin (workspace_id, tsv) WHERE (deleted_at IS NULL)" in definition
    assert context_valid
    assert "ON public.memory_contexts USING gin (workspace_id, tsv)" in context_definition
    assert table_wide == (None,)  # the contract step ran: the per-workspace index replaces it


def test_the_table_wide_index_stays_until_its_replacement_is_valid(own_database: tuple[str, str]) -> None:
    """A database of the release before (both indexes) whose per-workspace build fails midway, as a build that
    outlives a deploy's patience does: ``memories_tsv`` stays, recall keeps its index; the next run builds the
    replacement and only then drops it."""
    _, owner = own_database
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(ROWS)
        conn.execute(TABLE_WIDE_DDL)
        conn.execute(f"DROP INDEX {WORKSPACE_TEXT_INDEX}")
    with (
        psycopg.connect(owner) as writer,  # a write in flight: the concurrent build must wait for it to end
        psycopg.connect(owner, autocommit=True) as conn,
    ):
        writer.execute("UPDATE memories SET content = content WHERE id = 'ws_b_1'")
        conn.execute("SET lock_timeout = '200ms'")  # the build gives up waiting, leaving an invalid index
        with pytest.raises(psycopg.errors.LockNotAvailable):
            ensure_workspace_text_index(conn)
        assert conn.execute(VALID, (WORKSPACE_TEXT_INDEX,)).fetchone()[0] is False  # type: ignore[index]
        assert conn.execute("SELECT to_regclass(%s)::text", (TABLE_TEXT_INDEX,)).fetchone() == (
            TABLE_TEXT_INDEX,
        )
        assert [r[0] for r in conn.execute(LOOKUP)] == EXPECTED
        writer.rollback()
    apply_migrations(owner)
    with psycopg.connect(owner) as conn:
        assert conn.execute(VALID, (WORKSPACE_TEXT_INDEX,)).fetchone()[0]  # type: ignore[index]
        assert conn.execute("SELECT to_regclass(%s)", (TABLE_TEXT_INDEX,)).fetchone() == (None,)
        assert [r[0] for r in conn.execute(LOOKUP)] == EXPECTED


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


def test_without_the_table_wide_indexes_lookups_find_the_same_rows(own_database: tuple[str, str]) -> None:
    """The contract steps: without ``memories_tsv`` (dropped by the migrations) and ``memory_contexts_tsv`` (its
    step is a release later) the statistics refresh still runs and the lookups find the same rows (a condition on
    the words alone is answered by the per-workspace index too)."""
    _, owner = own_database
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(ROWS)
        conn.execute(CONTEXTS)
        conn.execute("DROP INDEX memory_contexts_tsv")
        conn.execute("SELECT analyze_memories()")
        assert [r[0] for r in conn.execute(CONTEXT_LOOKUP)] == EXPECTED
        assert [r[0] for r in conn.execute(LOOKUP)] == EXPECTED
        found = conn.execute(
            "SELECT count(*) FROM memorylayer_text_matches(ARRAY['ws_a', 'ws_b'], to_tsquery('english', 'zebra'))"
        ).fetchone()
    assert found == (2005,)


def test_a_workspace_context_lookup_reads_that_workspace_through_its_index(
    own_database: tuple[str, str],
) -> None:
    """The previous turn's words (memorylayer_context_matches, recall's ``listed``), called as the app role: the
    plan of the function's own statement (auto_explain, sent to this session) searches the per-workspace index
    with the workspace as an index condition, beside the table-wide one the planner could still choose."""
    superuser, owner = own_database
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(ROWS)
        conn.execute(CONTEXTS)
        conn.execute("VACUUM ANALYZE memory_contexts")
    with app_role_plans(superuser, ("ws_a",)) as (conn, plans):
        assert [r[0] for r in conn.execute(CONTEXT_LOOKUP)] == EXPECTED
    inner = "\n".join(p for p in plans if "memory_contexts" in p)
    assert f"Bitmap Index Scan on {CONTEXT_TEXT_INDEX}" in inner, plans
    assert "Index Cond: ((workspace_id = ANY" in inner


# Many tenants, as in a shared table: 400 workspaces of 100 memories, "zebra" in one memory of 20 in each, ws_a's
# five among them.
MANY = """
INSERT INTO workspaces (id, name) SELECT 'ws_' || w, 'w' FROM generate_series(1, 399) AS w;
INSERT INTO workspaces (id, name) VALUES ('ws_a', 'a');
INSERT INTO memories (id, workspace_id, content, content_hash, dedup_key, type)
SELECT ws || '_' || i, ws, CASE WHEN i % 20 = 0 OR (ws = 'ws_a' AND i <= 5) THEN 'a zebra crossing '
                                ELSE 'a quiet street ' END || i, ws || i, ws || i, 'fact'
FROM (SELECT 'ws_' || w AS ws FROM generate_series(1, 399) AS w UNION ALL SELECT 'ws_a') AS t,
     generate_series(1, 100) AS i
WHERE NOT (ws = 'ws_a' AND i % 20 = 0)
ORDER BY md5(ws || i);
INSERT INTO memory_contexts (memory_id, workspace_id, tsv) SELECT id, workspace_id, tsv FROM memories;
"""


def test_the_text_functions_are_planned_with_their_values_on_every_call(
    own_database: tuple[str, str],
) -> None:
    """Recall calls the text functions many times a session. Their generic plan (a session's sixth call on) asked
    the per-workspace GIN for the word alone, every workspace's matches, and ANDed the workspace from a btree; with
    each call planned for its values, the word is never looked up table-wide (auto_explain of the functions' own
    statements as the app role, after more calls than the plan cache's five custom plans)."""
    superuser, owner = own_database
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(MANY)
        conn.execute("VACUUM ANALYZE memories")
        conn.execute("VACUUM ANALYZE memory_contexts")
    with app_role_plans(superuser, ("ws_a",)) as (conn, plans):
        # Whether the plan cache goes generic after five calls depends on the statistics (it did in
        # bench.tenants' table, not in this small one): a session that asks for generic plans stands for it. The
        # functions' own setting wins inside them.
        conn.execute("SET plan_cache_mode = force_generic_plan")
        for _ in range(8):
            assert [r[0] for r in conn.execute(LOOKUP)] == EXPECTED
            assert [r[0] for r in conn.execute(CONTEXT_LOOKUP)] == EXPECTED
            assert conn.execute(
                "SELECT count(*) FROM memorylayer_text_matches(ARRAY['ws_a'], to_tsquery('english', 'zebra'))"
            ).fetchone() == (5,)
    inner = [p for p in plans if "tsv @@ q" in p]
    assert len(inner) == 24, plans  # each function's own statement, every call
    # Planned for the call's values: the word and the workspaces are literals in every plan, never $1 / $2 (a
    # generic plan's), and the word is never looked up alone.
    assert not [
        p for p in inner if "$1" in p.split("Query Parameters")[0] or "$2" in p.split("Query Parameters")[0]
    ]
    assert not [p for p in inner if "Index Cond: (tsv @@" in p], inner
