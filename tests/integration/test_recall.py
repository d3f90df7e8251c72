"""Hybrid recall on a small fixture: ranking, every filter, the token budget, association expansion."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.http import recall
from tests.own_database import services_in_own_database

FIXTURE = [
    ("The login page times out because the redis connection pool is exhausted", ["ops", "Redis"], "episodic"),
    ("Raise the redis pool size to 50 to fix login timeouts", ["ops", "fix"], "procedural"),
    ("Alice prefers dark mode in every editor", ["prefs"], "semantic"),
    ("The quarterly report is due on the first Monday of April", ["work"], "semantic"),
    ("Bob's favourite food is pasta carbonara", ["prefs", "food"], "semantic"),
    ("Deploys are frozen during the holiday season", ["ops"], "procedural"),
]


@pytest.fixture()
def corpus(http, ws):
    ids = []
    for content, tags, type_ in FIXTURE:
        r = http.post(
            "/v1/memories",
            json={"content": content, "tags": tags, "type": type_},
            headers={"X-Workspace-ID": ws},
        )
        assert r.status_code == 201
        ids.append(r.json()["memory"]["id"])
    return ids


def test_both_arms_rank_the_obvious_answer_first(http, ws, corpus):
    body = recall(http, ws, "why does login time out? redis pool")
    top = body["memories"][0]
    assert top["id"] == corpus[0]
    assert set(top["match_signals"]) == {"vector", "keyword"}
    assert top["relevance_score"] == pytest.approx(1.0, abs=0.02)
    assert body["retrieval_confidence"] == "strong"
    assert body["total_count"] >= 2
    assert body["memories"][1]["id"] == corpus[1]
    for key in (
        "query_tokens",
        "search_latency_ms",
        "mode_used",
        "budget_summary",
        "confidence_reasons",
        "freshness_metadata",
        "relation_paths",
    ):
        assert key in body
    assert all("embedding" not in m for m in body["memories"])
    # Lean: no null keys, top level or per memory; the SDKs default them.
    assert None not in body.values() and "generation_summary" not in body
    assert all(None not in m.values() for m in body["memories"])


def test_keyword_arm_catches_stemmed_words(http, ws, corpus):
    body = recall(http, ws, "deploying holidays", min_relevance=0.99)
    # Cosine 0.99 excludes the vector arm; the full-text arm still finds the stemmed match.
    assert [m["id"] for m in body["memories"]] == [corpus[5]]
    assert body["memories"][0]["match_signals"] == ["keyword"]
    assert body["retrieval_confidence"] == "moderate"


def test_nothing_relevant_is_an_empty_weak_result(http, ws, corpus):
    body = recall(http, ws, "zzzz qqqq")
    assert body["memories"] == [] and body["retrieval_confidence"] == "weak"
    assert body["confidence_reasons"] == ["empty_result"]


def test_min_relevance_zero_returns_every_tag_match(http, ws, corpus):
    body = recall(http, ws, "chat history", tags=["prefs"], min_relevance=0.0, limit=1000)
    assert sorted(m["id"] for m in body["memories"]) == sorted([corpus[2], corpus[4]])


def test_tags_are_anded_and_case_insensitive(http, ws, corpus):
    assert [
        m["id"] for m in recall(http, ws, "redis", tags=["REDIS", "OPS"], min_relevance=0)["memories"]
    ] == [corpus[0]]
    assert recall(http, ws, "redis", tags=["redis", "food"], min_relevance=0)["memories"] == []


def test_type_subtype_and_exclude_filters(http, ws, corpus):
    body = recall(http, ws, "redis login timeout", types=["procedural"], min_relevance=0)
    assert {m["id"] for m in body["memories"]} == {corpus[1], corpus[5]}
    body = recall(http, ws, "redis login timeout", exclude_ids=[corpus[0]])
    assert corpus[0] not in [m["id"] for m in body["memories"]]
    assert recall(http, ws, "redis", subtypes=["solution"], min_relevance=0)["memories"] == []


def test_user_and_time_filters(http, ws):
    h = {"X-Workspace-ID": ws}
    http.post(
        "/v1/memories",
        json={"content": "trip to Lisbon in May", "user_id": "u1", "event_time": "2023-05-02T00:00:00Z"},
        headers=h,
    )
    http.post(
        "/v1/memories",
        json={"content": "trip to Porto in June", "user_id": "u2", "event_time": "2023-06-10T00:00:00Z"},
        headers=h,
    )
    only_u1 = recall(http, ws, "trip", user_id="u1", min_relevance=0)
    assert [m["content"] for m in only_u1["memories"]] == ["trip to Lisbon in May"]
    june = recall(http, ws, "trip", event_after="2023-06-01T00:00:00Z", min_relevance=0)
    assert [m["content"] for m in june["memories"]] == ["trip to Porto in June"]
    may = recall(http, ws, "trip", event_before="2023-05-31T00:00:00Z", min_relevance=0)
    assert [m["content"] for m in may["memories"]] == ["trip to Lisbon in May"]
    assert recall(http, ws, "trip", created_before="2000-01-01T00:00:00Z", min_relevance=0)["memories"] == []
    ordered = recall(http, ws, "trip", min_relevance=0, time_order="asc")
    assert [m["content"] for m in ordered["memories"]] == ["trip to Lisbon in May", "trip to Porto in June"]


def test_limit_offset_and_browse(http, ws, corpus):
    everything = recall(http, ws, "*", limit=100)
    assert len(everything["memories"]) == len(FIXTURE)
    page = recall(http, ws, "*", limit=2, offset=2)
    assert [m["id"] for m in page["memories"]] == [m["id"] for m in everything["memories"][2:4]]
    assert len(recall(http, ws, "redis ops", limit=1)["memories"]) == 1


def test_limit_up_to_1000_and_not_more(http, ws, corpus):
    assert recall(http, ws, "redis", limit=1000)["memories"]
    r = http.post("/v1/memories/recall", json={"query": "x", "limit": 1001}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 422


def test_budget_is_never_exceeded(http, ws, corpus):
    body = recall(http, ws, "redis login pool timeouts fix", budget_tokens=30, min_relevance=0)
    summary = body["budget_summary"]
    used = sum(-(-len(m["content"]) // 3) for m in body["memories"])
    assert summary["estimator"] == "chars_div_3_conservative_v1"
    assert used == summary["used"] <= 30
    assert summary["truncated_items"] + summary["omitted_items"] >= 1


def test_association_expansion_adds_neighbours_and_honours_filters(http, ws, corpus):
    h = {"X-Workspace-ID": ws}
    # Link the redis problem to the (unrelated-looking) report memory and to the food memory.
    for target in (corpus[3], corpus[4]):
        http.post(
            f"/v1/memories/{corpus[0]}/associate",
            json={"target_id": target, "relationship": "related_to", "strength": 1.0},
            headers=h,
        )
    body = recall(http, ws, "redis connection pool exhausted", limit=10, min_relevance=0.5)
    ids = [m["id"] for m in body["memories"]]
    assert corpus[3] in ids and corpus[4] in ids
    neighbour = next(m for m in body["memories"] if m["id"] == corpus[3])
    assert neighbour["match_signals"] == ["association"]
    # A tag filter applies to neighbours too (the reference server's expansion ignored it).
    filtered = recall(http, ws, "redis connection pool exhausted", tags=["ops"], min_relevance=0.5)
    assert corpus[3] not in [m["id"] for m in filtered["memories"]]
    off = recall(http, ws, "redis connection pool exhausted", include_associations=False, min_relevance=0.5)
    assert corpus[3] not in [m["id"] for m in off["memories"]]


def test_a_named_period_lifts_the_memories_of_that_period(http, ws):
    """A question naming a month (any year) or a date ranks what happened then, or just after, above the same
    words at another time."""
    h = {"X-Workspace-ID": ws}
    ids = {}
    for when, tag, stamp in (
        ("march", "alpha", "2023-03-10T10:00:00Z"),
        ("june", "beta", "2023-06-12T10:00:00Z"),
        ("july 3", "gamma", "2023-07-03T10:00:00Z"),
    ):
        r = http.post(
            "/v1/memories",
            json={"content": f"went hiking with the team {tag}", "event_time": stamp},
            headers=h,
        )
        assert r.status_code == 201, r.text
        ids[when] = r.json()["memory"]["id"]

    def ranked(query: str) -> list[str]:
        return [m["id"] for m in recall(http, ws, query, min_relevance=0, include_global=False)["memories"]]

    assert ranked("hiking with the team in March")[0] == ids["march"]
    in_june = ranked("hiking with the team in June")
    assert set(in_june[:2]) == {ids["june"], ids["july 3"]}  # 3 July is within the week after June
    assert ranked("hiking with the team on 10 March, 2023")[0] == ids["march"]
    assert ranked("hiking with the team on 3 July, 2023")[0] == ids["july 3"]


def test_global_workspace_is_searched_too(http, ws):
    marker = f"globalfact{ws}"
    http.post(
        "/v1/memories",
        json={"content": f"{marker} applies everywhere"},
        headers={"X-Workspace-ID": "_global"},
    )
    assert recall(http, ws, marker)["memories"][0]["workspace_id"] == "_global"
    assert recall(http, ws, marker, include_global=False)["memories"] == []


def test_llm_modes_are_refused_without_an_llm(http, ws):
    r = http.post("/v1/memories/recall", json={"query": "x", "mode": "llm"}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "generation_not_allowed"


def test_reflect_without_llm_returns_evidence(http, ws, corpus):
    r = http.post("/v1/memories/reflect", json={"query": "redis login"}, headers={"X-Workspace-ID": ws})
    body = r.json()
    assert r.status_code == 200 and "requires LLM integration" in body["reflection"]
    assert corpus[0] in body["source_memories"]


@pytest.fixture()
def own_services(database_url: str) -> Iterator[tuple[Any, Any]]:
    """Services over a database of their own: table-wide statistics that no other test's rows dilute."""
    with services_in_own_database(database_url, "recall") as built:
        yield built


