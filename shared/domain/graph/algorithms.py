"""Small, deterministic graph algorithms over a bounded undirected graph (pure Python, no networkx: the memory
Lambda's bundle stays small, and the graph is capped before it gets here, so O(k·(V+E)) is affordable).

    >>> g = Graph()
    >>> g.add_edge("a", "b", 1.0, "related_to"); g.add_edge("b", "c", 1.0, "related_to")
    >>> communities(g, label_propagation(g))[0]
    ['a', 'b', 'c']
    >>> round(betweenness(g, pivots=10)["b"], 3)
    1.0
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass, field


@dataclass
class Edge:
    strength: float
    relationship: str
    source: str  # the ends as the edge was added (an association's direction), for callers that report it
    target: str


@dataclass
class Graph:
    """An undirected simple graph: one edge per pair of nodes (the strongest association between them)."""

    adjacency: dict[str, dict[str, Edge]] = field(default_factory=dict)
    _edges: int = 0

    def add_node(self, node: str) -> None:
        self.adjacency.setdefault(node, {})

    def add_edge(self, a: str, b: str, strength: float, relationship: str) -> None:
        """Add or strengthen ``a``–``b``; a second edge between the pair keeps the stronger one."""
        if a == b:
            return
        self.add_node(a)
        self.add_node(b)
        current = self.adjacency[a].get(b)
        if current is None:
            self._edges += 1
        if current is None or strength > current.strength:
            edge = Edge(strength, relationship, a, b)
            self.adjacency[a][b] = edge
            self.adjacency[b][a] = edge

    def has(self, node: str) -> bool:
        return node in self.adjacency

    def linked(self, a: str, b: str) -> bool:
        return b in self.adjacency.get(a, {})

    @property
    def nodes(self) -> list[str]:
        return sorted(self.adjacency)

    def edges(self) -> list[tuple[str, str, Edge]]:
        """Each edge once, ``a < b``, in id order."""
        return [(a, b, e) for a in self.nodes for b, e in sorted(self.adjacency[a].items()) if a < b]

    @property
    def node_count(self) -> int:
        return len(self.adjacency)

    @property
    def edge_count(self) -> int:
        return self._edges

    def degree(self, node: str) -> int:
        return len(self.adjacency[node])


def label_propagation(
    g: Graph,
    *,
    weight: dict[tuple[str, str], float] | None = None,
    rounds: int = 50,
    floor: float = 1e-9,
) -> dict[str, int]:
    """Community of each node by asynchronous label propagation: in id order, a node takes the label its
    neighbours carry the most weight of (ties: its own if among the best, else the smallest), until nothing
    changes or ``rounds`` pass. Deterministic, unlike random-order propagation; ``weight`` overrides an edge's
    strength by pair, and no edge weighs less than ``floor`` (a zero-strength link still counts)."""
    nodes = g.nodes
    label = {n: i for i, n in enumerate(nodes)}
    for _ in range(rounds):
        changed = False
        for node in nodes:
            neighbours = g.adjacency[node]
            if not neighbours:
                continue
            score: dict[int, float] = {}
            for other, edge in neighbours.items():
                w = weight.get(pair(node, other), edge.strength) if weight else edge.strength
                score[label[other]] = score.get(label[other], 0.0) + max(w, floor)
            best = max(score.values())
            choice = min(lab for lab, s in score.items() if s >= best - 1e-12)
            if choice != label[node] and score.get(label[node], 0.0) < best - 1e-12:
                label[node] = choice
                changed = True
        if not changed:
            break
    return label


def communities(g: Graph, labels: dict[str, int]) -> list[list[str]]:
    """The nodes grouped by label, largest group first (ties: the group with the smallest id); members sorted."""
    groups: dict[int, list[str]] = {}
    for node in g.nodes:
        groups.setdefault(labels[node], []).append(node)
    return sorted(groups.values(), key=lambda members: (-len(members), members[0]))


def membership(groups: list[list[str]]) -> dict[str, int]:
    """Node → the index of its community in ``groups``."""
    return {node: index for index, members in enumerate(groups) for node in members}


def density(node_count: int, edge_count: int) -> float:
    """Edges present over edges possible (an undirected simple graph)."""
    return 2.0 * edge_count / (node_count * (node_count - 1)) if node_count > 1 else 0.0


def inner_degrees(g: Graph, members: list[str]) -> dict[str, int]:
    inside = set(members)
    return {n: sum(1 for other in g.adjacency[n] if other in inside) for n in members}


def betweenness(
    g: Graph, *, pivots: int, budget: int | None = None, stride: bool = False
) -> dict[str, float]:
    """Normalised betweenness centrality (as networkx's ``betweenness_centrality``, unweighted), by Brandes'
    algorithm from at most ``pivots`` sources spread evenly over the nodes in id order and scaled up: exact when
    the graph has no more nodes than pivots, an estimate above (the cost is pivots × (V + E), not V × (V + E)).
    When sampling, a ``budget`` of node and edge visits lowers the sources further (at least one): a dense
    graph gets fewer; ``stride`` takes every (n // k)-th node from the first instead of spreading them (the
    knowledgebase's sample, so its estimates stay what they were)."""
    nodes = g.nodes
    n = len(nodes)
    if n < 3:
        return dict.fromkeys(nodes, 0.0)
    index = {node: i for i, node in enumerate(nodes)}
    neighbours = [[index[other] for other in g.adjacency[node]] for node in nodes]
    score = [0.0] * n
    k = min(pivots, n)
    if budget is not None and n > pivots:
        k = max(1, min(k, budget // (n + 2 * g.edge_count)))
    step = n // k
    for s in ((i * step if stride else (i * n) // k) for i in range(k)):
        order: list[int] = []
        preds: list[list[int]] = [[] for _ in range(n)]
        sigma = [0.0] * n
        dist = [-1] * n
        sigma[s], dist[s] = 1.0, 0
        queue = deque([s])
        while queue:
            v = queue.popleft()
            order.append(v)
            for w in neighbours[v]:
                if dist[w] < 0:
                    dist[w] = dist[v] + 1
                    queue.append(w)
                if dist[w] == dist[v] + 1:
                    sigma[w] += sigma[v]
                    preds[w].append(v)
        delta = [0.0] * n
        for w in reversed(order):
            coefficient = (1.0 + delta[w]) / sigma[w]
            for v in preds[w]:
                delta[v] += sigma[v] * coefficient
            if w != s:
                score[w] += delta[w]
    # Every pair is counted from both ends in an undirected graph: normalising by (n-1)(n-2) ordered pairs
    # gives networkx's value; sampled sources are scaled up to all n.
    scale = 1.0 / ((n - 1) * (n - 2)) * (n / k)
    return {node: score[i] * scale for i, node in enumerate(nodes)}


def god_nodes(degrees: list[int]) -> int:
    """Nodes whose degree is more than twice the median (the reference's "god nodes")."""
    if not degrees:
        return 0
    median = statistics.median(degrees)
    return sum(1 for d in degrees if d > 2 * median)


def modularity(
    g: Graph, groups: list[list[str]], weight: dict[tuple[str, str], float] | None = None
) -> float | None:
    """Weighted modularity of a partition (None for a graph without edges)."""
    w = {(a, b): (weight.get((a, b), e.strength) if weight else e.strength) for a, b, e in g.edges()}
    total = sum(w.values())
    if total <= 0:
        return None
    strength: dict[str, float] = dict.fromkeys(g.nodes, 0.0)
    for (a, b), value in w.items():
        strength[a] += value
        strength[b] += value
    index = membership(groups)
    inner = [0.0] * len(groups)
    for (a, b), value in w.items():
        if index[a] == index[b]:
            inner[index[a]] += value
    degree_sums = [sum(strength[n] for n in members) for members in groups]
    return sum(inner[c] / total - (degree_sums[c] / (2 * total)) ** 2 for c in range(len(groups)))


def pair(a: str, b: str) -> tuple[str, str]:
    """An undirected edge's key: its two nodes in id order."""
    return (a, b) if a < b else (b, a)
