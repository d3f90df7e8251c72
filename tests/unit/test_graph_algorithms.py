"""The graph analysis's own algorithms (no networkx at runtime): betweenness as networkx computes it, exact when
every node is a source and close when a sample is, deterministic communities, modularity."""

from __future__ import annotations

import random

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


def test_betweenness_matches_networkx_exactly_and_estimates_from_a_sample():
    nx = pytest.importorskip("networkx")
    rng = random.Random(7)
    reference = nx.gnm_random_graph(60, 150, seed=7)
    g = alg.Graph()
    for node in reference.nodes:
        g.add_node(f"n{node:02d}")
    for a, b in reference.edges:
        g.add_edge(f"n{a:02d}", f"n{b:02d}", rng.random(), "related_to")
    expected = {f"n{n:02d}": v for n, v in nx.betweenness_centrality(reference).items()}
    exact = alg.betweenness(g, pivots=60)
    assert max(abs(exact[n] - expected[n]) for n in expected) < 1e-12
    sampled = alg.betweenness(g, pivots=20)
    top = sorted(expected, key=expected.get, reverse=True)[:5]
    assert len(set(top) & set(sorted(sampled, key=sampled.get, reverse=True)[:10])) >= 3