def test_very_common_words_are_checked_on_candidates_not_listed_and_rank_the_same(own_services):
    """A word in most memories is not listed in full (that costs a scan of the workspace); it is estimated
    from ANALYZE's statistics and checked on the other candidates. The ranking stays the exact one."""
    from shared.domain.requests import BatchCreate, BatchRequest, RecallRequest
    from shared.domain.retrieval.recall import Recaller, RecallTuning

    services, settings = own_services
    ws = "ws_common_words"

    notes = [f"coffee note {i} about the weather" for i in range(40)]
    notes += [
        "coffee with the lighthouse keeper",
        "the lighthouse keeper logs storms",
        "lighthouse lamp repair",
    ]
    services.memories.batch(ws, BatchRequest(operations=[BatchCreate(op="create", content=n) for n in notes]))
    with services.db.connection() as conn:
        conn.execute("ANALYZE memories")
        common = conn.execute(
            "SELECT e.lexeme, e.freq FROM pg_stats s, "
            "unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(lexeme, freq) "
            "WHERE s.tablename = 'memories' AND s.attname = 'tsv' AND e.lexeme = 'coffe'"
        ).fetchone()
    assert common is not None and common["freq"] > 0.5  # the statistics know "coffee" is everywhere
    exact = Recaller(services.db, services.embedder, settings, tuning=RecallTuning(bm25_list_max_df=None))
    pruned = Recaller(services.db, services.embedder, settings, tuning=RecallTuning(bm25_list_max_df=10))
    for query in ("coffee lighthouse keeper", "coffee", "coffee weather"):
        a = exact.recall([ws], RecallRequest(query=query, limit=5))["memories"]
        b = pruned.recall([ws], RecallRequest(query=query, limit=5))["memories"]
        assert b, query  # all words common: none is listed, the vector arm's candidates are scored
        assert [m["id"] for m in a[:3]] == [m["id"] for m in b[:3]], query
    top = pruned.recall([ws], RecallRequest(query="coffee lighthouse keeper", limit=3))["memories"]
    assert top[0]["content"] == "coffee with the lighthouse keeper"
    # The pruned statement did take the other path: its lexemes CTE (run on its own) leaves "coffee" unlisted.
    sql, params = pruned.statement([ws], RecallRequest(query="coffee lighthouse"))
    with services.db.connection() as conn:
        listed = conn.execute(
            "WITH "
            + sql.split("WITH", 1)[1].split("listed AS MATERIALIZED")[0].rstrip().rstrip(",")
            + " SELECT count(*) FILTER (WHERE NOT listed) AS unlisted FROM lexemes",
            params,
        ).fetchone()
    assert listed["unlisted"] == 1  # "coffee" (in 41 of 43) is over the limit of 10; "lighthouse" is not


