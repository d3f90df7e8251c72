"""A graph of its own for each large workspace (shared/db/vector_index.py, ``DEDICATED_MIN_ROWS``; migration
0048), on a database of its own (it publishes generations), the app role behind the stand-in RDS Proxy and the
owner on a direct connection, as in AWS:

- a bulk rebuild builds the next generation's own graph of every workspace over the threshold before publishing
  it, and drops the previous generation's with its graph;
- a recall of that one workspace walks its own graph (EXPLAIN as the app role, row-level security on), and ranks
  exactly as without it: same ids, same order, whether the graph is there, dropped, or not recorded;
- another workspace's recall never names or walks it, and the app role sees no other workspace's record;
- a workspace grown past the threshold by single writes gets its graph for the published generation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from bench.common import uniform_query, uniform_sentence
from shared.app.services import Services
from shared.core.settings import Settings
from shared.db import rls, vector_index
from shared.db.recall import ensure_recall_function, hot_function, hybrid_sql, own_function
from shared.domain.indexing import VectorIndexer, dedicated_as_owner
from shared.domain.indexing import bulk as bulk_build
from shared.domain.requests import BatchCreate, BatchRequest, MemoryCreate, RecallRequest
from shared.local.rds_proxy import RdsProxyStandIn
from tests.own_database import OWNER, owner_and_app_services
from tests.plans import recall_plans

DIMS = 384
BIG, SMALL, FILLERS = "ws_big", "ws_small", ("ws_f1", "ws_f2")
THRESHOLD = 1000  # this module's DEDICATED_MIN_ROWS: BIG is over it, SMALL and the fillers under
SORTED_MAX = 500  # recall_sorted_max_rows: SMALL is sorted by its function, BIG walks its own graph
MEMORY_MB = Settings().vector_build_memory_mb


@pytest.fixture(scope="module")
def stack(superuser_url: str, owner_url: str, rds_proxy: RdsProxyStandIn) -> Iterator[tuple[Services, str]]:
    """(services as the app role through the proxy, with the owner's DSN; the owner's DSN), BIG and SMALL
    bulk-written and built with their own graphs (BIG only)."""
    patch = pytest.MonkeyPatch()
    patch.setattr(vector_index, "DEDICATED_MIN_ROWS", THRESHOLD)
    try:
        with owner_and_app_services(
            superuser_url, rds_proxy.dsn, "own", database_owner_url=OWNER, recall_sorted_max_rows=SORTED_MAX
        ) as built:
            services, owner = built
            rng = random.Random(48)
            # BIG holds 1,500 of 3,600 rows: under DEDICATED_MAX_SHARE of the graph.
            for ws, n in ((BIG, 1500), (SMALL, 300), (FILLERS[0], 900), (FILLERS[1], 900)):
                texts = [uniform_sentence(rng) for _ in range(n)]
                for start in range(0, n, 500):
                    ops: list[Any] = [BatchCreate(op="create", content=t) for t in texts[start : start + 500]]
                    services.memories.batch(ws, BatchRequest(operations=ops))
            yield built
    finally:
        patch.undo()


def _rebuild(owner: str) -> bulk_build.Rebuild:
    with psycopg.connect(owner, autocommit=True) as conn:
        built = bulk_build.rebuild(conn, DIMS, memory_mb=MEMORY_MB, drop_grace_s=0)
        conn.execute("SELECT analyze_memories()")
    assert built is not None
    return built


def _indexes(owner: str) -> set[str]:
    with psycopg.connect(owner) as conn:
        rows = conn.execute(
            "SELECT relname FROM pg_class WHERE relkind = 'i' AND relname LIKE 'memories_embedding_%'"
        ).fetchall()
    return {r[0] for r in rows}


def _recorded(owner: str) -> set[tuple[str, int]]:
    with psycopg.connect(owner) as conn:
        rows = conn.execute("SELECT workspace_id, generation FROM vector_dedicated_graphs").fetchall()
    return {(r[0], int(r[1])) for r in rows}


def _queries(n: int = 12) -> list[str]:
    rng = random.Random(480)
    return [uniform_query(rng) for _ in range(n)]


def _ranked(services: Services, *scope: str) -> list[list[tuple[str, float]]]:
    """Each query's page of 20 for ``scope`` (ids and scores, in order), read afresh (no cached generation)."""
    services.recaller.forget_generation()
    out = []
    for q in _queries():
        found = services.recaller.recall(list(scope), RecallRequest(query=q, limit=20))["memories"]
        out.append([(m["id"], round(m["relevance_score"], 6)) for m in found])
    return out


