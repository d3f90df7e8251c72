"""What an analysis reports about a graph, shaped once for both readers of it (``/v1/graph/*`` and the
knowledgebase): communities with their cohesion and most central members, central nodes, the edges between
communities, statistics. Pure and deterministic over ``algorithms``.

    >>> g = alg.Graph()
    >>> g.add_edge("a", "b", 0.8, "related_to"); g.add_node("c")
    >>> [c.memory_ids for c in analyze(g, {}, pivots=10).communities]
    [['a', 'b'], ['c']]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.domain.graph import algorithms as alg


@dataclass
class Community:
    id: int
    memory_ids: list[str]
    size: int
    cohesion_score: float
    central_node_ids: list[str]
    label: str | None = None


@dataclass
class CentralNode:
    memory_id: str
    label: str | None
    degree: int
    betweenness: float
    community_id: int


@dataclass
class Stats:
    node_count: int = 0
    edge_count: int = 0
    community_count: int = 0
    density: float = 0.0
    avg_degree: float = 0.0
    max_degree: int = 0
    god_node_count: int = 0


@dataclass
class Analysis:
    communities: list[Community] = field(default_factory=list)
    central_nodes: list[CentralNode] = field(default_factory=list)
    bridges: list[alg.Edge] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    community_of: dict[str, int] = field(default_factory=dict)


def node_label(text: str | None, max_len: int = 80) -> str | None:
    """A memory's display label: the first line of its content, shortened (the reference's)."""
    stripped = (text or "").strip()
    if not stripped:
        return None
    first = stripped.splitlines()[0].strip()
    return first if len(first) <= max_len else first[: max_len - 1].rstrip() + "…"


def communities(g: alg.Graph, groups: list[list[str]]) -> list[Community]:
    """Each group numbered in order, its cohesion (the density inside it) and its three members with the most
    links inside it (ties by id)."""
    out = []
    for index, members in enumerate(groups):
        inner = alg.inner_degrees(g, members)
        central = sorted(members, key=lambda n: (-inner[n], n))[:3]
        cohesion = round(alg.density(len(members), sum(inner.values()) // 2), 4)
        out.append(Community(index, members, len(members), cohesion, central))
    return out


def central_nodes(
    g: alg.Graph,
    index: dict[str, int],
    between: dict[str, float],
    labels: dict[str, str | None],
    limit: int | None = None,
) -> list[CentralNode]:
    """Nodes by betweenness (to six places), then degree, then id; at most ``limit``."""
    ranked = sorted(g.nodes, key=lambda n: (-round(between[n], 6), -g.degree(n), n))[:limit]
    return [
        CentralNode(n, labels.get(n), g.degree(n), round(between[n], 6), index.get(n, -1)) for n in ranked
    ]


def bridges(
    g: alg.Graph, index: dict[str, int], *, oriented: bool = False
) -> list[tuple[str, str, alg.Edge]]:
    """Edges between two communities, strongest first, then by their ends: in id order, or ``oriented`` as each
    edge was added."""
    found = (
        (e.source, e.target, e) if oriented else (a, b, e) for a, b, e in g.edges() if index[a] != index[b]
    )
    return sorted(found, key=lambda x: (-x[2].strength, x[0], x[1]))


def stats(g: alg.Graph, groups: list[list[str]]) -> Stats:
    degrees = [g.degree(n) for n in g.nodes]
    return Stats(
        node_count=g.node_count,
        edge_count=g.edge_count,
        community_count=len(groups),
        density=round(alg.density(g.node_count, g.edge_count), 6),
        avg_degree=round(sum(degrees) / len(degrees), 2) if degrees else 0.0,
        max_degree=max(degrees, default=0),
        god_node_count=alg.god_nodes(degrees),
    )


def analyze(
    g: alg.Graph,
    labels: dict[str, str | None],
    *,
    pivots: int,
    budget: int | None = None,
    stride: bool = False,
    central: bool = True,
    rounds: int = 50,
    floor: float = 1e-9,
    limit: int | None = None,
) -> Analysis:
    """Everything at once, communities found once: central nodes (unless not ``central``: no betweenness) and
    bridges (their ends as added) at most ``limit`` each."""
    if g.node_count == 0:
        return Analysis()
    groups = alg.communities(g, alg.label_propagation(g, rounds=rounds, floor=floor))
    index = alg.membership(groups)
    ranked: list[CentralNode] = []
    if central:
        ranked = central_nodes(
            g, index, alg.betweenness(g, pivots=pivots, budget=budget, stride=stride), labels, limit
        )
    crossing = [e for _, _, e in bridges(g, index, oriented=True)][:limit]
    return Analysis(communities(g, groups), ranked, crossing, stats(g, groups), index)
