"""The AWS bulk-build chain (shared/domain/indexing/indexer.py → functions/migrate/handler.py): the worker, with
only the app role's credentials, asks the migrate function for a graph build once, not while one is in flight
(migration 0047: ``building_since``, or the build lock held), and again once a mark is stale or cleared; an ask
that waited behind the build it asked for builds nothing; the function bounds the build by its invocation's time
left, and a build cut off there is abandoned cleanly, after which neither the worker nor the function tries again
(rows move row by row) until the owner builds elsewhere (``memorylayer index --bulk``).

On a database of its own (builds publish generations), the app role behind the stand-in RDS Proxy, the owner
direct; the Lambda API stubbed at the wire (botocore's Stubber: an ask nobody expected fails the test).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any, cast

import psycopg
import pytest
from botocore.stub import Stubber

from bench.common import uniform_sentence
from shared.app.services import Services
from shared.core.settings import Settings, get_settings
from shared.db import vector_index
from shared.domain.indexing import bulk as bulk_build
from shared.domain.indexing import plan as bulk_plan
from shared.domain.requests import BatchCreate, BatchRequest
from shared.local.lambda_context import LambdaContext
from shared.local.rds_proxy import RdsProxyStandIn
from tests.own_database import owner_and_app_services

DIMS = 384
WS = "ws_asks"
FUNCTION = "ml-test-migrate"
ASK = {
    "FunctionName": FUNCTION,
    "InvocationType": "Event",
    "Payload": b'{"action": "rebuild_vector_index"}',
}
IN_FLIGHT = {"status": "in_flight", "kind": "index_vectors", "indexed": 0}
MARKS = (
    "SELECT published, building, building_since IS NOT NULL AS since, build_timed_out_at IS NOT NULL AS timed_out "
    "FROM vector_index_generations WHERE dims = %s"
)


@pytest.fixture()
def stack(superuser_url: str, rds_proxy: RdsProxyStandIn) -> Iterator[tuple[Services, str]]:
    """(services as the worker in AWS: the app role through the proxy, no owner DSN, the migrate function to ask;
    the owner's DSN)."""
    with owner_and_app_services(
        superuser_url, rds_proxy.dsn, "asks", vector_rebuild_function=FUNCTION, aws_region="us-east-1"
    ) as built:
        yield built


@pytest.fixture()
def lambda_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stubber]:
    """The worker's boto3 Lambda client, answering only the invokes a test expects (``_expect_ask``)."""
    import boto3

    client = boto3.client("lambda", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    monkeypatch.setattr(boto3, "client", lambda service, **_: client)
    with Stubber(client) as stub:
        yield stub
        stub.assert_no_pending_responses()


def _expect_ask(stub: Stubber) -> None:
    stub.add_response("invoke", {"StatusCode": 202}, ASK)


def _bulk(services: Services, n: int, seed: int) -> None:
    rng = random.Random(seed)
    services.memories.batch(
        WS,
        BatchRequest(operations=[BatchCreate(op="create", content=uniform_sentence(rng)) for _ in range(n)]),
    )


def _bulk_builds_from_400_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bulk_plan, "BULK_MIN_PENDING", 400)
    monkeypatch.setattr(bulk_plan, "BULK_MIN_SHARE", 0.0)
    monkeypatch.setattr(bulk_build, "DROP_GRACE_S", 0.0)


def _marks(owner: str) -> dict[str, Any]:
    with psycopg.connect(owner, row_factory=psycopg.rows.dict_row) as conn:
        row = conn.execute(MARKS, (DIMS,)).fetchone()
    assert row is not None
    return row


