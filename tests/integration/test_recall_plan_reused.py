"""Recall's plan reused: a request without optional filters runs the statement through a PL/pgSQL function
made from recall.sql (plan kept per session), called as an ordinary query: over a small scope the one that sorts
it exactly, over a large share of the table the one that walks the graph. Each ranks exactly as the ad-hoc
statement, pins nothing through the stand-in RDS Proxy, stays behind row-level security, and any other shape
falls back to the ad-hoc statement.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row

from shared.core.settings import Settings
from shared.db import rls
from shared.db.pool import Database
from shared.db.recall import HOT_CONSTANTS, HotFunction, ensure_recall_function, hot_function, is_hot
from shared.domain.requests import RecallRequest
from shared.domain.retrieval import recall as recall_module
from shared.domain.retrieval.params import filter_params
from shared.domain.retrieval.recall import Recaller
from shared.local.rds_proxy import RdsProxyStandIn
from shared.providers.embeddings import create_embedder
from tests.integration.test_recall_golden import QUERIES, WS, golden  # noqa: F401  (golden: a fixture)

APP = "memorylayer_app"


def _rows(
    conn: psycopg.Connection[dict[str, Any]], sql: str, params: dict[str, Any]
) -> list[tuple[str, float, float]]:
    return [(r["id"], r["boosted"], r["relevance"]) for r in conn.execute(sql, params).fetchall()]


def _same(a: list[tuple[str, float, float]], b: list[tuple[str, float, float]]) -> bool:
    return [r[0] for r in a] == [r[0] for r in b] and all(
        math.isclose(x, y, rel_tol=0, abs_tol=1e-9)
        for ra, rb in zip(a, b, strict=True)
        for x, y in zip(ra[1:], rb[1:], strict=True)
    )


def test_every_optional_filter_has_its_hot_value():
    """A filter added to filter_params without a value here would be sent to the function as a parameter
    (planned generically); one here that filter_params lacks would make is_hot fail on every request."""
    params = filter_params(RecallRequest(query="x"), ["ws_a"])
    assert set(params) - {"ws"} == set(HOT_CONSTANTS)
    assert is_hot(params)
    assert not is_hot(filter_params(RecallRequest(query="x", types=["episodic"]), ["ws_a"]))
    assert not is_hot(filter_params(RecallRequest(query="x", include_history=True), ["ws_a"]))


@pytest.mark.parametrize("in_the_graph", [False, True], ids=["pending_tail", "hnsw_graph"])
def test_the_function_ranks_exactly_as_the_ad_hoc_statement(golden, in_the_graph):  # noqa: F811
    """The golden corpus and queries (tests/integration/test_recall_golden.py): every query of the hot shape
    gives the same ids, order and scores (1e-9) through the function as through the ad-hoc statement, run in
    one transaction (the same now(), the same graph). Once with the corpus in the exactly scanned tail, once
    with it in the HNSW graph, where the function's generic plan must walk the graph as the ad-hoc one does."""
    services, settings, _ = golden
    recaller = Recaller(services.db, services.embedder, settings)
    hot = hot_function(services.embedder.dimensions)
    sorts = hot_function(services.embedder.dimensions, walk=False)
    compared = 0
    with psycopg.connect(str(settings.database_url), row_factory=dict_row) as conn:
        from pgvector.psycopg import register_vector

        register_vector(conn)
        if in_the_graph:  # rolled back with the transaction: the golden corpus stays in the tail
            conn.execute("UPDATE memories SET vector_gen = 0")
            conn.execute("ANALYZE memories")
        for name, workspaces, body in QUERIES:
            sql, params = recaller.statement(workspaces, RecallRequest(**body), conn)
            if body["query"] == "*" or not is_hot(params):
                continue
            ad_hoc = _rows(conn, sql, params)
            assert _same(_rows(conn, sorts.call, params), ad_hoc), name  # a small scope, counted as it runs
            params["scope_n"] = 300  # as the cached count of a large scope would be
            assert _same(_rows(conn, hot.call, params), _rows(conn, sql, params)), name
            compared += 1
            if in_the_graph and name == "plain":
                plans = [
                    "\n".join(r["QUERY PLAN"] for r in conn.execute(f"EXPLAIN {sql}", params).fetchall())
                    for sql in (sql,)
                ]
                assert "memories_embedding_384" in plans[0]  # the ad-hoc statement walks the graph too
        conn.rollback()
    assert compared >= 15


