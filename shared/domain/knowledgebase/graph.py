"""The workspace graph a knowledgebase is cut from, and its analysis: communities by label propagation, central
nodes by degree and (sampled) betweenness, bridges between communities, statistics. Pure and deterministic:
the same rows give the same communities, numbered the same way.

Nodes are memories. Two memories are linked when an association joins them, or when both are evidence about
the same entity (a star around that entity's first memory, so a popular entity costs edges linear in its
memories, not quadratic).

    >>> g = build(
    ...     [{"id": "m1", "content": "Alice likes tea"}, {"id": "m2", "content": "Alice drinks it hot"},
    ...      {"id": "m3", "content": "Bob runs"}],
    ...     [], {"ent_alice": ["m1", "m2"]})
    >>> [c.memory_ids for c in analyze(g).communities]
    [['m1', 'm2'], ['m3']]
"""

from __future__ import annotations

import statistics
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

SHARES_ENTITY = "shares_entity"
SHARED_ENTITY_STRENGTH = 0.5
MAX_PER_ENTITY = 100  # memories of one entity linked into the graph
ROUNDS = 30  # label propagation stops after this many sweeps even if labels still move
PIVOTS = 100  # betweenness is exact up to this many nodes, sampled from at most this many sources above it
PATH_BUDGET = 400_000  # node and edge visits the sampled sources may take together (a dense graph: fewer)
MAX_CENTRAL = 100  # central nodes reported, most central first
MAX_BRIDGES = 100


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    relationship: str
    strength: float


@dataclass
class Graph:
    nodes: list[str]  # sorted
    labels: dict[str, str]
    adjacency: dict[str, dict[str, float]]
    edges: list[Edge]


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
    bridges: list[Edge] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    community_of: dict[str, int] = field(default_factory=dict)


def node_label(content: str | None, max_len: int = 80) -> str | None:
    """A memory's first line, shortened for display."""
    text = (content or "").strip()
    if not text:
        return None
    first = text.splitlines()[0].strip()
    return first if len(first) <= max_len else first[: max_len - 1].rstrip() + "…"


def build(
    memories: Iterable[Mapping], associations: Iterable[Mapping], entity_memories: Mapping[str, Iterable[str]]
) -> Graph:
    """The undirected memory graph; an association wins over a shared-entity link between the same two."""
    labels = {m["id"]: node_label(m.get("content")) or m["id"] for m in memories}
    adjacency: dict[str, dict[str, float]] = {n: {} for n in labels}
    edges: list[Edge] = []

    def link(a: str, b: str, relationship: str, strength: float) -> None:
        if a == b or a not in adjacency or b not in adjacency or b in adjacency[a]:
            return
        adjacency[a][b] = adjacency[b][a] = max(float(strength), 0.01)
        edges.append(Edge(a, b, relationship, float(strength)))

    for a in associations:
        link(a["source_id"], a["target_id"], a["relationship"], a["strength"])
    for entity_id in sorted(entity_memories):
        members = sorted({m for m in entity_memories[entity_id] if m in adjacency})[:MAX_PER_ENTITY]
        for other in members[1:]:
            link(members[0], other, SHARES_ENTITY, SHARED_ENTITY_STRENGTH)
    return Graph(sorted(labels), labels, adjacency, edges)


def propagate(graph: Graph) -> dict[str, str]:
    """Each node's community label: nodes in id order take the label their neighbours weigh most (ties: keep
    one's own if it is among the best, else the smallest), until nothing moves or ``ROUNDS`` sweeps."""
    label = {n: n for n in graph.nodes}
    for _ in range(ROUNDS):
        moved = False
        for node in graph.nodes:
            weights: dict[str, float] = defaultdict(float)
            for neighbour, weight in graph.adjacency[node].items():
                weights[label[neighbour]] += weight
            if not weights:
                continue
            top = max(weights.values())
            best = sorted(lbl for lbl, w in weights.items() if w >= top - 1e-9)
            chosen = label[node] if label[node] in best else best[0]
            if chosen != label[node]:
                label[node], moved = chosen, True
        if not moved:
            break
    return label