def _migrate(owner: str, *, timeout_ms: int, event: dict[str, Any] | None = None) -> dict[str, Any]:
    """The migrate function's answer to the worker's ask, invoked with ``timeout_ms`` left, as the owner of the
    test's database (its environment as the stack sets it, but the owner's DSN for the secret)."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("MEMORYLAYER_DATABASE_OWNER_URL", owner)
        env.setenv("MEMORYLAYER_EMBEDDING_PROVIDER", "hash")
        get_settings.cache_clear()
        try:
            from functions.migrate import handler as migrate

            context = LambdaContext.for_function(FUNCTION, timeout_ms=timeout_ms)
            return migrate.handler(event or {"action": "rebuild_vector_index"}, cast(Any, context))
        finally:
            get_settings.cache_clear()


def _pending(owner: str) -> int:
    with psycopg.connect(owner) as conn:
        g = vector_index.published(conn, DIMS)
        row = conn.execute(
            "SELECT count(*) FROM memories WHERE vector_gen > %s AND deleted_at IS NULL", (g,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_the_worker_asks_once_per_build_in_flight(stack, lambda_api, monkeypatch):
    services, owner = stack
    worker = services.worker
    _bulk_builds_from_400_rows(monkeypatch)
    _bulk(services, 500, seed=41)
    g0 = _marks(owner)["published"]

    _expect_ask(lambda_api)
    assert worker.index_vectors()["status"] == "requested"
    # The migrate function began the build (bulk.rebuild's mark, under the build lock, which it has let go of
    # here: the mark alone keeps the worker from asking).
    with psycopg.connect(owner, autocommit=True) as conn:
        vector_index.begin_build(conn, DIMS)
    assert _marks(owner) == {"published": g0, "building": g0 + 1, "since": True, "timed_out": False}
    for _ in range(3):  # an import's further messages: no invoke (the stub has no answer for one)
        assert worker.index_vectors() == IN_FLIGHT
    assert _pending(owner) == 500  # and nothing moved row by row under the build

    # A mark older than the function's longest run is a build that died without clearing it: ask again.
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(
            "UPDATE vector_index_generations SET building_since = now() - make_interval(secs => %s) "
            "WHERE dims = %s",
            (bulk_plan.BUILD_IN_FLIGHT_S + 60, DIMS),
        )
    _expect_ask(lambda_api)
    assert worker.index_vectors()["status"] == "requested"

    # That build (begun past the dead one) is abandoned: the mark goes, and the next message asks again.
    with psycopg.connect(owner, autocommit=True) as conn:
        assert vector_index.begin_build(conn, DIMS) == g0 + 2
        assert worker.index_vectors() == IN_FLIGHT
        vector_index.abandon_build(conn, DIMS)
    assert _marks(owner) == {"published": g0, "building": None, "since": False, "timed_out": False}
    _expect_ask(lambda_api)
    assert worker.index_vectors()["status"] == "requested"

    # A build whose mark is stale but which still runs (the CLI's, longer than any Lambda) holds the build lock.
    with psycopg.connect(owner, autocommit=True) as conn, vector_index.build_lock(conn) as locked:
        assert locked
        assert worker.index_vectors() == IN_FLIGHT

    # A finished build publishes and clears the mark; nothing pending is left to ask for.
    with psycopg.connect(owner, autocommit=True) as conn:
        built = bulk_build.rebuild(conn, DIMS, memory_mb=Settings().vector_build_memory_mb, drop_grace_s=0)
    assert built is not None and built.generation == g0 + 1  # the abandoned ones left no generation behind
    assert _marks(owner) == {"published": g0 + 1, "building": None, "since": False, "timed_out": False}
    assert worker.index_vectors()["status"] == "done"
    assert _pending(owner) == 0
    # An ask that waited in Lambda's queue behind that build finds nothing to build, and builds nothing.
    assert _migrate(owner, timeout_ms=900_000) == {"status": "not_needed"}
    assert _marks(owner)["published"] == g0 + 1


def test_a_build_too_long_for_the_function_is_cancelled_and_left_to_the_owner(
    stack, lambda_api, monkeypatch, tmp_path
):
    """The migrate function with little time left: PostgreSQL cancels the build at the function's remaining time
    less its margin; nothing is published, nothing is marked in flight, no invalid graph stays behind. The worker
    then moves rows row by row instead of asking again, until the owner's build elsewhere publishes."""
    services, owner = stack
    _bulk(services, 500, seed=42)
    g0 = _marks(owner)["published"]
    _bulk_builds_from_400_rows(monkeypatch)
    from functions.migrate.handler import REBUILD_MARGIN_MS

    assert _migrate(owner, timeout_ms=REBUILD_MARGIN_MS + 1) == {"status": "timed_out", "timeout_ms": 1}
    assert _marks(owner) == {"published": g0, "building": None, "since": False, "timed_out": True}
    with psycopg.connect(owner) as conn:
        left = conn.execute("SELECT to_regclass(%s)", (vector_index.index_name(DIMS, g0 + 1),)).fetchone()
    assert left == (None,)  # the invalid graph the cancelled build left is dropped at once

    # An ask from before the cut-off does not try again: the function's time is too short for this graph.
    assert _migrate(owner, timeout_ms=900_000) == {"status": "too_large"}
    assert _marks(owner)["published"] == g0
    # Large enough for a build, but the function cannot build it: row by row, no invoke.
    assert services.worker.index_vectors()["indexed"] == 500
    assert _pending(owner) == 0

    # The documented way out, as the owner from elsewhere: publishes, and clears the mark.
    from shared.cli import main as cli

    app = services.settings.database_url
    assert cli(["index", "--bulk", "--database-url", app, "--database-owner-url", owner]) == 0
    assert _marks(owner) == {"published": g0 + 1, "building": None, "since": False, "timed_out": False}


