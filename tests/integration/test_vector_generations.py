"""The HNSW graph built in bulk by generations (shared/domain/indexing/, shared/db/vector_index.py, migration
0021), on a database of its own (it publishes new generations, which other modules' recall functions would not
expect), with the app role behind the stand-in RDS Proxy and the owner on a direct connection, as in AWS.

- a bulk rebuild changes no result of a fixed query set (the pending tail is scanned exactly; the graph, at
  this size, finds the same neighbours);
- while rows are pending, recall's vector arm is exact;
- a write during the build, bulk or single, is not lost and is found;
- the app role can neither build a graph nor publish a generation, and nothing pins the proxy.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator

import psycopg
import pytest

from bench.common import uniform_query, uniform_sentence
from shared.app.services import Services
from shared.core.settings import Settings
from shared.db import vector_index
from shared.domain.indexing import InlineIndexer, index_pending
from shared.domain.indexing import bulk as bulk_build
from shared.domain.indexing import plan as bulk_plan
from shared.domain.requests import BatchCreate, BatchRequest, MemoryCreate, RecallRequest
from shared.local.rds_proxy import RdsProxyStandIn
from tests.own_database import OWNER, owner_and_app_services

DIMS = 384
WS = "ws_gen"
# The one source of the build's memory, as every caller passes it.
MEMORY_MB = Settings().vector_build_memory_mb


@pytest.fixture(scope="module")
def stack(superuser_url: str, owner_url: str, rds_proxy: RdsProxyStandIn) -> Iterator[tuple[Services, str]]:
    """(services as the app role through the proxy, with the owner's DSN; the owner's DSN)."""
    with owner_and_app_services(superuser_url, rds_proxy.dsn, "gen", database_owner_url=OWNER) as built:
        yield built


def _bulk(services: Services, texts: list[str]) -> None:
    for start in range(0, len(texts), 500):
        ops = [BatchCreate(op="create", content=t) for t in texts[start : start + 500]]
        services.memories.batch(WS, BatchRequest(operations=ops))


def _state(owner: str) -> tuple[int, int]:
    """(published generation, pending rows)."""
    with psycopg.connect(owner) as conn:
        g = vector_index.published(conn, DIMS)
        (n,) = conn.execute(  # type: ignore[misc]
            "SELECT count(*) FROM memories WHERE vector_gen > %s AND deleted_at IS NULL", (g,)
        ).fetchone()
    return g, n


def _graph_options(owner: str, generation: int) -> list[str] | None:
    """The build parameters generation ``generation``'s graph was made with (pg_class.reloptions)."""
    with psycopg.connect(owner) as conn:
        row = conn.execute(
            "SELECT reloptions FROM pg_class WHERE oid = to_regclass(%s)",
            (vector_index.index_name(DIMS, generation),),
        ).fetchone()
    return row[0] if row else None


def _top(services: Services, queries: list[str]) -> list[list[tuple[str, float]]]:
    services.recaller.forget_generation()
    out = []
    for q in queries:
        found = services.recaller.recall([WS], RecallRequest(query=q, limit=10))["memories"]
        out.append([(m["id"], m["relevance_score"]) for m in found])
    return out


def up_to_ties(results: list[tuple[str, float]]) -> tuple[list[float], set[str]]:
    """The scores in order, and the ids above the last score: which of several memories tied at the cut of
    the top 10 makes it in is the graph's choice, and a rebuilt graph may choose another."""
    scores = [score for _, score in results]
    return scores, {memory for memory, score in results if scores and score > scores[-1]}


def _exact_vector_ids(owner: str, services: Services, query: str, k: int) -> list[str]:
    q = services.embedder.embed_query(query)
    with psycopg.connect(owner) as conn:
        from pgvector.psycopg import register_vector

        register_vector(conn)
        conn.execute("SET enable_indexscan = off")  # the owner's own session: an exact sort
        rows = conn.execute(
            "SELECT id FROM memories WHERE workspace_id = %s AND deleted_at IS NULL "
            "ORDER BY embedding::vector(384) <=> %s, id LIMIT %s",
            (WS, q, k),
        ).fetchall()
    return [r[0] for r in rows]