def _plan(services: Services, ws: str, query: str, *also: str) -> tuple[str, str]:
    """(the ad-hoc statement recall makes for ``ws`` and ``also``, its EXPLAIN), as the app role inside their
    wall (what a function recall calls instead runs: ``_reused``)."""
    services.recaller.forget_generation()
    with rls.visible((ws, *also)), services.db.connection() as conn:
        sql, params = services.recaller.statement([ws, *also], RecallRequest(query=query, limit=10), conn)
        role = conn.execute("SELECT current_user AS u").fetchone()
        assert role is not None and role["u"] == "memorylayer_app"
        plan = "\n".join(next(iter(r.values())) for r in conn.execute("EXPLAIN " + sql, params).fetchall())
    return sql, plan


def test_a_rebuild_builds_the_large_workspaces_own_graph_and_drops_the_older_ones(stack):
    services, owner = stack
    first = _rebuild(owner)
    assert first.dedicated == (BIG,)
    own = vector_index.dedicated_name(DIMS, first.generation, BIG)
    assert own in _indexes(owner)
    assert _recorded(owner) == {(BIG, first.generation)}
    assert vector_index.dedicated_name(DIMS, first.generation, SMALL) not in _indexes(owner)
    with psycopg.connect(owner) as conn:
        # A workspace holding more than DEDICATED_MAX_SHARE of the graph gets none: the table-wide graph is
        # nearly its own already.
        assert vector_index.dedicated_candidates(conn, first.generation, min_rows=1, max_share=0.4) == [
            *FILLERS,
            SMALL,
        ]

    second = _rebuild(owner)
    assert second.generation == first.generation + 1 and second.dedicated == (BIG,)
    names = _indexes(owner)
    assert vector_index.dedicated_name(DIMS, second.generation, BIG) in names
    assert own not in names  # dropped with its generation's graph
    assert vector_index.index_name(DIMS, first.generation) not in names
    assert _recorded(owner) == {(BIG, second.generation)}


def _reused(services: Services, ws: str, query: str, *also: str) -> tuple[str, dict[str, Any]]:
    """(what recall runs for ``ws`` and ``also``: a function's call or the ad-hoc statement, its parameters)."""
    services.recaller.forget_generation()
    with rls.visible((ws, *also)), services.db.connection() as conn:
        sql, params = services.recaller.statement([ws, *also], RecallRequest(query=query, limit=10), conn)
        return services.recaller._plan_reused(conn, sql, params), params


def test_the_workspaces_recall_walks_its_own_graph_as_the_app_role(stack):
    services, owner = stack
    generation = vector_index.published(psycopg.connect(owner), DIMS)
    own = vector_index.dedicated_name(DIMS, generation, BIG)
    assert own in _indexes(owner)
    sql, plan = _plan(services, BIG, _queries()[0])
    assert f"m.workspace_id = '{BIG}'" in sql
    assert own in plan, plan


def test_the_workspaces_own_function_keeps_a_plan_that_walks_its_own_graph(stack, superuser_url):
    """Recall calls the workspace's own function (its plan kept for the session, generic): that plan walks the
    workspace's graph, past the plan cache's five custom plans, and ranks as the ad-hoc statement."""
    services, owner = stack
    generation = vector_index.published(psycopg.connect(owner), DIMS)
    superuser = make_conninfo(superuser_url, dbname=str(conninfo_to_dict(owner)["dbname"]))
    for query in _queries()[:3]:
        call, params = _reused(services, BIG, query, "_global")
        assert call == own_function(DIMS, generation, BIG).call
        with rls.visible((BIG, "_global")), services.db.connection() as conn:
            ad_hoc = [r["id"] for r in conn.execute(hybrid_sql(DIMS, generation, BIG), params).fetchall()]
        plans, rows = recall_plans(superuser, call, params, (BIG, "_global"), 7)
        assert ad_hoc and rows == [ad_hoc] * 7
        assert len(plans) == 7 and all(vector_index.dedicated_name(DIMS, generation, BIG) in p for p in plans)
    # The other workspace's recall calls the sorting function, never BIG's.
    services.recaller.recall([SMALL], RecallRequest(query=_queries()[0]))  # counts the scope
    call, _ = _reused(services, SMALL, _queries()[0])
    assert call == hot_function(DIMS, generation, walk=False).call


