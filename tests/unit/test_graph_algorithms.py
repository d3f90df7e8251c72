"""The graph analysis's own algorithms (no networkx at runtime): betweenness as networkx computes it, exact when
every node is a source and close when a sample is, deterministic communities, modularity."""

from __future__ import annotations

import pytest

from shared.domain.graph import algorithms as alg


def ring_of_cliques(cliques: int, size: int) -> alg.Graph:
    """``cliques`` complete graphs of ``size`` nodes, each joined to the next by one edge."""
    g = alg.Graph()
    for c in range(cliques):
        members = [f"c{c}n{i}" for i in range(size)]
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                g.add_edge(a, b, 0.9, "related_to")
        g.add_edge(members[0], f"c{(c + 1) % cliques}n1", 0.3, "causes")
    return g


def test_a_pair_keeps_one_edge_the_strongest():
    g = alg.Graph()
    g.add_edge("a", "b", 0.2, "related_to")
    g.add_edge("b", "a", 0.7, "causes")
    g.add_edge("a", "a", 1.0, "related_to")  # no loops
    assert (g.node_count, g.edge_count) == (2, 1)
    assert [(a, b, e.relationship, e.strength) for a, b, e in g.edges()] == [("a", "b", "causes", 0.7)]


def test_label_propagation_finds_the_cliques_and_is_deterministic():
    g = ring_of_cliques(4, 5)
    groups = alg.communities(g, alg.label_propagation(g))
    assert sorted(sorted(m) for m in groups) == [[f"c{c}n{i}" for i in range(5)] for c in range(4)]
    assert groups == alg.communities(g, alg.label_propagation(g))
    q = alg.modularity(g, groups)
    assert q is not None and 0.6 < q < 0.75


def test_isolated_nodes_are_communities_of_their_own():
    g = ring_of_cliques(2, 3)
    g.add_node("alone")
    groups = alg.communities(g, alg.label_propagation(g))
    assert groups[-1] == ["alone"] and len(groups) == 3


def test_density_god_nodes_and_empty_graphs():
    assert alg.density(4, 6) == 1.0 and alg.density(1, 0) == 0.0
    assert alg.god_nodes([1, 1, 1, 9]) == 1 and alg.god_nodes([]) == 0
    empty = alg.Graph()
    assert alg.betweenness(empty, pivots=8) == {} and alg.modularity(empty, []) is None


def test_betweenness_is_networkx_s_normalised_value():
    # On a path a-b-c-d-e a node lies between the pairs on its two sides: b and d between 1×3 of the 6 pairs
    # (n-1)(n-2)/2 = 6 it could lie between, c between 2×2; a star's centre between all of them.
    # (Checked against networkx.betweenness_centrality when written; networkx is not a dependency.)
    path = alg.Graph()
    for a, b in ("ab", "bc", "cd", "de"):
        path.add_edge(a, b, 0.5, "related_to")
    exact = alg.betweenness(path, pivots=5)
    assert exact == pytest.approx({"a": 0.0, "b": 0.5, "c": 4 / 6, "d": 0.5, "e": 0.0})
    star = alg.Graph()
    for leaf in "vwxyz":
        star.add_edge("hub", leaf, 0.5, "related_to")
    assert alg.betweenness(star, pivots=10) == pytest.approx({"hub": 1.0, **dict.fromkeys("vwxyz", 0.0)})


def test_betweenness_from_a_sample_of_sources_is_scaled_to_all_of_them():
    g = ring_of_cliques(6, 4)
    exact = alg.betweenness(g, pivots=g.node_count)
    sampled = alg.betweenness(g, pivots=8)
    assert sampled != exact
    # the bridge ends carry the load either way, and the totals agree within the sample's error
    ends = {f"c{c}n{i}" for c in range(6) for i in (0, 1)}
    assert set(sorted(sampled, key=lambda n: -sampled[n])[:4]) <= ends
    assert sum(sampled.values()) == pytest.approx(sum(exact.values()), rel=0.35)


def path_graph(n: int) -> tuple[alg.Graph, list[str]]:
    g, nodes = alg.Graph(), [f"n{i:02d}" for i in range(n)]
    for a, b in zip(nodes, nodes[1:], strict=False):
        g.add_edge(a, b, 1.0, "related_to")
    return g, nodes


def from_sources(n: int, sources: list[int]) -> list[float]:
    """Betweenness on a path of ``n`` estimated from ``sources``: a node lies between a source and every node
    beyond it, scaled as networkx scales a sample."""
    counted = [sum(n - 1 - v if s < v else v if s > v else 0 for s in sources) for v in range(n)]
    return [c * n / len(sources) / ((n - 1) * (n - 2)) for c in counted]


def test_sampled_betweenness_sources_are_spread_or_strided_and_bounded_by_a_budget():
    g, nodes = path_graph(8)
    spread = alg.betweenness(g, pivots=3)  # sources 0, 2, 5
    strided = alg.betweenness(g, pivots=3, stride=True)  # every 8 // 3 = 2nd: 0, 2, 4
    assert [spread[n] for n in nodes] == pytest.approx(from_sources(8, [0, 2, 5]))
    assert [strided[n] for n in nodes] == pytest.approx(from_sources(8, [0, 2, 4]))
    # 8 nodes + 2 × 7 edges = 22 visits a source: a budget of 44 allows two sources (0 and 4).
    budgeted = alg.betweenness(g, pivots=3, budget=44)
    assert [budgeted[n] for n in nodes] == pytest.approx(from_sources(8, [0, 4]))
    assert alg.betweenness(g, pivots=3, budget=1) == pytest.approx(
        dict(zip(nodes, from_sources(8, [0]), strict=True))
    )
    assert alg.betweenness(g, pivots=8, budget=1) == alg.betweenness(g, pivots=8)  # exact: no budget applies


def test_the_weakest_link_weighs_the_floor_in_label_propagation():
    # n has two weak links: to p (strength 0) and q (0.005). With a floor of 0.01 they weigh the same and n
    # takes the smaller label (p's); with the default floor q's weighs more.
    g = alg.Graph()
    g.add_edge("n", "p", 0.0, "related_to")
    g.add_edge("n", "q", 0.005, "related_to")
    p, q = 1, 2  # labels start as the nodes' places in id order
    assert alg.label_propagation(g, floor=0.01) == {"n": p, "p": p, "q": p}
    assert alg.label_propagation(g) == {"n": q, "p": q, "q": q}


def test_an_edge_remembers_the_direction_it_was_added_in():
    g = alg.Graph()
    g.add_edge("b", "a", 0.5, "causes")
    assert [(a, b, e.source, e.target) for a, b, e in g.edges()] == [("a", "b", "b", "a")]
    assert g.linked("a", "b") and g.linked("b", "a") and not g.linked("a", "c")