def test_when_every_word_is_very_common_none_is_listed_and_the_text_arm_scores_the_vector_candidates(
    own_services,
):
    """A query of only very common words lists none of them (listing the least common one would read a share
    of the workspace): the text arm scores the vector arm's k candidates, so nothing outside them is ranked
    however well its words match."""
    from shared.domain.requests import BatchCreate, BatchRequest, RecallRequest
    from shared.domain.retrieval.recall import Recaller, RecallTuning

    services, settings = own_services
    ws = "ws_all_common"
    # Given memories that all hold both query words: the stop-word padded ones are the shortest to BM25 (2
    # lexemes and a number) but far from the query to the hash embedder, which counts every "the".
    short = [f"coffee weather the the the the the the {i}" for i in range(10)]
    near = [f"coffee weather alpha beta gamma {i}" for i in range(10)]
    ops = [BatchCreate(op="create", content=c) for c in short + near]
    created = services.memories.batch(ws, BatchRequest(operations=ops))
    assert not created["failed"]
    with services.db.connection() as conn:
        conn.execute("ANALYZE memories")
    k = 4
    small_k = settings.model_copy(update={"recall_min_candidates": k, "recall_candidate_multiplier": 1})
    pruned = Recaller(services.db, services.embedder, small_k, tuning=RecallTuning(bm25_list_max_df=10))
    # When both words are over the listing limit of 10 (each is in all 20 memories)
    sql, params = pruned.statement([ws], RecallRequest(query="coffee weather", limit=k))
    assert params["k"] == k
    with_ = "WITH " + sql.split("WITH", 1)[1]
    with services.db.connection() as conn:
        rows = conn.execute(sql, params).fetchall()
        vector = {
            r["id"]
            for r in conn.execute(
                with_.split("vec_ranked AS")[0].rstrip().rstrip(",") + " SELECT id FROM vec", params
            )
        }
        listed = conn.execute(
            with_.split("names AS MATERIALIZED")[0].rstrip().rstrip(",")
            + " SELECT count(*) AS n FROM listed",
            params,
        ).fetchone()
    # Then no memory is listed, and every text match is one of the vector arm's k candidates
    assert listed["n"] == 0
    assert len(vector) == k
    text_hits = {r["id"] for r in rows if r["text_rank"] is not None}
    assert text_hits and text_hits <= vector
    assert not any(r["content"].startswith("coffee weather the") for r in rows)