def test_results_are_identical_with_the_own_graph_dropped_or_not_recorded(stack):
    """The own graph's answers are the exact ones: the same as with no graph at all (recall then sorts the
    workspace's rows), first with the record still naming it, then with no record; and again once built anew."""
    services, owner = stack
    with_graph = _ranked(services, BIG)
    # A scope of the workspace and others (as the API's, with the shared spaces): its rows from its own graph,
    # the others' sorted exactly.
    both = _ranked(services, BIG, FILLERS[0])
    sql, plan = _plan(services, BIG, _queries()[0], FILLERS[0])
    own = vector_index.dedicated_name(DIMS, 2, BIG)
    assert f"array_remove(%(ws)s, '{BIG}')" in sql and own in plan
    assert f"{vector_index.index_name(DIMS, 2)} on" not in plan
    assert {m for page in both for m, _ in page} & _ids(owner, FILLERS[0])
    assert all(page for page in with_graph)
    assert {m for page in with_graph for m, _ in page} <= _ids(owner, BIG)
    with psycopg.connect(owner, autocommit=True) as conn:
        generation = vector_index.published(conn, DIMS)
        own = vector_index.dedicated_name(DIMS, generation, BIG)
        conn.execute(f"DROP INDEX CONCURRENTLY {own}")
        conn.execute(f"DROP INDEX CONCURRENTLY {vector_index.index_name(DIMS, generation)}")
    # Still recorded: the statement names the workspace, no index proves it; the rows are sorted exactly.
    sql, plan = _plan(services, BIG, _queries()[0])
    assert f"m.workspace_id = '{BIG}'" in sql and "memories_embedding" not in plan
    assert _ranked(services, BIG) == with_graph
    assert _ranked(services, BIG, FILLERS[0]) == both
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute("DELETE FROM vector_dedicated_graphs")
    sql, _ = _plan(services, BIG, _queries()[0])
    assert f"m.workspace_id = '{BIG}'" not in sql
    assert _ranked(services, BIG) == with_graph
    assert _ranked(services, BIG, FILLERS[0]) == both
    # Built again as migrate builds them (the published graph, then each large workspace's own), same answers.
    with psycopg.connect(owner, autocommit=True) as conn:
        vector_index.ensure(conn, DIMS)
    assert _recorded(owner) == {(BIG, generation)}
    assert own in _plan(services, BIG, _queries()[0])[1]
    assert own in _plan(services, BIG, _queries()[0], FILLERS[0])[1]
    assert _ranked(services, BIG) == with_graph
    assert _ranked(services, BIG, FILLERS[0]) == both


def _ids(owner: str, ws: str) -> set[str]:
    with psycopg.connect(owner) as conn:
        return {
            r[0] for r in conn.execute("SELECT id FROM memories WHERE workspace_id = %s", (ws,)).fetchall()
        }


def test_another_workspace_never_names_walks_or_sees_it(stack):
    services, owner = stack
    generation = vector_index.published(psycopg.connect(owner), DIMS)
    own = vector_index.dedicated_name(DIMS, generation, BIG)
    assert own in _indexes(owner)
    sql, plan = _plan(services, SMALL, _queries()[0])
    assert BIG not in sql and own not in plan
    # A scope of both: BIG's rows from its own graph, SMALL's apart, never through BIG's.
    sql, plan = _plan(services, SMALL, _queries()[0], BIG)
    assert f"m.workspace_id = '{BIG}'" in sql and f"array_remove(%(ws)s, '{BIG}')" in sql
    assert sql == hybrid_sql(DIMS, generation, BIG)
    found = {m for page in _ranked(services, SMALL) for m, _ in page}
    assert found and found <= _ids(owner, SMALL)
    # The records are walled: inside SMALL's wall the app role sees none of BIG's, and writes none.
    with rls.visible((SMALL,)), services.db.connection() as conn:
        assert vector_index.dedicated(conn, DIMS, generation) == set()
    with rls.visible((BIG,)), services.db.connection() as conn:
        assert vector_index.dedicated(conn, DIMS, generation) == {BIG}
    with (
        pytest.raises(psycopg.errors.InsufficientPrivilege),
        rls.visible((SMALL,)),
        services.db.transaction() as conn,
    ):
        conn.execute(
            "INSERT INTO vector_dedicated_graphs (workspace_id, dims, generation, index_name) "
            "VALUES (%s, %s, %s, 'x')",
            (SMALL, DIMS, generation),
        )


