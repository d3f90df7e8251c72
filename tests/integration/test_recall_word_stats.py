"""Recall's common-word estimate reaches the app role: pg_stats hides a table under row-level security from the
roles its policies bind, so migration 0019's owner function reads memories.tsv's most common lexemes for it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from shared.api.app import create_app
from shared.app.services import Services
from shared.core.settings import Settings
from shared.db import rls
from shared.db.memories import word_stats
from shared.db.migrate import apply_migrations
from shared.domain.requests import RecallRequest
from shared.domain.retrieval import recall as recall_module
from shared.domain.retrieval.recall import Recaller, RecallTuning
from shared.local.rds_proxy import RdsProxyStandIn
from shared.local.server import serve_in_thread


@pytest.fixture()
def app_in_own_database(database_url: str, rds_proxy: RdsProxyStandIn) -> Iterator[tuple[Services, str, str]]:
    """(services, app role DSN through the stand-in proxy, base url): a fresh database (table-wide statistics
    no other test's rows dilute) served as production serves it, by the app role."""
    name = f"wordstats_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        apply_migrations(make_conninfo(database_url, dbname=name))
        app_dsn = rds_proxy.dsn("memorylayer_app", name)
        settings = Settings(database_url=app_dsn, embedding_provider="hash", db_pool_max=2, auth_mode="none")
        services = Services.build(settings)
        try:
            with serve_in_thread(create_app(settings, services=services)) as url:
                yield services, app_dsn, url
        finally:
            services.close()
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_app_role_sees_the_common_lexemes_and_recall_sends_them(app_in_own_database, monkeypatch):
    services, app_dsn, url = app_in_own_database
    ws = "ws_word_stats"
    notes = [f"coffee note {i} about the weather" for i in range(40)]
    notes += [
        "coffee with the lighthouse keeper",
        "the lighthouse keeper logs storms",
        "lighthouse lamp repair",
    ]
    with httpx.Client(base_url=url, timeout=30) as http:
        r = http.post(
            "/v1/memories/batch",
            json={"operations": [{"op": "create", "content": n} for n in notes]},
            headers={"X-Workspace-ID": ws},
        )
        assert r.status_code == 200, r.text

        # A recall before the first ANALYZE finds no statistics (every word is listed)...
        r = http.post("/v1/memories/recall", json={"query": "coffee"}, headers={"X-Workspace-ID": ws})
        assert r.status_code == 200, r.text
        assert services.recaller._word_stats is not None and services.recaller._word_stats[1] == {}

        with psycopg.connect(app_dsn, autocommit=True, row_factory=psycopg.rows.dict_row) as conn:
            assert word_stats(conn) is None  # not analysed yet
            conn.execute("SELECT analyze_memories()")
            # Why the reader exists: pg_stats itself shows the app role nothing of memories (RLS is on).
            hidden = conn.execute(
                "SELECT count(*) AS n FROM pg_stats WHERE tablename = 'memories' AND attname = 'tsv'"
            ).fetchone()
            assert hidden is not None and hidden["n"] == 0
            row = word_stats(conn)
        assert row is not None
        shares = dict(zip(row["lexemes"], row["freqs"], strict=False))
        assert shares.get("coffe", 0) > 0.5  # "coffee" is in 41 of 43 memories

        # ...and such an empty read is not kept for WORD_STATS_TTL_S: it is tried again WORD_STATS_RETRY_S later
        # (0 here), and finds the statistics ANALYZE has just made.
        monkeypatch.setattr(recall_module, "WORD_STATS_RETRY_S", 0.0)
        r = http.post(
            "/v1/memories/recall",
            json={"query": "coffee lighthouse keeper", "limit": 5},
            headers={"X-Workspace-ID": ws},
        )
        assert r.status_code == 200, r.text
        got = [m["id"] for m in r.json()["memories"]]

    # The app's recaller now holds the estimate and sends it with a query that has the word.
    cached = services.recaller._word_stats
    assert cached is not None and "coffe" in [lexeme for lexeme, _ in cached[1].get("cof", [])]
    _, params = services.recaller.statement([ws], RecallRequest(query="coffee lighthouse keeper"))
    assert "coffe" in params["mce_lexemes"]
    # Statistics once found are kept for WORD_STATS_TTL_S, however soon the retry of an empty read would be.
    read_at = cached[0]
    services.recaller.statement([ws], RecallRequest(query="coffee"))
    assert services.recaller._word_stats is not None and services.recaller._word_stats[0] == read_at

    # Ranking unchanged: with a listing limit the estimate makes "coffee" unlisted (checked on candidates),
    # and the exact statement (every word listed) orders the same memories; both as the app role.
    services.db.default_visible = rls.EVERY
    query = RecallRequest(query="coffee lighthouse keeper", limit=5)
    settings = services.recaller.settings
    exact = Recaller(services.db, services.embedder, settings, tuning=RecallTuning(bm25_list_max_df=None))
    pruned = Recaller(services.db, services.embedder, settings, tuning=RecallTuning(bm25_list_max_df=10))
    want = [m["id"] for m in exact.recall([ws], query)["memories"]]
    assert want and got[:3] == want[:3]
    assert [m["id"] for m in pruned.recall([ws], query)["memories"]][:3] == want[:3]
    assert pruned._word_stats is not None and pruned._word_stats[1].get("cof")
    assert r.json()["memories"][0]["content"] == "coffee with the lighthouse keeper"