def test_recall_plan_uses_the_indexes_and_skips_the_stream_join(own_services):
    """The statement's optional filters are NULL parameters: planned with the request's values they fold away,
    so the vector arm still walks the HNSW graph; and a workspace without streams never runs the neighbour
    join (migration 0018's flag)."""
    import psycopg

    from bench.common import uniform_query, uniform_sentence
    from shared.domain.requests import BatchCreate, BatchRequest, RecallRequest

    services, settings = own_services
    ws = "ws_plan"
    rng = __import__("random").Random(5)
    for _ in range(3):
        ops = [BatchCreate(op="create", content=uniform_sentence(rng)) for _ in range(1000)]
        services.memories.batch(ws, BatchRequest(operations=ops))
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        conn.execute("UPDATE memories SET vector_gen = 0")
        conn.execute("VACUUM ANALYZE memories")
    req = RecallRequest(query=uniform_query(rng), limit=10)
    with services.db.connection() as conn:
        sql, params = services.recaller.statement([ws], req, conn)
        plan = "\n".join(
            r["QUERY PLAN"] for r in conn.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql, params)
        )
    assert "Index Scan using memories_embedding_384" in plan
    assert "Function Scan on memorylayer_text_rows" in plan  # the GIN lookup behind row-level security
    # The words' own matches come with the columns the filters read (one heap visit each, migration 0024); the
    # turn-context matches join memories by key: never a scan of the workspace (the turn-context lookup, planned
    # as one union with the own-word lookup, once made the planner hash every memory of the scope).
    listed = re.search(r"^  CTE listed$(.*?)^  CTE \w+$", plan, re.M | re.S)[1]
    assert "memories_pkey" in listed and "Seq Scan on memories" not in listed, listed
    own_words = listed.split("memorylayer_context_matches")[0]
    assert "memorylayer_text_rows" in own_words and "memories_pkey" not in own_words, own_words
    assert " IS NULL) OR" not in plan  # the unused filters were folded away, not checked row by row
    # Not even the candidates' own rows (``memories p``) are looked up for their streams.
    lookups = [line for line in plan.splitlines() if " on memories p " in line or "memories_sequence" in line]
    assert lookups and all("never executed" in line for line in lookups), lookups


