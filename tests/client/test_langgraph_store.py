"""MemoryLayerStore (LangGraph's BaseStore) against the live local server: every operation (get, search with and
without a query, filters, put with index and ttl, delete, list_namespaces), batches sync and async, the
workspace wall, concurrent creates, and a LangGraph graph whose nodes read and write the store.

langgraph ships no store conformance suite, so the expectations are LangGraph's documented semantics, checked
where it matters against its own InMemoryStore fed the same operations."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, TypedDict

import httpx
import pytest
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore
from memorylayer_langgraph import MemoryLayerStore


@pytest.fixture()
def store(base_url: str, ws: str) -> Iterator[MemoryLayerStore]:
    with MemoryLayerStore(base_url=base_url, workspace_id=ws) as s:
        yield s


def _memories(http: httpx.Client, ws: str) -> list[dict[str, Any]]:
    return http.get("/v1/memories", params={"limit": 1000}, headers={"X-Workspace-ID": ws}).json()["memories"]


def test_put_get_update_delete(store: MemoryLayerStore, http: httpx.Client, ws: str) -> None:
    ns = ("users", "alice@example/com ü", "prefs")  # any characters but "." make a label
    deep: dict[str, Any] = {"leaf": 1}
    for _ in range(20):  # deeper than a memory's metadata may nest: the value travels as JSON text
        deep = {"d": deep}
    store.put(ns, "drink", {"text": "likes green tea", "deep": deep, "order": {"b": 1, "a": 2}})

    item = store.get(ns, "drink")
    assert item is not None
    assert (item.namespace, item.key) == (ns, "drink")
    assert item.value["text"] == "likes green tea" and item.value["deep"] == deep
    assert list(item.value["order"]) == ["b", "a"]  # key order kept
    assert store.get(ns, "food") is None and store.get(("users", "bob", "prefs"), "drink") is None

    store.put(ns, "drink", {"text": "switched to coffee"})
    updated = store.get(ns, "drink")
    assert updated is not None and updated.value == {"text": "switched to coffee"}
    assert updated.created_at == item.created_at and updated.updated_at > item.updated_at
    # One memory per item, updated in place, embedding the value's text
    (memory,) = _memories(http, ws)
    assert "switched to coffee" in memory["content"]

    store.delete(ns, "drink")
    assert store.get(ns, "drink") is None
    assert _memories(http, ws) == []
    store.delete(ns, "drink")  # deleting a missing item is a no-op


def test_search_without_query_filters_and_pages(store: MemoryLayerStore) -> None:
    for i in range(7):
        store.put(
            ("docs", "team-a"), f"d{i}", {"n": i, "kind": "even" if i % 2 == 0 else "odd", "meta": {"v": i}}
        )
    store.put(("docs", "team-b"), "other", {"n": 100, "kind": "even"})
    store.put(("notes",), "x", {"n": 1})

    everything = store.search(("docs",), limit=50)
    assert {i.key for i in everything} == {f"d{i}" for i in range(7)} | {"other"}
    assert [i.key for i in store.search(("docs", "team-a"), limit=3)] == ["d6", "d5", "d4"]  # newest first
    assert [i.key for i in store.search(("docs", "team-a"), limit=3, offset=3)] == ["d3", "d2", "d1"]
    assert len(store.search((), limit=100)) == 9  # the empty prefix: the whole store
    assert all(i.score is None for i in everything)

    def keys(flt: dict[str, Any], prefix: tuple[str, ...] = ("docs",)) -> set[str]:
        return {i.key for i in store.search(prefix, filter=flt, limit=50)}

    assert keys({"kind": "even"}) == {"d0", "d2", "d4", "d6", "other"}
    assert keys({"kind": {"$eq": "odd"}}) == {"d1", "d3", "d5"}
    assert keys({"kind": {"$ne": "even"}}) == {"d1", "d3", "d5"}
    assert keys({"n": {"$gt": 4}}) == {"d5", "d6", "other"}
    assert keys({"n": {"$gte": 4, "$lt": 6}}) == {"d4", "d5"}
    assert keys({"n": {"$lte": 1}}) == {"d0", "d1"}
    assert keys({"meta": {"v": 3}}) == {"d3"}  # nested exact match
    assert keys({"kind": "even", "n": {"$lt": 3}}, ("docs", "team-a")) == {"d0", "d2"}
    assert keys({"missing": {"$gt": 0}}) == set()
    # A filtered page: the matches in order, then offset and limit over them
    assert [i.key for i in store.search(("docs", "team-a"), filter={"kind": "odd"}, limit=2, offset=1)] == [
        "d3",
        "d1",
    ]


def test_search_with_query_ranks_by_meaning(store: MemoryLayerStore) -> None:
    ns = ("memories", "alice")
    store.put(ns, "tea", {"text": "Alice drinks green tea every morning", "kind": "drink"})
    store.put(ns, "car", {"text": "Alice drives a red bicycle to work", "kind": "travel"})
    store.put(ns, "cat", {"text": "Alice has a cat called Miso", "kind": "pet"})
    store.put(ns, "secret", {"text": "green tea green tea green tea"}, index=False)  # stored, never embedded
    store.put(("memories", "bob"), "tea", {"text": "Bob drinks green tea too"})

    hits = store.search(ns, query="green tea", limit=10)
    assert hits[0].key == "tea" and hits[0].score is not None
    assert [h.score for h in hits] == sorted([h.score or 0.0 for h in hits], reverse=True)
    assert {h.key for h in hits} == {"tea", "car", "cat"}  # not the unindexed item, not Bob's
    assert [h.key for h in store.search(ns, query="green tea", limit=1, offset=1)] == [hits[1].key]
    assert [h.key for h in store.search(ns, query="green tea", filter={"kind": {"$ne": "drink"}})] == [
        h.key for h in hits if h.key != "tea"
    ]
    assert {h.key for h in store.search(("memories",), query="green tea")} >= {"tea"}
    assert "secret" in {i.key for i in store.search(ns)}  # listed without a query
    store.put(ns, "cat", {"text": "Alice has a cat called Miso", "kind": "pet"}, index=False)  # un-indexed
    assert {h.key for h in store.search(ns, query="green tea", limit=10)} == {"tea", "car"}

    # index names the fields to embed: an item indexed on "title" is found by its title only
    store.put(("docs",), "a", {"title": "quarterly budget", "body": "pizza recipes"}, index=["title"])
    store.put(("docs",), "b", {"title": "pizza night", "body": "budget spreadsheet"}, index=["title"])
    assert store.search(("docs",), query="quarterly budget", limit=1)[0].key == "a"
    assert store.search(("docs",), query="pizza night", limit=1)[0].key == "b"


def test_index_fields_from_the_store_config(base_url: str, ws: str, http: httpx.Client) -> None:
    with MemoryLayerStore(base_url=base_url, workspace_id=ws, index={"fields": ["summary"]}) as store:
        store.put(("n",), "k", {"summary": "sailing in Brittany", "raw": "zzz-unrelated"})
        (memory,) = _memories(http, ws)
        assert memory["content"] == "sailing in Brittany"


def test_list_namespaces(store: MemoryLayerStore) -> None:
    for ns in [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
        ("users", "123"),
        ("users", "456", "settings"),
    ]:
        store.put(ns, "k", {"x": 1})
    store.put(("gone",), "k", {"x": 1})
    store.delete(("gone",), "k")

    mirror = InMemoryStore()
    for ns in store.list_namespaces(limit=100):
        mirror.put(ns, "k", {"x": 1})
    assert len(store.list_namespaces(limit=100)) == 8 and ("gone",) not in store.list_namespaces()

    cases: list[dict[str, Any]] = [
        {},
        {"prefix": ("a", "b")},
        {"suffix": ("f",)},
        {"prefix": ("a", "*"), "suffix": ("f",)},
        {"prefix": ("*", "b")},
        {"max_depth": 2},
        {"prefix": ("a",), "max_depth": 3},
        {"limit": 3, "offset": 2},
        {"prefix": ("users",), "limit": 1, "offset": 1},
        {"prefix": ("nope",)},
        {"prefix": ("a", "b"), "max_depth": 3},
        {"prefix": ("a", "*", "f")},
        {"suffix": ("*", "f")},
        {"prefix": ("*", "users"), "suffix": ("*", "settings")},
    ]
    for case in cases:
        assert store.list_namespaces(**case) == mirror.list_namespaces(**case), case
    assert store.list_namespaces(prefix=("a", "b")) == [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(max_depth=2) == [
        ("a", "b"),
        ("a", "c"),
        ("b", "a"),
        ("users", "123"),
        ("users", "456"),
    ]


def test_batch_runs_every_op_in_order(store: MemoryLayerStore) -> None:
    ns = ("batch",)
    results = store.batch(
        [
            PutOp(ns, "one", {"v": 1}),
            PutOp(ns, "two", {"v": 2}),
            GetOp(ns, "one"),
            SearchOp(ns, {"v": {"$gte": 2}}, 10, 0),
            ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("batch",)),)),
            PutOp(ns, "one", None),
            GetOp(ns, "one"),
        ]
    )
    assert results[0] is None and results[1] is None
    assert results[2] is not None and results[2].value == {"v": 1}
    assert [i.key for i in results[3]] == ["two"]
    assert results[4] == [("batch",)]
    assert results[5] is None and results[6] is None


async def test_async_operations(store: MemoryLayerStore) -> None:
    ns = ("async", "u1")
    await store.aput(ns, "a", {"text": "the meeting moved to Thursday"})
    await store.aput(ns, "b", {"text": "lunch is at noon"})
    item = await store.aget(ns, "a")
    assert item is not None and item.value["text"] == "the meeting moved to Thursday"
    assert (await store.asearch(ns, query="when is the meeting", limit=1))[0].key == "a"
    assert await store.alist_namespaces(prefix=("async",)) == [ns]
    results = await store.abatch([GetOp(ns, "b"), PutOp(ns, "b", None), GetOp(ns, "b")])
    assert results[0] is not None and results[2] is None
    await store.adelete(ns, "a")
    assert await store.asearch(ns) == []


def test_ttl_expires_and_reads_refresh(base_url: str, ws: str) -> None:
    now = [datetime.now(UTC)]
    with MemoryLayerStore(
        base_url=base_url, workspace_id=ws, ttl={"default_ttl": 10, "refresh_on_read": True}
    ) as store:
        store.clock = lambda: now[0]
        store.put(("s",), "default", {"v": 1})  # the config's default: 10 minutes
        store.put(("s",), "short", {"v": 2}, ttl=1)
        store.put(("s",), "forever", {"v": 3}, ttl=None)

        now[0] += timedelta(minutes=5)
        assert store.get(("s",), "short") is None  # expired: gone from reads, and deleted
        assert store.get(("s",), "default") is not None  # read at 5 minutes: refreshed to 15
        assert store.get(("s",), "short", refresh_ttl=False) is None

        now[0] += timedelta(minutes=8)
        assert store.get(("s",), "default", refresh_ttl=False) is not None  # alive thanks to the refresh
        assert {i.key for i in store.search(("s",), refresh_ttl=False)} == {"default", "forever"}

        now[0] += timedelta(minutes=3)
        assert [i.key for i in store.search(("s",))] == ["forever"]
        assert store.list_namespaces() == [("s",)]
        store.put(("t",), "brief", {"v": 4}, ttl=1)
        now[0] += timedelta(minutes=2)
        assert store.sweep_ttl() == 1
        assert store.list_namespaces() == [("s",)]


def test_stores_and_workspaces_are_walled(base_url: str, ws: str, other_ws: str) -> None:
    with (
        MemoryLayerStore(base_url=base_url, workspace_id=ws) as mine,
        MemoryLayerStore(base_url=base_url, workspace_id=ws, store="other-app") as sibling,
        MemoryLayerStore(base_url=base_url, workspace_id=other_ws) as theirs,
    ):
        mine.put(("users", "alice"), "k", {"text": "Alice's secret plan"})
        for other in (sibling, theirs):
            assert other.get(("users", "alice"), "k") is None
            assert other.search(("users",)) == []
            assert other.search(("users",), query="secret plan") == []
            assert other.list_namespaces() == []
            other.delete(("users", "alice"), "k")  # cannot touch it either
        item = mine.get(("users", "alice"), "k")
        assert item is not None and item.value == {"text": "Alice's secret plan"}


def test_concurrent_creates_make_one_item(base_url: str, ws: str, http: httpx.Client) -> None:
    stores = [MemoryLayerStore(base_url=base_url, workspace_id=ws) for _ in range(4)]
    barrier = threading.Barrier(len(stores))
    errors: list[BaseException] = []

    def write(i: int) -> None:
        try:
            barrier.wait()
            stores[i].put(("race",), "k", {"writer": i})
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(_memories(http, ws)) == 1
    item = stores[0].get(("race",), "k")
    assert item is not None and item.value["writer"] in range(4)
    for s in stores:
        s.close()


def test_bad_input_writes_nothing(store: MemoryLayerStore, http: httpx.Client, ws: str) -> None:
    with pytest.raises(InvalidNamespaceError):
        store.put((), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("a.b",), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph",), "k", {"v": 1})
    with pytest.raises(TypeError):
        store.put(("a",), "k", {"v": object()})  # not JSON
    assert _memories(http, ws) == []
    store.put(("a",), "k", {"v": 1})
    with pytest.raises(ValueError, match="unsupported filter operator"):
        store.search(("a",), filter={"v": {"$in": [1]}})


class State(TypedDict):
    user: str
    said: str
    recalled: list[str]


def _graph(store: BaseStore) -> Any:
    """Two nodes: one remembers what the user said (through get_store()), one recalls (the injected store)."""

    def remember(state: State) -> dict[str, Any]:
        get_store().put(("memories", state["user"]), uuid.uuid4().hex, {"text": state["said"]})
        return {}

    def recall(state: State, *, store: BaseStore) -> dict[str, Any]:
        hits = store.search(("memories", state["user"]), query=state["said"], limit=5)
        return {"recalled": [h.value["text"] for h in hits]}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    return builder.compile(store=store)


def test_a_graph_remembers_across_restarts(base_url: str, ws: str) -> None:
    with MemoryLayerStore(base_url=base_url, workspace_id=ws) as store:
        out = _graph(store).invoke({"user": "alice", "said": "I moved to Lisbon last spring", "recalled": []})
        assert out["recalled"] == ["I moved to Lisbon last spring"]

    # A new process, a new store: the graph still remembers, and only for this user
    with MemoryLayerStore(base_url=base_url, workspace_id=ws) as store:
        out = _graph(store).invoke({"user": "alice", "said": "Where do I live? Lisbon?", "recalled": []})
        assert "I moved to Lisbon last spring" in out["recalled"]
        bob = _graph(store).invoke({"user": "bob", "said": "Where do I live?", "recalled": []})
        assert bob["recalled"] == ["Where do I live?"]


async def test_a_graph_runs_async(base_url: str, ws: str) -> None:
    with MemoryLayerStore(base_url=base_url, workspace_id=ws) as store:
        out = await _graph(store).ainvoke({"user": "dana", "said": "My dog is called Pixel", "recalled": []})
        assert out["recalled"] == ["My dog is called Pixel"]
        assert [i.value["text"] for i in await store.asearch(("memories", "dana"))] == [
            "My dog is called Pixel"
        ]


def test_environment_defaults(base_url: str, ws: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_URL", base_url)
    monkeypatch.setenv("MEMORYLAYER_WORKSPACE_ID", ws)
    with MemoryLayerStore() as from_env:
        from_env.put(("env",), "k", {"v": 1})
    with MemoryLayerStore(base_url=base_url, workspace_id=ws) as explicit:
        assert explicit.get(("env",), "k") is not None