def test_a_workspace_grown_large_between_builds_gets_its_own_graph_through_one_ask(
    stack, lambda_api, monkeypatch
):
    """In AWS the worker cannot build a workspace's own graph (DDL is the owner's): when a workspace is past the
    threshold at the published generation without one, it asks the migrate function once, which builds it
    without a bulk build; no ask while a build holds the lock, none once the graph is there."""
    services, owner = stack
    worker = services.worker
    _bulk(services, 500, seed=43)
    with psycopg.connect(owner, autocommit=True) as conn:  # in the published graph, no own graph at 10,000
        built = bulk_build.rebuild(conn, DIMS, memory_mb=Settings().vector_build_memory_mb, drop_grace_s=0)
    assert built is not None and built.dedicated == ()
    # Given the threshold now below the workspace's size (as if it had grown by single writes)
    monkeypatch.setattr(vector_index, "DEDICATED_MIN_ROWS", 300)
    monkeypatch.setattr(vector_index, "DEDICATED_MAX_SHARE", 1.0)
    with psycopg.connect(owner, autocommit=True) as conn, vector_index.build_lock(conn) as locked:
        assert locked
        assert worker.index_vectors()["status"] == "done"  # a build runs: no ask (the stub has none to give)

    _expect_ask(lambda_api)
    assert worker.index_vectors()["status"] == "done"  # asked, and nothing pending to move
    assert _migrate(owner, timeout_ms=900_000) == {"status": "not_needed", "dedicated": [WS]}
    with psycopg.connect(owner) as conn:
        assert vector_index.dedicated(conn, DIMS, built.generation) == {WS}
        assert conn.execute(
            "SELECT to_regclass(%s) IS NOT NULL", (vector_index.dedicated_name(DIMS, built.generation, WS),)
        ).fetchone() == (True,)
    assert worker.index_vectors()["status"] == "done"  # it has one now: no further ask


def _own_graphs(owner: str) -> set[str]:
    """Every own-graph index of the table, valid or not (a cancelled build leaves an invalid one)."""
    with psycopg.connect(owner) as conn:
        rows = conn.execute(
            "SELECT relname FROM pg_class WHERE relkind = 'i' AND relname ~ '^memories_embedding_[0-9]+_g[0-9]+_w'"
        ).fetchall()
    return {r[0] for r in rows}


