"""The reference's recall and reflect fields: reflect narrows by observer/subject (and types, tags) as recall
does and accepts context_id; recall's conversation `context` grounds the query's embedding; `rag_threshold`
is accepted with its range checked. Bad input is a 422."""

from __future__ import annotations

import pytest

from tests.helpers.http import h, recall, remember


def reflected(http, ws: str, query: str, **fields) -> list[str]:
    r = http.post("/v1/memories/reflect", json={"query": query, **fields}, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()["source_memories"]


def test_reflect_filters_by_observer_and_subject_as_recall_does(http, ws):
    bob = remember(http, ws, "Alice drinks green tea", observer_id="bob", subject_id="alice")
    carol = remember(http, ws, "Alice drinks black coffee", observer_id="carol", subject_id="alice")
    about_dan = remember(http, ws, "Dan drinks water", observer_id="bob", subject_id="dan")
    assert set(reflected(http, ws, "what does Alice drink")) >= {bob["id"], carol["id"]}
    assert reflected(http, ws, "what does Alice drink", observer_id="carol") == [carol["id"]]
    assert about_dan["id"] not in reflected(http, ws, "what does Alice drink", subject_id="alice")
    filtered = {m["id"] for m in recall(http, ws, "what does Alice drink", observer_id="carol")["memories"]}
    assert filtered == {carol["id"]}
    # context_id is accepted, as recall accepts it (not a filter).
    assert set(reflected(http, ws, "what does Alice drink", context_id="ctx_1")) >= {bob["id"], carol["id"]}


def test_reflect_filters_by_tags(http, ws):
    tagged = remember(http, ws, "Alice drinks green tea", tags=["drinks"])
    remember(http, ws, "Alice drinks black coffee")
    assert reflected(http, ws, "what does Alice drink", tags=["drinks"]) == [tagged["id"]]


def test_reflect_is_walled_by_workspace(http, ws, other_ws):
    remember(http, other_ws, "Alice drinks green tea", observer_id="bob")
    assert reflected(http, ws, "what does Alice drink", observer_id="bob") == []


def test_context_grounds_a_follow_up(http, ws):
    lyon = remember(http, ws, "Alice Martin settled in Lyon with her family")
    other = remember(http, ws, "Where is the nearest bakery? Ask the concierge")
    query = "where is she now?"
    alone = recall(http, ws, query, limit=1, min_relevance=0)["memories"]
    assert [m["id"] for m in alone] == [other["id"]]  # the question alone matches the other memory's words
    context = [{"role": "user", "content": "Tell me about Alice Martin"}, {"content": "She settled in Lyon."}]
    grounded = recall(http, ws, query, context=context, limit=1, min_relevance=0)["memories"]
    assert [m["id"] for m in grounded] == [lyon["id"]]


def test_rag_threshold_is_accepted(http, ws):
    kept = remember(http, ws, "Alice drinks green tea")
    for threshold in (0.0, 0.5, 1.0):
        body = recall(http, ws, "Alice tea", rag_threshold=threshold, mode="hybrid")
        assert [m["id"] for m in body["memories"]] == [kept["id"]]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/memories/recall", {"query": "x", "rag_threshold": 1.5}),
        ("/v1/memories/recall", {"query": "x", "rag_threshold": -0.1}),
        ("/v1/memories/recall", {"query": "x", "context": "not a list"}),
        ("/v1/memories/recall", {"query": "x", "context": [{"role": "user"}]}),
        ("/v1/memories/recall", {"query": "x", "context": [{"content": "hi"}] * 51}),
        ("/v1/memories/reflect", {"query": "x", "observer_id": 5}),
        ("/v1/memories/reflect", {"query": "x", "subject_id": ["a"]}),
    ],
)
def test_bad_fields_are_422(http, ws, path, body):
    r = http.post(path, json=body, headers=h(ws))
    assert r.status_code == 422, r.text