def test_a_bulk_rebuild_changes_no_result_and_pending_rows_are_exact(stack, rds_proxy):
    services, owner = stack
    rng = random.Random(22)
    _bulk(services, [uniform_sentence(rng) for _ in range(1500)])
    g0, waiting = _state(owner)
    assert waiting == 1500  # bulk rows skip the graph
    # The migration's graph and every rebuilt one carry the measured build parameters (vector_index.GRAPH_*).
    options = [f"m={vector_index.GRAPH_M}", f"ef_construction={vector_index.GRAPH_EF_CONSTRUCTION}"]
    assert _graph_options(owner, g0) == options
    queries = [uniform_query(rng) for _ in range(15)]
    # Pending: the vector arm is the exact scan. Its candidates (k = 50 by default) hold the exact top 10.
    q = queries[0]
    exact = _exact_vector_ids(owner, services, q, 10)
    services.recaller.forget_generation()
    with services.db.connection() as conn:
        sql, params = services.recaller.statement([WS], RecallRequest(query=q, limit=10), conn)
        cut = sql.split("vec AS (")[0].rstrip().rstrip(",")  # the statement up to the vector arm's rows
        arm = [r["id"] for r in conn.execute(cut + " SELECT id FROM vec_all ORDER BY dist, id", params)]
    assert arm[:10] == exact
    before = _top(services, queries)

    with psycopg.connect(owner, autocommit=True) as conn:
        built = bulk_build.rebuild(conn, DIMS, memory_mb=MEMORY_MB, drop_grace_s=0)
    assert built is not None and built.generation == g0 + 1
    assert _state(owner) == (g0 + 1, 0)
    with psycopg.connect(owner) as conn:
        names = {r[0] for r in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'memories'")}
    assert vector_index.index_name(DIMS, g0 + 1) in names
    assert vector_index.index_name(DIMS, g0) not in names  # the old graph is gone
    assert _graph_options(owner, g0 + 1) == options
    after = _top(services, queries)
    assert [up_to_ties(r) for r in after] == [up_to_ties(r) for r in before]
    # The recall walked the new graph, through the new generation's own function or the ad-hoc statement.
    assert services.recaller.generation() == g0 + 1
    with services.db.connection() as conn:
        sql, params = services.recaller.statement([WS], RecallRequest(query=q, limit=10), conn)
        plan = "\n".join(r["QUERY PLAN"] for r in conn.execute("EXPLAIN " + sql, params))
    assert vector_index.index_name(DIMS, g0 + 1) in plan
    assert [p for p in rds_proxy.pins if p.user == "memorylayer_app"] == []


def test_a_write_during_the_build_is_not_lost_and_is_found(stack):
    services, owner = stack
    rng = random.Random(23)
    _bulk(services, [uniform_sentence(rng) for _ in range(3000)])
    g0, _ = _state(owner)
    result: dict = {}

    def build() -> None:
        with psycopg.connect(owner, autocommit=True) as conn:
            result["built"] = bulk_build.rebuild(conn, DIMS, memory_mb=MEMORY_MB, drop_grace_s=0)

    builder = threading.Thread(target=build)
    builder.start()
    deadline = time.monotonic() + 30
    with psycopg.connect(owner, autocommit=True) as conn:
        while time.monotonic() < deadline:
            (building,) = conn.execute(  # type: ignore[misc]
                "SELECT building FROM vector_index_generations WHERE dims = %s", (DIMS,)
            ).fetchone()
            if building is not None:
                break
            time.sleep(0.01)
    assert building == g0 + 1
    # During the build: a bulk write (gets G+2: pending after) and a single one (generation 0: in the graph).
    services.memories.batch(
        WS, BatchRequest(operations=[BatchCreate(op="create", content="zebra quokka during the build")])
    )
    single, _, _ = services.memories.remember(WS, MemoryCreate(content="narwhal axolotl during the build"))
    builder.join(timeout=120)
    assert result["built"] is not None and result["built"].generation == g0 + 1
    g1, waiting = _state(owner)
    assert g1 == g0 + 1 and waiting == 1  # the bulk row waits for the next generation
    services.recaller.forget_generation()
    for query in ("zebra quokka during the build", "narwhal axolotl during the build"):
        top = services.recaller.recall([WS], RecallRequest(query=query, limit=3))["memories"]
        assert top and top[0]["content"] == query
    assert single is not None
    assert index_pending(services.db, dims=DIMS) == 1  # the row-by-row path takes the small rest
    assert _state(owner) == (g1, 0)
    top = services.recaller.recall([WS], RecallRequest(query="zebra quokka during the build", limit=1))
    assert top["memories"][0]["content"] == "zebra quokka during the build"


def test_a_build_that_died_leaves_no_row_behind(stack):
    """A rebuild whose process died left ``building`` set; bulk writes since got the generation after it. The next
    rebuild starts past it, so those rows are in its graph."""
    services, owner = stack
    g0, _ = _state(owner)
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute("UPDATE vector_index_generations SET building = published + 1 WHERE dims = %s", (DIMS,))
    _bulk(services, ["orphaned by a dead build, a pelican", "orphaned by a dead build, a heron"])
    with psycopg.connect(owner, autocommit=True) as conn:
        built = bulk_build.rebuild(conn, DIMS, memory_mb=MEMORY_MB, drop_grace_s=0)
    assert built is not None and built.generation == g0 + 2
    assert _state(owner) == (g0 + 2, 0)
    services.recaller.forget_generation()
    top = services.recaller.recall([WS], RecallRequest(query="orphaned by a dead build, a heron", limit=1))
    assert top["memories"][0]["content"] == "orphaned by a dead build, a heron"


def test_the_worker_builds_in_bulk_only_with_the_owner_and_a_large_pending_set(stack, monkeypatch):
    services, owner = stack
    rng = random.Random(24)
    g0, _ = _state(owner)
    monkeypatch.setattr(bulk_plan, "BULK_MIN_PENDING", 400)
    _bulk(services, [uniform_sentence(rng) for _ in range(200)])
    assert services.worker.index_vectors()["indexed"] == 200  # small: row by row
    assert _state(owner) == (g0, 0)
    _bulk(services, [uniform_sentence(rng) for _ in range(1500)])
    assert services.worker.index_vectors(defer_bulk=True)["status"] == "deferred"
    assert _state(owner) == (g0, 1500)  # nothing moved row by row meanwhile
    done = services.worker.index_vectors()
    assert done["generation"] == g0 + 1
    assert _state(owner) == (g0 + 1, 0)
    # Without the owner's credentials (the app's DSN only): row by row, whatever the size.
    _bulk(services, [uniform_sentence(rng) for _ in range(600)])
    monkeypatch.setattr(services.worker.settings, "database_owner_url", None)
    assert services.worker.index_vectors()["indexed"] == 600
    assert _state(owner) == (g0 + 1, 0)


def test_in_aws_the_worker_asks_the_migrate_function_for_the_build(stack, monkeypatch):
    """The worker has only the app role's credentials there: a large pending set becomes an asynchronous
    invoke of the migrate function (functions/migrate/handler.py, action rebuild_vector_index)."""
    import boto3

    services, owner = stack
    rng = random.Random(26)
    monkeypatch.setattr(bulk_plan, "BULK_MIN_PENDING", 400)
    monkeypatch.setattr(bulk_plan, "BULK_MIN_SHARE", 0.0)
    invoked: list[dict] = []

    class FakeLambda:
        def invoke(self, **kwargs):
            invoked.append(kwargs)

    monkeypatch.setattr(boto3, "client", lambda service, **_: FakeLambda())
    worker = services.worker
    monkeypatch.setattr(worker.settings, "database_owner_url", None)
    monkeypatch.setattr(worker.settings, "vector_rebuild_function", "ml-dev-migrate")
    _bulk(services, [uniform_sentence(rng) for _ in range(500)])
    assert worker.index_vectors()["status"] == "requested"
    assert invoked == [
        {
            "FunctionName": "ml-dev-migrate",
            "InvocationType": "Event",
            "Payload": b'{"action": "rebuild_vector_index"}',
        }
    ]
    monkeypatch.setattr(bulk_plan, "BULK_MIN_PENDING", 10_000)  # small again: row by row
    assert worker.index_vectors()["indexed"] == 500
    assert _state(owner)[1] == 0


def _bulk_builds_from_400_rows(monkeypatch) -> None:
    """A pending set of 400 rows is enough for a bulk build, whatever the graph holds; the old graph goes at once."""
    monkeypatch.setattr(bulk_plan, "BULK_MIN_PENDING", 400)
    monkeypatch.setattr(bulk_plan, "BULK_MIN_SHARE", 0.0)
    monkeypatch.setattr(bulk_build, "DROP_GRACE_S", 0.0)


def _wait_for_state(owner: str, want: tuple[int, int], timeout_s: float = 60) -> None:
    """Until ``_state`` is ``want`` (an indexer building in its own thread) or the time is up; the caller asserts."""
    deadline = time.monotonic() + timeout_s
    while _state(owner) != want and time.monotonic() < deadline:
        time.sleep(0.2)


def test_the_inline_indexer_builds_once_the_bulk_writes_pause(stack, monkeypatch):
    services, owner = stack
    rng = random.Random(25)
    g0, _ = _state(owner)
    _bulk_builds_from_400_rows(monkeypatch)
    # The pause must outlast one batch of 500 on a loaded 2-core machine: a shorter one "happens" mid-load, a
    # build begins between batches and a second one follows.
    indexer = InlineIndexer(services.worker, quiet_s=3.0)
    for _ in range(3):
        _bulk(services, [uniform_sentence(rng) for _ in range(500)])
        indexer.request()  # writes keep arriving: deferred
    assert _state(owner) == (g0, 1500)
    _wait_for_state(owner, (g0 + 1, 0))
    assert _state(owner) == (g0 + 1, 0)


def test_no_bulk_build_starts_while_a_bulk_write_is_in_flight(stack, monkeypatch):
    """The pause is counted from the last write's end, not from the last ask: one slow batch of an import (longer
    than the pause) must not let a build begin under it (the rows written meanwhile would need a second build of
    the whole graph)."""
    services, owner = stack
    rng = random.Random(28)
    g0, _ = _state(owner)
    _bulk_builds_from_400_rows(monkeypatch)
    indexer = InlineIndexer(services.worker, quiet_s=0.2)
    _bulk(services, [uniform_sentence(rng) for _ in range(500)])
    with indexer.writing():  # a second batch, slow: in flight for many pauses
        indexer.request()  # the first batch's ask
        time.sleep(1.5)  # the deferred run has looked again several times meanwhile
        assert _state(owner) == (g0, 500)
        _bulk(services, [uniform_sentence(rng) for _ in range(100)])
    indexer.request()  # the slow batch's own ask, as it ends
    _wait_for_state(owner, (g0 + 1, 0))
    assert _state(owner) == (g0 + 1, 0)  # one build, of both batches


def test_the_app_role_can_neither_build_a_graph_nor_publish_a_generation(stack):
    services, _ = stack
    with services.db.connection() as conn:
        g = vector_index.published(conn, DIMS)
    for statement in (
        vector_index.index_ddl(DIMS, g + 7, concurrently=False),
        f"DROP INDEX {vector_index.index_name(DIMS, g)}",
        "UPDATE vector_index_generations SET published = published + 1",
    ):
        with (
            pytest.raises(psycopg.errors.InsufficientPrivilege),
            services.db.transaction() as conn,
        ):
            conn.execute(statement)
    with services.db.connection() as conn:
        assert vector_index.published(conn, DIMS) == g


def test_the_cli_indexes_row_by_row_or_builds_in_bulk_as_the_owner(stack):
    from tests.integration.test_cli import run_cli

    services, owner = stack
    rng = random.Random(27)
    env = {
        "MEMORYLAYER_DATABASE_URL": str(services.settings.database_url),
        "MEMORYLAYER_DATABASE_OWNER_URL": owner,
    }
    g0, _ = _state(owner)
    _bulk(services, [uniform_sentence(rng) for _ in range(300)])
    out = run_cli("index", env=env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["indexed"] == 300  # small: row by row
    assert _state(owner) == (g0, 0)
    _bulk(services, [uniform_sentence(rng) for _ in range(300)])
    out = run_cli("index", "--bulk", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"generation {g0 + 1} published")
    assert _state(owner) == (g0 + 1, 0)