@dataclass
class RecordingProxy(RdsProxyStandIn):
    """The stand-in proxy, also keeping every statement the client sent (what the database was asked)."""

    statements: list[str] = field(default_factory=list)

    def _inspect(self, kind: bytes, body: bytes, user: str) -> None:
        if kind == b"P":
            self.statements.append(body.partition(b"\0")[2].partition(b"\0")[0].decode(errors="replace"))
        elif kind == b"Q":
            self.statements.append(body.rstrip(b"\0").decode(errors="replace"))
        super()._inspect(kind, body, user)


@pytest.fixture(params=[True, False], ids=["walks", "sorts"])
def through_proxy(
    request: pytest.FixtureRequest, superuser_url: str, owner_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[RecordingProxy, Recaller, HotFunction]]:
    """A Recaller logged in as the app role through a recording stand-in proxy, and the function it is to call
    for a test workspace of a few memories once its count is known: the sorting one, as configured, or the
    walking one (the sorting one off, the size gates lowered so that any scope is large)."""
    walks = request.param
    if walks:
        monkeypatch.setattr(recall_module, "SCOPE_COUNT_CACHE_MIN", 1)
        monkeypatch.setattr(recall_module, "HOT_MIN_SHARE", 0.0)
    proxy = RecordingProxy(superuser_url)
    proxy.start()
    dsn = proxy.dsn(APP, str(conninfo_to_dict(superuser_url).get("dbname") or "postgres"))
    settings = Settings(
        database_url=dsn,
        embedding_provider="hash",
        db_pool_max=2,
        auth_mode="none",
        **({"recall_sorted_max_rows": 0} if walks else {}),
    )
    db = Database.from_settings(settings, purpose="api")
    try:
        yield proxy, Recaller(db, create_embedder(settings), settings), hot_function(384, walk=walks)
    finally:
        db.close()
        proxy.stop()


def _write(http: httpx.Client, ws: str, *contents: str) -> list[str]:
    ids = []
    for content in contents:
        r = http.post("/v1/memories", json={"content": content}, headers={"X-Workspace-ID": ws})
        assert r.status_code == 201, r.text
        ids.append(r.json()["memory"]["id"])
    return ids


def _called(proxy: RecordingProxy, function: HotFunction) -> int:
    return sum(function.name in s for s in proxy.statements)


def test_recall_through_the_proxy_uses_the_function_and_pins_nothing(through_proxy, http, ws):
    proxy, recaller, function = through_proxy
    _write(http, ws, "the lighthouse keeper drinks coffee", "a storm over the harbour", "coffee at the ferry")
    req = RecallRequest(query="lighthouse coffee")
    with rls.visible((ws,)):
        first = recaller.recall([ws], req)  # counts the scope: ad-hoc
        assert _called(proxy, function) == 0
        second = recaller.recall([ws], req)
        third = recaller.recall([ws], req)
    assert _called(proxy, function) == 2  # the fallback taken silently would leave this at 0
    assert [m["id"] for m in second["memories"]] == [m["id"] for m in first["memories"]]
    assert [m["id"] for m in third["memories"]] == [m["id"] for m in first["memories"]]
    assert first["memories"] and first["memories"][0]["content"] == "the lighthouse keeper drinks coffee"
    assert proxy.pins == []


def test_row_level_security_walls_the_function(through_proxy, http, ws, other_ws):
    """SECURITY INVOKER: the function reads as the app role, so the wall (migration 0015) applies inside it.
    A request naming a workspace its wall does not show gets nothing of it."""
    proxy, recaller, function = through_proxy
    _write(http, ws, "mine: the keeper's coffee")
    (theirs,) = _write(http, other_ws, "theirs: the keeper's coffee secret")
    req = RecallRequest(query="keeper coffee")
    with rls.visible((ws,)):
        recaller.recall([ws, other_ws], req)  # counts the scope
        walled = recaller.recall([ws, other_ws], req)
    with rls.visible((ws, other_ws)):
        recaller.recall([ws, other_ws], req)
        open_ = recaller.recall([ws, other_ws], req)
    assert (
        _called(proxy, function) == 3
    )  # the scope's count, once known, is kept: only the first recall counts
    assert [m["content"] for m in walled["memories"]] == ["mine: the keeper's coffee"]
    assert theirs in {m["id"] for m in open_["memories"]}
    assert proxy.pins == []