def test_a_filtered_recall_finds_its_rows_whatever_plan_the_statistics_choose(database_url: str):
    """Whether the vector arm walks the HNSW graph or sorts the filtered rows exactly is the planner's choice,
    made from statistics; a walk can come back short although matching rows exist (nodes no link reaches,
    hnsw.max_scan_tuples). Run in the order test_current_facts, test_memories_api, the session's memories table
    was not yet analyzed, the planner walked the graph for a 2-memory workspace, and a tag-filtered recall came
    back empty. Here the walk is made certain (no sort allowed) and certain to fall short (it visits one node,
    never this workspace's): the recall must still find the row, and rank as the exact sort does."""
    from shared.domain.requests import MemoryCreate, RecallRequest

    walk_short = {
        "enable_sort": "off",
        "enable_seqscan": "off",
        "enable_bitmapscan": "off",
        "hnsw.iterative_scan": "off",
        "hnsw.ef_search": "1",
    }
    with services_in_own_database(database_url, "walk", session_settings=walk_short) as (services, _):
        for i in range(60):  # other workspaces' memories, one at a time: all in the graph
            services.memories.remember(f"ws_others_{i % 3}", MemoryCreate(content=f"a chat about topic {i}"))
        hello = "Hello, my name is Bob."
        alice, _, _ = services.memories.remember(
            "ws_mine", MemoryCreate(content=hello, tags=["llamaindex_chat_key:alice"])
        )
        bob, _, _ = services.memories.remember(
            "ws_mine", MemoryCreate(content=hello, tags=["llamaindex_chat_key:bob"])
        )
        tagged = RecallRequest(query="chat", tags=["llamaindex_chat_key:bob"], min_relevance=0)
        found = services.recaller.recall(["ws_mine"], tagged)["memories"]
        assert [m["id"] for m in found] == [bob["id"]]
        found = services.recaller.recall(["ws_mine"], RecallRequest(query="chat", min_relevance=0))[
            "memories"
        ]
        assert sorted(m["id"] for m in found) == sorted([alice["id"], bob["id"]])
        with services.db.connection() as conn:
            sql, params = services.recaller.statement(["ws_mine"], tagged, conn)
            plan = "\n".join(r["QUERY PLAN"] for r in conn.execute("EXPLAIN " + sql, params))
        assert "Index Scan using memories_embedding_384" in plan  # it did walk the graph