def betweenness(graph: Graph) -> dict[str, float]:
    """Normalised betweenness (Brandes); from every node up to ``PIVOTS`` nodes, above that an estimate from
    evenly spaced sources, as many as ``PATH_BUDGET`` allows (at most ``PIVOTS``, at least one), scaled up."""
    nodes = graph.nodes
    n = len(nodes)
    result = dict.fromkeys(nodes, 0.0)
    if n <= 2:
        return result
    per_source = n + 2 * len(graph.edges)
    wanted = n if n <= PIVOTS else max(1, min(PIVOTS, PATH_BUDGET // per_source))
    step = max(1, n // wanted)
    sources = nodes[::step][:wanted]
    for s in sources:
        order: list[str] = []
        preds: dict[str, list[str]] = defaultdict(list)
        sigma = dict.fromkeys(nodes, 0.0)
        dist = dict.fromkeys(nodes, -1)
        sigma[s], dist[s] = 1.0, 0
        queue = deque([s])
        while queue:
            v = queue.popleft()
            order.append(v)
            for w in graph.adjacency[v]:
                if dist[w] < 0:
                    dist[w] = dist[v] + 1
                    queue.append(w)
                if dist[w] == dist[v] + 1:
                    sigma[w] += sigma[v]
                    preds[w].append(v)
        delta = dict.fromkeys(order, 0.0)
        for w in reversed(order):
            for v in preds[w]:
                delta[v] += sigma[v] / sigma[w] * (1 + delta[w])
            if w != s:
                result[w] += delta[w]
    scale = 1 / ((n - 1) * (n - 2)) * (n / len(sources))
    return {k: round(v * scale, 6) for k, v in result.items()}


def analyze(graph: Graph, *, central: bool = True) -> Analysis:
    """Communities (largest first, then by first member; numbered from 0), central nodes, bridges, stats."""
    n, m = len(graph.nodes), len(graph.edges)
    if n == 0:
        return Analysis()
    groups: dict[str, list[str]] = defaultdict(list)
    for node, lbl in propagate(graph).items():
        groups[lbl].append(node)
    ordered = sorted((sorted(g) for g in groups.values()), key=lambda g: (-len(g), g[0]))
    community_of = {node: idx for idx, members in enumerate(ordered) for node in members}

    communities = []
    for idx, members in enumerate(ordered):
        inside = {v: sum(1 for w in graph.adjacency[v] if community_of[w] == idx) for v in members}
        pairs = len(members) * (len(members) - 1) / 2
        cohesion = (sum(inside.values()) / 2) / pairs if pairs else 0.0
        top = sorted(members, key=lambda v: (-inside[v], v))[:3]
        communities.append(Community(idx, members, len(members), round(cohesion, 4), top))

    degrees = {v: len(graph.adjacency[v]) for v in graph.nodes}
    central_nodes: list[CentralNode] = []
    if central:
        between = betweenness(graph)
        ranked = sorted(graph.nodes, key=lambda v: (-between[v], -degrees[v], v))[:MAX_CENTRAL]
        central_nodes = [
            CentralNode(v, graph.labels.get(v), degrees[v], between[v], community_of[v]) for v in ranked
        ]
    bridges = sorted(
        (e for e in graph.edges if community_of[e.source] != community_of[e.target]),
        key=lambda e: (-e.strength, e.source, e.target),
    )[:MAX_BRIDGES]
    median = statistics.median(degrees.values())
    stats = Stats(
        node_count=n,
        edge_count=m,
        community_count=len(communities),
        density=round(2 * m / (n * (n - 1)), 6) if n > 1 else 0.0,
        avg_degree=round(2 * m / n, 2),
        max_degree=max(degrees.values()),
        god_node_count=sum(1 for d in degrees.values() if d > 2 * median),
    )
    return Analysis(communities, central_nodes, bridges, stats, community_of)