def test_a_filtered_request_or_a_missing_function_falls_back(through_proxy, http, ws, monkeypatch):
    proxy, recaller, function = through_proxy
    ids = _write(http, ws, "keeper coffee one", "keeper coffee two", "keeper coffee three")
    with rls.visible((ws,)):
        recaller.recall([ws], RecallRequest(query="keeper coffee"))  # counts the scope
        filtered = recaller.recall([ws], RecallRequest(query="keeper coffee", exclude_ids=ids[:1]))
        assert _called(proxy, function) == 0
        assert {m["id"] for m in filtered["memories"]} == set(ids[1:])
        # A database without this code's function (an old schema): the ad-hoc statement, same ranking.
        missing = HotFunction("recall_hot_00000000_384", function.args, function.body, function.call, "")
        monkeypatch.setattr(recall_module, "hot_function", lambda dims, generation=0, walk=True: missing)
        fallback = Recaller(recaller.db, recaller.embedder, recaller.settings)
        fallback.recall([ws], RecallRequest(query="keeper coffee"))
        plain = fallback.recall([ws], RecallRequest(query="keeper coffee"))
    assert _called(proxy, function) == 0
    assert {m["id"] for m in plain["memories"]} == set(ids)
    assert proxy.pins == []


@pytest.mark.parametrize("walk", [True, False], ids=["walks", "sorts"])
def test_the_function_is_invoker_owned_by_the_owner_and_executable_by_the_app_only(database_url, walk):
    hot = hot_function(384, walk=walk)
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT p.prosecdef, pg_get_userbyid(p.proowner), p.proconfig, "
            "has_function_privilege('memorylayer_app', p.oid, 'EXECUTE'), "
            "has_function_privilege('public', p.oid, 'EXECUTE') "
            "FROM pg_proc p WHERE p.proname = %s",
            (hot.name,),
        ).fetchone()
    assert row is not None, "apply_migrations installs the function"
    definer, owner, config, app_may, public_may = row
    assert (definer, owner, app_may, public_may) == (False, "memorylayer_owner", True, False)
    assert set(config) == {"search_path=public, pg_catalog", "plan_cache_mode=force_generic_plan"}


def test_a_function_dropped_after_it_was_seen_falls_back_without_an_error(through_proxy, http, ws, owner_url):
    """A newer deploy's migrate may drop this version's function while it runs (it keeps only the newest few):
    the recall that meets UndefinedFunction is asked again ad hoc, and later ones stay ad hoc."""
    proxy, recaller, function = through_proxy
    ids = _write(http, ws, "keeper coffee one", "keeper coffee two")
    req = RecallRequest(query="keeper coffee")
    with rls.visible((ws,)):
        recaller.recall([ws], req)  # counts the scope
        recaller.recall([ws], req)
        assert _called(proxy, function) == 1
        with psycopg.connect(owner_url, autocommit=True) as owner:
            signature = owner.execute("SELECT %s::regproc::regprocedure::text", (function.name,)).fetchone()[
                0
            ]
            owner.execute(f"DROP FUNCTION {signature}")
        try:
            after = recaller.recall([ws], req)
            again = recaller.recall([ws], req)
        finally:
            with psycopg.connect(owner_url, autocommit=True) as owner:
                ensure_recall_function(owner, 384)
    assert {m["id"] for m in after["memories"]} == set(ids) == {m["id"] for m in again["memories"]}
    assert _called(proxy, function) == 2  # the call that failed; none after it
    assert proxy.pins == []


@pytest.mark.parametrize("walk", [True, False], ids=["walks", "sorts"])
def test_migrate_keeps_this_codes_function_and_the_two_newest_before_it(owner_url, walk):
    """Per family: the walking functions' pruning leaves the sorting ones alone, and the other way round."""
    hot = hot_function(384, walk=walk)
    family = hot.name.rsplit("_", 2)[0] + "_"
    older = [f"{family}0000000{i}_384" for i in range(4)]
    with psycopg.connect(owner_url, autocommit=True) as owner:
        for name in older:  # stand-ins for earlier statements' functions, oldest first
            owner.execute(f"CREATE FUNCTION {name}(a int) RETURNS int LANGUAGE sql AS 'SELECT a'")
        other_size = f"{family}00000009_768"
        owner.execute(f"CREATE FUNCTION {other_size}() RETURNS int LANGUAGE sql AS 'SELECT 1'")
        signature = owner.execute("SELECT %s::regproc::regprocedure::text", (hot.name,)).fetchone()[0]
        owner.execute(f"DROP FUNCTION {signature}")  # so that migrate installs it (and prunes) again
        try:
            ensure_recall_function(owner, 384)
            left = {
                r[0]
                for r in owner.execute(
                    "SELECT proname FROM pg_proc WHERE proname LIKE 'recall\\_hot\\_%%' OR proname LIKE 'recall\\_sorted\\_%%'"
                ).fetchall()
            }
        finally:
            for name in (*older, other_size):
                owner.execute(f"DROP FUNCTION IF EXISTS {name}")
    other_family = hot_function(384, walk=not walk).name
    assert left == {hot.name, other_family, older[3], older[2], other_size}
