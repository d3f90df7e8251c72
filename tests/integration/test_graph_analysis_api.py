"""Graph analysis over real HTTP and Postgres (/v1/graph/*): two triangles joined by one association and a
memory on its own, analysed as the reference analyses its graph; the caps and ``truncated``; the context filter;
the densify preview's extra signals; bad input; and the walls between workspaces."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.helpers.http import h, remember
from tests.integration.test_resources_api import key_client  # noqa: F401
from tests.secured import ADMIN

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)

GETS = ("snapshot", "communities", "centrality", "bridges", "stats")


def link(
    http: httpx.Client, ws: str, a: str, b: str, strength: float = 0.5, relationship: str = "related_to"
):
    r = http.post(
        f"/v1/memories/{a}/associate",
        json={"target_id": b, "relationship": relationship, "strength": strength},
        headers=h(ws),
    )
    assert r.status_code == 201, r.text


def get(http: httpx.Client, ws: str, part: str, **params) -> dict:
    r = http.get(f"/v1/graph/{part}", params=params, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture()
def triangles(http: httpx.Client, ws: str) -> dict[str, str]:
    """a1-a2-a3 and b1-b2-b3, each a triangle, a1–b1 the one edge between them, and a lone memory."""
    ids = {name: remember(http, ws, f"Lighthouse note {name}\nsecond line")["id"] for name in
           ("a1", "a2", "a3", "b1", "b2", "b3", "lone")}  # fmt: skip
    for x, y in (("a1", "a2"), ("a2", "a3"), ("a1", "a3"), ("b1", "b2"), ("b2", "b3"), ("b1", "b3")):
        link(http, ws, ids[x], ids[y], 0.9)
    link(http, ws, ids["a1"], ids["b1"], 0.4, "causes")
    link(http, ws, ids["b1"], ids["a1"], 0.2)  # a second association of the pair: one edge, the stronger
    return ids


def test_the_graph_is_analysed_as_the_reference_does(http, ws, triangles):
    t = triangles
    snapshot = get(http, ws, "snapshot")
    assert snapshot == {
        "snapshot": {
            "workspace_id": ws,
            "context_id": None,
            "node_count": 7,
            "edge_count": 7,
            "includes_rpg": False,
        },
        "truncated": False,
    }
    communities = get(http, ws, "communities")
    assert communities["total_count"] == 3 and communities["truncated"] is False
    big, other, lone = communities["communities"]
    assert [c["id"] for c in (big, other, lone)] == [0, 1, 2]
    assert {frozenset(big["memory_ids"]), frozenset(other["memory_ids"])} == {
        frozenset((t["a1"], t["a2"], t["a3"])),
        frozenset((t["b1"], t["b2"], t["b3"])),
    }
    assert (big["size"], big["cohesion_score"], len(big["central_node_ids"])) == (3, 1.0, 3)
    assert (lone["memory_ids"], lone["size"], lone["cohesion_score"]) == ([t["lone"]], 1, 0.0)

    bridges = get(http, ws, "bridges")
    assert bridges["total_count"] == 1
    (bridge,) = bridges["bridges"]
    assert {bridge["memory_id_source"], bridge["memory_id_target"]} == {t["a1"], t["b1"]}
    assert (bridge["relationship_type"], bridge["strength"]) == ("causes", 0.4)
    assert bridge["source_community_id"] != bridge["target_community_id"]

    centrality = get(http, ws, "centrality")
    nodes = centrality["central_nodes"]
    assert centrality["total_count"] == 7 and [n["memory_id"] for n in nodes[:2]] == sorted(
        (t["a1"], t["b1"])
    )
    # a1 lies on every shortest path between the 2 other nodes of its triangle and the 3 of the other: 6 pairs,
    # normalised by the (n-1)(n-2)/2 = 15 pairs a node of 7 could lie between
    assert nodes[0]["betweenness"] == pytest.approx(6 / 15, abs=1e-6) and nodes[0]["degree"] == 3
    name = {v: k for k, v in t.items()}[nodes[0]["memory_id"]]
    assert nodes[0]["label"] == f"Lighthouse note {name}"  # the first line of its content
    assert {n["memory_id"]: n["betweenness"] for n in nodes}[t["lone"]] == 0.0

    stats = get(http, ws, "stats")["stats"]
    assert stats == {
        "node_count": 7, "edge_count": 7, "community_count": 3, "density": round(7 / 21, 6),
        "avg_degree": 2.0, "max_degree": 3, "god_node_count": 0,
    }  # fmt: skip

    r = http.post("/v1/graph/analyze", json={"workspace_id": ws})
    assert r.status_code == 200, r.text
    analysis = r.json()
    assert analysis["snapshot"] == snapshot["snapshot"] and analysis["stats"] == stats
    assert analysis["communities"] == communities["communities"] and analysis["bridges"] == bridges["bridges"]
    assert analysis["central_nodes"] == nodes and analysis["truncated"] is False


def test_deleted_memories_and_their_edges_leave_the_graph(http, ws, triangles):
    assert http.delete(f"/v1/memories/{triangles['lone']}", headers=h(ws)).status_code in (200, 204)
    assert http.delete(f"/v1/memories/{triangles['a1']}", headers=h(ws)).status_code in (200, 204)
    stats = get(http, ws, "stats")["stats"]
    assert (stats["node_count"], stats["edge_count"], stats["community_count"]) == (5, 4, 2)
    assert get(http, ws, "bridges")["bridges"] == []


def test_caps_bound_the_graph_and_say_so(http, ws, triangles, settings, monkeypatch):
    monkeypatch.setattr(settings, "graph_analysis_max_edges", 3)
    got = get(http, ws, "snapshot")
    assert got["truncated"] is True and got["snapshot"]["edge_count"] <= 3
    monkeypatch.setattr(settings, "graph_analysis_max_edges", 5000)
    monkeypatch.setattr(settings, "graph_analysis_max_nodes", 4)
    for part in ("centrality", "communities", "bridges"):
        assert get(http, ws, part)["truncated"] is True
    stats = get(http, ws, "stats")
    assert stats["truncated"] is True and stats["stats"]["node_count"] == 4
    # Betweenness from a sample of sources: still bounded, still an answer
    monkeypatch.setattr(settings, "graph_analysis_max_nodes", 5000)
    monkeypatch.setattr(settings, "graph_betweenness_pivots", 2)
    assert get(http, ws, "centrality")["total_count"] == 7


def test_the_context_filter_keeps_one_contexts_memories(http, ws):
    inside = [remember(http, ws, f"context memory {i}", context_id="ctx_graph")["id"] for i in range(2)]
    remember(http, ws, "outside memory")
    link(http, ws, inside[0], inside[1])
    snapshot = get(http, ws, "snapshot", context_id="ctx_graph")["snapshot"]
    assert (snapshot["context_id"], snapshot["node_count"], snapshot["edge_count"]) == ("ctx_graph", 2, 1)
    assert get(http, ws, "stats")["stats"]["node_count"] == 3


def test_the_densify_preview_adds_shared_entities_and_near_embeddings(http, ws):
    kw = {"subject": {"name": "PLAT-77", "type": "work_item"}, "assignee": "Ann Lee"}
    first = remember(http, ws, "Login fails after the SSO change", metadata={"knowledge_work": kw})["id"]
    second = remember(http, ws, "Rollback planned for the SSO change", metadata={"knowledge_work": kw})["id"]
    twin_a = remember(http, ws, "the harbour lighthouse keeper logs storms nightly")["id"]
    twin_b = remember(http, ws, "the harbour lighthouse keeper logs storms nightly too")["id"]
    assert len({first, second, twin_a, twin_b}) == 4

    r = http.post(
        "/v1/graph/densify-preview",
        json={"workspace_id": ws, "cosine_threshold": 0.9, "cosine_k": 1, "entity_max_group": 10},
    )
    assert r.status_code == 200, r.text
    preview = r.json()
    assert preview["baseline"]["edge_count"] == 0 and preview["baseline"]["community_count"] == 4
    assert preview["baseline"]["modularity"] is None
    assert preview["densify"]["entity"] == 1 and preview["densify"]["cosine"] >= 1
    assert (
        preview["densify"]["maxsim"] == 0
        and preview["densify"]["total_edges"] == preview["densified"]["edge_count"]
    )
    assert (
        preview["densified"]["community_count"] == 2
        and preview["densified"]["size_histogram"]["size_2_5"] == 2
    )
    assert preview["config"]["cosine"] == {"enabled": True, "threshold": 0.9, "k": 1, "weight": 1.0}
    # Nothing was stored: the graph itself still has no edges
    assert get(http, ws, "stats")["stats"]["edge_count"] == 0

    off = http.post(
        "/v1/graph/densify-preview",
        json={"workspace_id": ws, "cosine_enabled": False, "entity_enabled": False},
    ).json()
    assert off["densify"] == {"base_edges": 0, "cosine": 0, "maxsim": 0, "entity": 0, "total_edges": 0}


def test_relations_join_memories_about_one_entity_when_asked(http, ws):
    kw = {"subject": {"name": "PLAT-88", "type": "work_item"}, "assignee": "Ann Lee"}
    first = remember(http, ws, "Search is slow after the index change", metadata={"knowledge_work": kw})["id"]
    second = remember(http, ws, "Reindex planned for the search cluster", metadata={"knowledge_work": kw})[
        "id"
    ]
    remember(http, ws, "An unrelated note about lunch")
    # The reference's graph: associations only
    assert get(http, ws, "stats")["stats"]["edge_count"] == 0
    # Ours on request: one `shares_entity` edge between the two memories about PLAT-88 (and Ann Lee)
    stats = get(http, ws, "stats", include_relations=True)["stats"]
    assert (stats["node_count"], stats["edge_count"], stats["community_count"]) == (3, 1, 2)
    r = http.post("/v1/graph/analyze", json={"include_relations": True}, headers=h(ws))
    (community, lone) = r.json()["communities"]
    assert sorted(community["memory_ids"]) == sorted((first, second)) and lone["size"] == 1
    assert get(http, ws, "bridges", include_relations=True)["bridges"] == []


def test_an_empty_workspace_has_an_empty_graph(http, ws):
    assert get(http, ws, "stats")["stats"]["node_count"] == 0
    analysis = http.post("/v1/graph/analyze", json={}, headers=h(ws)).json()
    assert (analysis["communities"], analysis["central_nodes"], analysis["bridges"]) == ([], [], [])


def test_bad_input_is_refused(http, ws):
    too_long = "c" * 200
    assert http.get("/v1/graph/stats", params={"context_id": too_long}, headers=h(ws)).status_code == 422
    assert http.get("/v1/graph/snapshot", params={"include_rpg": "perhaps"}, headers=h(ws)).status_code == 422
    assert http.get("/v1/graph/stats", params={"workspace_id": "bad id"}).status_code == 400
    for body in ({"cosine_k": 0}, {"entity_max_group": 1}, {"cosine_threshold": 2}, {"context_id": too_long}):
        assert http.post("/v1/graph/densify-preview", json=body, headers=h(ws)).status_code == 422, body
    assert http.post("/v1/graph/analyze", json={"workspace_id": "bad id"}).status_code == 400


# ------------------------------------------------------------------------------------------------------ walls
@pytest.fixture()
def keys(secured, ws, other_ws) -> Iterator[tuple[httpx.Client, httpx.Client]]:  # noqa: F811
    with key_client(secured, ws) as a, key_client(secured, other_ws, f"t_{uuid.uuid4().hex[:8]}") as b:
        yield a, b


def test_another_workspace_sees_nothing_of_the_graph(keys, ws, other_ws):
    a, b = keys
    ids = [
        a.post("/v1/memories", json={"content": f"walled node {i}"}).json()["memory"]["id"] for i in range(2)
    ]
    assert (
        a.post(
            f"/v1/memories/{ids[0]}/associate", json={"target_id": ids[1], "relationship": "related_to"}
        ).status_code
        == 201
    )
    assert a.get("/v1/graph/stats").json()["stats"]["edge_count"] == 1

    for part in GETS:
        assert b.get(f"/v1/graph/{part}", params={"workspace_id": ws}).status_code == 403
    assert b.post("/v1/graph/analyze", json={"workspace_id": ws}).status_code == 403
    assert b.post("/v1/graph/densify-preview", json={"workspace_id": ws}).status_code == 403
    own = b.post("/v1/graph/analyze", json={}).json()
    assert own["snapshot"]["workspace_id"] == other_ws and own["snapshot"]["node_count"] == 0


def test_a_read_only_key_may_analyse_but_not_scan(secured, ws):  # noqa: F811
    with httpx.Client(base_url=secured, headers={"Authorization": f"Bearer {ADMIN}"}) as admin:
        key = admin.post("/v1/admin/api-keys", json={"workspaces": [ws], "access": "read"}).json()["key"]
    with httpx.Client(base_url=secured, headers={"Authorization": f"Bearer {key}"}) as reader:
        assert reader.post("/v1/graph/analyze", json={"workspace_id": ws}).status_code == 200
        assert reader.post("/v1/graph/densify-preview", json={"workspace_id": ws}).status_code == 200
        assert reader.get("/v1/graph/stats", params={"workspace_id": ws}).status_code == 200
        assert reader.get(f"/v1/workspaces/{ws}/contradictions").status_code == 200
        assert reader.post(f"/v1/workspaces/{ws}/contradictions/scan").status_code == 403


# ------------------------------------------------------------------------------------------------------ our SDK
def test_our_sdk_reads_every_part_of_the_analysis(base_url, ws, triangles):
    from memorylayer import SyncMemoryLayerClient

    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        analysis = client.analyze_graph()
        assert (analysis.snapshot.node_count, analysis.stats.community_count, analysis.truncated) == (
            7,
            3,
            False,
        )
        assert client.graph_snapshot() == analysis.snapshot
        assert client.graph_stats() == analysis.stats
        assert client.graph_communities() == analysis.communities
        assert client.graph_centrality() == analysis.central_nodes
        assert client.graph_bridges() == analysis.bridges and len(analysis.bridges) == 1
        preview = client.graph_densify_preview(signals={"cosine_enabled": False, "entity_enabled": False})
        assert preview["densify"]["total_edges"] == preview["baseline"]["edge_count"] == 7
        assert client.graph_stats(context_id="ctx_none").node_count == 0
        assert client.graph_stats(include_relations=True) == analysis.stats  # no relations here: the same