def test_facts_come_on_top_of_the_vector_arms_k_other_memories(own_services):
    """An extracted fact is short and names its person, so it lies near every question about them: among only
    the k nearest, facts took the places of the turns. Where the scope holds facts, the vector arm reads the 2k
    nearest and keeps up to k others among them, with the facts nearer than the last; a scope without facts
    keeps its k nearest, as before."""
    import numpy as np
    import psycopg

    from shared.domain.requests import BatchCreate, BatchRequest, RecallRequest
    from shared.domain.retrieval.recall import Recaller

    services, settings = own_services
    k = 4
    small_k = settings.model_copy(update={"recall_min_candidates": k, "recall_candidate_multiplier": 1})
    recaller = Recaller(services.db, services.embedder, small_k)
    # Each one word further than the one before (no ties): the facts nearest the query, then the turns.
    facts = ["Dana alpha beta gamma" + "".join(f" f{j}" for j in range(i)) for i in range(5)]
    turns = ["Dana: alpha" + "".join(f" t{j}" for j in range(i + 2)) for i in range(8)]
    query = "Dana alpha beta gamma"

    def vector_arm(ws: str, query: str = query) -> list[str]:
        sql, params = recaller.statement([ws], RecallRequest(query=query, limit=k))
        with_ = "WITH " + sql.split("WITH", 1)[1]
        with services.db.connection() as conn:
            return [
                r["content"]
                for r in conn.execute(
                    with_.split("vec_ranked AS")[0].rstrip().rstrip(",")
                    + " SELECT m.content FROM vec JOIN memories m USING (id) ORDER BY vec.dist, vec.id",
                    params,
                )
            ]

    for ws in ("ws_with_facts", "ws_without_facts"):
        created = services.memories.batch(
            ws, BatchRequest(operations=[BatchCreate(op="create", content=c) for c in facts + turns])
        )
        assert not created["failed"]
    # Given the same memories in two workspaces, in one the first six are the extraction writer's facts
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE memories SET fact_key = 'user|dana|note|' || content "
            "WHERE workspace_id = 'ws_with_facts' AND content = ANY(%s)",
            (facts,),
        )
        conn.execute("ANALYZE memories")
        rows = conn.execute(
            "SELECT content, embedding::real[] AS e FROM memories WHERE workspace_id = 'ws_with_facts'"
        ).fetchall()
    q = np.array(services.embedder.embed_query(query), dtype=np.float64)
    order = sorted(
        rows, key=lambda r: (1 - float(np.dot(q, r[1]) / (np.linalg.norm(q) * np.linalg.norm(r[1]))), r[0])
    )
    nearest = [r[0] for r in order]
    assert set(nearest[: len(facts)]) == set(facts)  # the embedder agrees: every fact is nearer than any turn

    # Then without facts the arm keeps the k nearest; with them, the turns among the 2k nearest too
    without = vector_arm("ws_without_facts")
    assert without == nearest[:k] and not set(without) & set(turns)  # only the facts' twins: no turn
    with_facts = vector_arm("ws_with_facts")
    assert with_facts == nearest[: 2 * k]  # five facts, three turns: fewer than k others, so every one stays
    assert [c for c in with_facts if c in turns] == [c for c in nearest if c in turns][:3]
    # And a question nearer the turns keeps k of them, no more
    assert sum(c in turns for c in vector_arm("ws_with_facts", "alpha t0 t1 t2 t3 t4 t5")) == k