def test_a_workspace_grown_past_the_threshold_by_single_writes_gets_its_graph(stack):
    services, owner = stack
    with psycopg.connect(owner) as conn:
        generation = vector_index.published(conn, DIMS)
    rng = random.Random(4848)
    for _ in range(THRESHOLD - 300):  # one at a time: in the published graph at once (vector_gen 0)
        services.memories.remember(SMALL, MemoryCreate(content=uniform_sentence(rng)))
    before = _ranked(services, SMALL)
    # The indexing pass with the owner's credentials notices it (no row is pending: nothing else to do).
    done = VectorIndexer(services.db, services.settings, DIMS).index_vectors()
    assert done["indexed"] == 0 and done["dedicated"] == [SMALL]
    own = vector_index.dedicated_name(DIMS, generation, SMALL)
    assert own in _indexes(owner) and (SMALL, generation) in _recorded(owner)
    assert own in _plan(services, SMALL, _queries()[0])[1]
    assert _ranked(services, SMALL) == before
    # A single write after the build is in both graphs, and found through the own graph.
    written, _, _ = services.memories.remember(
        SMALL, MemoryCreate(content="a zebra plays the tuba at midnight")
    )
    page = services.recaller.recall(
        [SMALL], RecallRequest(query="a zebra plays the tuba at midnight", limit=5)
    )
    assert page["memories"][0]["id"] == written["id"]
    assert dedicated_as_owner(services.settings, DIMS) == []  # nothing more to build


def test_the_own_graph_literal_is_quoted():
    sql = hybrid_sql(DIMS, 3, "ws'x%")
    assert "m.workspace_id = 'ws''x%%'" in sql
    assert vector_index.index_ddl(DIMS, 3, workspace_id="ws'x").endswith("AND workspace_id = 'ws''x'")
    assert vector_index.dedicated_name(DIMS, 3, "ws'x").startswith("memories_embedding_384_g3_w")


def test_migrate_makes_each_own_graphs_function_and_drops_the_stale_ones(stack):
    _, owner = stack
    with psycopg.connect(owner, autocommit=True) as conn:
        generation = vector_index.published(conn, DIMS)
        own = own_function(DIMS, generation, BIG)
        conn.execute("CREATE FUNCTION recall_own_00000000_384() RETURNS int LANGUAGE sql AS 'SELECT 1'")
        conn.execute(f"DROP FUNCTION {own.name}")
        ensure_recall_function(conn, DIMS, generation=generation)
        left = {
            r[0]
            for r in conn.execute(
                "SELECT proname FROM pg_proc WHERE proname LIKE 'recall\\_own\\_%%'"
            ).fetchall()
        }
        have = vector_index.dedicated(conn, DIMS, generation)
    # BIG's again, one for each other workspace with a graph of its own (SMALL's, once it grew) and for no other;
    # the stand-in for a gone one dropped.
    assert BIG in have and FILLERS[0] not in have
    assert left == {own_function(DIMS, generation, w).name for w in have}


def test_a_missing_own_function_falls_back_to_the_ad_hoc_statement(stack):
    """Called but gone (an older deploy's, a restored snapshot): the recall is asked again ad hoc, same answers,
    and later ones do not call it for a while."""
    services, owner = stack
    query = _queries()[0]
    with psycopg.connect(owner, autocommit=True) as conn:
        generation = vector_index.published(conn, DIMS)
    own = own_function(DIMS, generation, BIG)
    assert _reused(services, BIG, query)[0] == own.call
    before = _ranked(services, BIG)
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(f"DROP FUNCTION {own.name}")
    try:
        assert _ranked(services, BIG) == before
        assert _reused(services, BIG, query)[0] == hybrid_sql(DIMS, generation, BIG)
    finally:
        with psycopg.connect(owner, autocommit=True) as conn:
            ensure_recall_function(conn, DIMS, generation=generation)
        services.recaller._missing.clear()
    assert _reused(services, BIG, query)[0] == own.call