def _two_large_workspaces(services: Services, owner: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """WS and a second workspace bulk-written and in the published graph, both past a lowered threshold with no
    graph of their own yet; returns the published generation."""
    _bulk(services, 400, seed=44)
    rng = random.Random(45)
    services.memories.batch(
        "ws_asks_2",
        BatchRequest(
            operations=[BatchCreate(op="create", content=uniform_sentence(rng)) for _ in range(350)]
        ),
    )
    with psycopg.connect(owner, autocommit=True) as conn:
        built = bulk_build.rebuild(conn, DIMS, memory_mb=Settings().vector_build_memory_mb, drop_grace_s=0)
    assert built is not None and built.dedicated == ()
    monkeypatch.setattr(vector_index, "DEDICATED_MIN_ROWS", 300)
    monkeypatch.setattr(vector_index, "DEDICATED_MAX_SHARE", 1.0)
    with psycopg.connect(owner) as conn:
        assert vector_index.dedicated_missing(conn, DIMS, built.generation) == [WS, "ws_asks_2"]
    return built.generation


def test_a_deploy_bounds_the_own_graph_builds_and_leaves_the_rest_to_the_next_pass(
    stack, lambda_api, monkeypatch
):
    """A deploy's migrate (Create/Update) gives the workspaces' own graphs only the time it has: with none left,
    each build is cancelled, its invalid index dropped, and the deploy still succeeds (no rollback). The worker's
    next pass asks for them, and the function builds them there."""
    services, owner = stack
    generation = _two_large_workspaces(services, owner, monkeypatch)
    from functions.migrate.handler import REBUILD_MARGIN_MS

    deploy = {"RequestType": "Update", "PhysicalResourceId": "memorylayer-schema"}
    done = _migrate(owner, timeout_ms=REBUILD_MARGIN_MS + 1, event=deploy)
    assert done["PhysicalResourceId"] == "memorylayer-schema"
    assert _own_graphs(owner) == set()  # nothing built, nothing invalid left behind
    with psycopg.connect(owner) as conn:
        assert vector_index.dedicated(conn, DIMS, generation) == set()
    assert _marks(owner)["timed_out"] is False  # a deploy's budget says nothing about the function's

    _expect_ask(lambda_api)
    assert services.worker.index_vectors()["status"] == "done"
    assert _migrate(owner, timeout_ms=900_000) == {"status": "not_needed", "dedicated": [WS, "ws_asks_2"]}
    assert len(_own_graphs(owner)) == 2


def _end_when_a_drop_waits(owner: str, writer: psycopg.Connection[Any]) -> threading.Thread:
    """Rolls ``writer`` back once a DROP INDEX CONCURRENTLY waits on a lock (the cancelled build's invalid index:
    the drop waits for every open transaction on the table), or after a minute whatever happens."""

    def watch() -> None:
        try:
            with psycopg.connect(owner, autocommit=True) as watcher:
                give_up = time.monotonic() + 60
                while time.monotonic() < give_up:
                    waiting = watcher.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND query ILIKE 'DROP INDEX CONCURRENTLY%'"
                    ).fetchone()
                    if waiting and waiting[0]:
                        return
                    time.sleep(0.05)
        finally:
            writer.rollback()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_an_own_graph_too_large_for_the_function_is_cancelled_and_asked_for_no_more(
    stack, lambda_api, monkeypatch
):
    """The function's own-graph pass with too little time: PostgreSQL cancels the build, its invalid index goes,
    ``building`` stays clear, and the size is marked too large, so the worker stops asking (an ask nobody expects
    fails the stub) instead of repeating the build on every pass. The build is held past its 2 s by a writer's
    open transaction (CREATE INDEX CONCURRENTLY waits for it), so it is cut off by the bound, not by luck; the
    writer ends once the drop of the cancelled build's index waits for it (DROP INDEX CONCURRENTLY waits too)."""
    services, owner = stack
    _two_large_workspaces(services, owner, monkeypatch)
    from functions.migrate.handler import REBUILD_MARGIN_MS

    with psycopg.connect(owner) as writer:
        writer.execute("LOCK TABLE memories IN ROW EXCLUSIVE MODE")  # an open write transaction
        released = _end_when_a_drop_waits(owner, writer)
        assert _migrate(owner, timeout_ms=REBUILD_MARGIN_MS + 2000) == {"status": "not_needed"}
        released.join()
    assert _own_graphs(owner) == set()
    marks = _marks(owner)
    assert marks["building"] is None and marks["timed_out"] is True
    assert services.worker.index_vectors()["status"] == "done"  # no ask
    assert _migrate(owner, timeout_ms=900_000) == {"status": "too_large"}
    assert _own_graphs(owner) == set()


def test_a_rebuild_out_of_time_for_the_own_graphs_publishes_and_a_later_pass_builds_them(stack, monkeypatch):
    """The bulk build's table-wide graph fits, the workspaces' own graphs do not (the clock the own graphs read
    is past the deadline): the generation is published without them, named as left, and the next pass of
    ``dedicated_as_owner`` builds them; the owner's session checks its client while building."""
    import types

    from shared.domain.indexing import dedicated_as_owner

    services, owner = stack
    generation = _two_large_workspaces(services, owner, monkeypatch)
    _bulk(services, 50, seed=46)
    late = types.SimpleNamespace(monotonic=lambda: time.monotonic() + 3600)
    with monkeypatch.context() as clock:
        clock.setattr(vector_index, "time", late)
        with psycopg.connect(owner, autocommit=True) as conn:
            built = bulk_build.rebuild(
                conn, DIMS, memory_mb=Settings().vector_build_memory_mb, drop_grace_s=0, timeout_ms=600_000
            )
    assert built is not None and built.generation == generation + 1
    assert built.dedicated == () and built.dedicated_left == (WS, "ws_asks_2")
    assert _marks(owner) == {
        "published": generation + 1,
        "building": None,
        "since": False,
        "timed_out": False,
    }
    assert _own_graphs(owner) == set()
    settings = services.settings.model_copy(update={"database_owner_url": owner})
    assert dedicated_as_owner(settings, DIMS, timeout_ms=600_000) == [WS, "ws_asks_2"]
    assert _own_graphs(owner) == {
        vector_index.dedicated_name(DIMS, generation + 1, w) for w in (WS, "ws_asks_2")
    }


def test_the_build_session_checks_that_its_client_is_still_there(stack) -> None:
    """A migrate function killed mid-build leaves a dead socket: the owner's build session polls for it, so
    PostgreSQL cancels the build instead of running on with the lock."""
    _, owner = stack
    with psycopg.connect(owner, autocommit=True) as conn:
        with vector_index.build_memory(conn, memory_mb=64, parallel_workers=0):
            row = conn.execute("SHOW client_connection_check_interval").fetchone()
            assert row == ("10s",)
        assert conn.execute("SHOW client_connection_check_interval").fetchone() == ("0",)
