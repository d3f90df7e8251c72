"""Graph analysis of a workspace's association graph (``/v1/graph/*``): communities, centrality, bridges between
communities, statistics, and the densify preview. Read only.

The graph is bounded before anything is computed: the strongest associations between live memories first (at
most ``graph_analysis_max_edges``), with ``include_relations`` then the pairs of memories about one entity, then
the workspace's other live memories, newest first, as nodes without edges, up to ``graph_analysis_max_nodes``
nodes in all. ``truncated`` says a cap left something out.

    >>> GraphService(db, settings).analyze("ws_a", context_id=None)["stats"]["community_count"]   # doctest: +SKIP
    3
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from shared.core.settings import Settings
from shared.db import graph as repo
from shared.db.pool import Database
from shared.domain.graph import algorithms as alg
from shared.domain.graph import analysis as shape


@dataclass(frozen=True)
class DensifyConfig:
    """The densify preview's signals (the reference's names and defaults). ``maxsim`` needs page multivectors,
    which no memory here has: it is accepted and adds no edges."""

    cosine_enabled: bool = True
    cosine_threshold: float = 0.82
    cosine_k: int = 8
    cosine_weight: float = 1.0
    maxsim_enabled: bool = True
    maxsim_threshold: float = 0.0
    maxsim_k: int = 8
    maxsim_weight: float = 1.5
    entity_enabled: bool = True
    entity_weight: float = 1.0
    entity_max_group: int = 50


# With ``include_relations``: memories that are evidence about one entity (a typed relation's end) are joined
# by a ``shares_entity`` edge of this strength (an association between them, if stronger, wins); an entity with
# more memories than the cap joins none (it would join everything).
SHARES_ENTITY = "shares_entity"
RELATION_STRENGTH = 0.5
RELATION_GROUP_CAP = 50


@dataclass
class Built:
    graph: alg.Graph
    truncated: bool
    labels: dict[str, str] = field(default_factory=dict)


class GraphService:
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings

    # ------------------------------------------------------------------ building
    def build(
        self,
        workspace_id: str,
        *,
        context_id: str | None,
        include_relations: bool = False,
        with_labels: bool = False,
    ) -> Built:
        max_nodes = self.settings.graph_analysis_max_nodes
        max_edges = self.settings.graph_analysis_max_edges
        g = alg.Graph()
        truncated = False

        def admit(a: str, b: str, strength: float, relationship: str) -> None:
            nonlocal truncated
            new = len({n for n in (a, b) if not g.has(n)})
            if g.node_count + new > max_nodes or g.edge_count >= max_edges:
                truncated = True
            else:
                g.add_edge(a, b, strength, relationship)

        with self.db.connection() as conn:
            rows = repo.edges(conn, workspace_id, context_id=context_id, limit=max_edges)
            truncated = len(rows) > max_edges
            for row in rows[:max_edges]:
                admit(row["source_id"], row["target_id"], float(row["strength"]), row["relationship"])
            if include_relations:
                evidence = repo.entity_evidence(conn, workspace_id, context_id=context_id, limit=max_edges)
                truncated = truncated or len(evidence) > max_edges
                for a, b in _shared_entity_pairs(evidence[:max_edges], RELATION_GROUP_CAP):
                    admit(a, b, RELATION_STRENGTH, SHARES_ENTITY)
            live = repo.live_memories(conn, workspace_id, context_id=context_id, limit=max_nodes)
            truncated = truncated or len(live) > max_nodes
            for row in live:
                if g.has(row["id"]):
                    continue
                if g.node_count >= max_nodes:
                    truncated = True
                    break
                g.add_node(row["id"])
            labels = repo.labels(conn, workspace_id, g.nodes) if with_labels and g.node_count else {}
        return Built(g, truncated, labels)

    # ------------------------------------------------------------------ the parts
    def snapshot(
        self,
        workspace_id: str,
        *,
        context_id: str | None,
        include_rpg: bool = False,
        include_relations: bool = False,
    ) -> dict[str, Any]:
        built = self.build(workspace_id, context_id=context_id, include_relations=include_relations)
        return {
            "snapshot": _snapshot(built, workspace_id, context_id, include_rpg),
            "truncated": built.truncated,
        }

    def communities(
        self, workspace_id: str, *, context_id: str | None, include_relations: bool = False
    ) -> dict[str, Any]:
        built = self.build(workspace_id, context_id=context_id, include_relations=include_relations)
        found = _communities(built.graph, _groups(built.graph))
        return {"communities": found, "total_count": len(found), "truncated": built.truncated}

    def centrality(
        self, workspace_id: str, *, context_id: str | None, include_relations: bool = False
    ) -> dict[str, Any]:
        built = self.build(
            workspace_id, context_id=context_id, include_relations=include_relations, with_labels=True
        )
        nodes = self._central_nodes(built, _groups(built.graph))
        return {"central_nodes": nodes, "total_count": len(nodes), "truncated": built.truncated}

    def bridges(
        self, workspace_id: str, *, context_id: str | None, include_relations: bool = False
    ) -> dict[str, Any]:
        built = self.build(workspace_id, context_id=context_id, include_relations=include_relations)
        found = _bridges(built.graph, _groups(built.graph))
        return {"bridges": found, "total_count": len(found), "truncated": built.truncated}

    def stats(
        self, workspace_id: str, *, context_id: str | None, include_relations: bool = False
    ) -> dict[str, Any]:
        built = self.build(workspace_id, context_id=context_id, include_relations=include_relations)
        return {"stats": _stats(built.graph, _groups(built.graph)), "truncated": built.truncated}

    def analyze(
        self,
        workspace_id: str,
        *,
        context_id: str | None,
        include_rpg: bool = False,
        include_relations: bool = False,
    ) -> dict[str, Any]:
        """Everything at once: the graph built once, communities found once."""
        built = self.build(
            workspace_id, context_id=context_id, include_relations=include_relations, with_labels=True
        )
        groups = _groups(built.graph)
        return {
            "snapshot": _snapshot(built, workspace_id, context_id, include_rpg),
            "communities": _communities(built.graph, groups),
            "central_nodes": self._central_nodes(built, groups),
            "bridges": _bridges(built.graph, groups),
            "stats": _stats(built.graph, groups),
            "truncated": built.truncated,
        }

    def _central_nodes(self, built: Built, groups: list[list[str]]) -> list[dict[str, Any]]:
        g = built.graph
        between = alg.betweenness(g, pivots=self.settings.graph_betweenness_pivots)
        labels = {n: shape.node_label(text) for n, text in built.labels.items()}
        return [asdict(n) for n in shape.central_nodes(g, alg.membership(groups), between, labels)]

    # ------------------------------------------------------------------ densify preview
    def densify_preview(
        self, workspace_id: str, config: DensifyConfig, *, context_id: str | None
    ) -> dict[str, Any]:
        """Communities before and after adding the extra signals' edges to the same graph (nothing is stored):
        memories that are evidence about one entity, and each memory's nearest embeddings."""
        built = self.build(workspace_id, context_id=context_id)
        g = built.graph
        weight = {alg.pair(a, b): (e.strength or 1.0) for a, b, e in g.edges()}
        baseline = _summary(g, weight)
        base_edges = g.edge_count
        added = {"cosine": 0, "maxsim": 0, "entity": 0}
        nodes = g.nodes
        with self.db.connection() as conn:
            if config.cosine_enabled and len(nodes) > 1:
                vectors = repo.embeddings(conn, workspace_id, nodes)
                signal = _strongest(nearest(vectors, k=config.cosine_k, threshold=config.cosine_threshold))
                added["cosine"] = _merge(g, weight, _normalised(signal, config.cosine_weight), "cosine")
            if config.entity_enabled and nodes:
                groups = _by_entity(repo.entity_members(conn, workspace_id, nodes))
                signal = _shared_entities(groups, config.entity_max_group)
                added["entity"] = _merge(g, weight, _normalised(signal, config.entity_weight), "entity")
        return {
            "workspace_id": workspace_id,
            "baseline": baseline,
            "densified": _summary(g, weight),
            "densify": {"base_edges": base_edges, **added, "total_edges": g.edge_count},
            "config": {
                "cosine": {
                    "enabled": config.cosine_enabled,
                    "threshold": config.cosine_threshold,
                    "k": config.cosine_k,
                    "weight": config.cosine_weight,
                },
                "maxsim": {
                    "enabled": config.maxsim_enabled,
                    "threshold": config.maxsim_threshold,
                    "k": config.maxsim_k,
                    "weight": config.maxsim_weight,
                },
                "entity": {
                    "enabled": config.entity_enabled,
                    "weight": config.entity_weight,
                    "max_group": config.entity_max_group,
                },
            },
            "truncated": built.truncated,
        }


# ---------------------------------------------------------------------- shaping
def _groups(g: alg.Graph) -> list[list[str]]:
    return alg.communities(g, alg.label_propagation(g))


def _snapshot(built: Built, workspace_id: str, context_id: str | None, include_rpg: bool) -> dict[str, Any]:
    return {
        "workspace_id": workspace_id,
        "context_id": context_id,
        "node_count": built.graph.node_count,
        "edge_count": built.graph.edge_count,
        "includes_rpg": include_rpg,
    }


def _communities(g: alg.Graph, groups: list[list[str]]) -> list[dict[str, Any]]:
    return [asdict(c) for c in shape.communities(g, groups)]


def _bridges(g: alg.Graph, groups: list[list[str]]) -> list[dict[str, Any]]:
    """Edges between two communities, strongest first."""
    index = alg.membership(groups)
    return [
        {
            "source_community_id": index[a],
            "target_community_id": index[b],
            "memory_id_source": a,
            "memory_id_target": b,
            "relationship_type": e.relationship,
            "strength": e.strength,
        }
        for a, b, e in shape.bridges(g, index)
    ]


def _stats(g: alg.Graph, groups: list[list[str]]) -> dict[str, Any]:
    return asdict(shape.stats(g, groups))


def _summary(g: alg.Graph, weight: dict[tuple[str, str], float]) -> dict[str, Any]:
    """Community structure under ``weight``: counts, a size histogram, the largest sizes, modularity."""
    groups = alg.communities(g, alg.label_propagation(g, weight=weight))
    sizes = [len(m) for m in groups]
    histogram = {"size_1": 0, "size_2_5": 0, "size_6_20": 0, "size_21_plus": 0}
    for s in sizes:
        bucket = "size_1" if s == 1 else "size_2_5" if s <= 5 else "size_6_20" if s <= 20 else "size_21_plus"
        histogram[bucket] += 1
    q = alg.modularity(g, groups, weight)
    return {
        "node_count": g.node_count,
        "edge_count": g.edge_count,
        "community_count": len(groups),
        "size_histogram": histogram,
        "top_sizes": sizes[:15],
        "modularity": None if q is None else round(q, 4),
    }


Signal = dict[tuple[str, str], float]


def nearest(rows: list[dict], *, k: int, threshold: float) -> list[tuple[str, str, float]]:
    """Each memory's ``k`` nearest others by cosine similarity (ties by id), those at least ``threshold``:
    (a, b, similarity). One matrix product over the (capped) nodes' vectors, vectors of one size compared only
    with each other; a zero vector is near nothing.

    >>> rows = [{"id": "a", "embedding": [1.0, 0.0]}, {"id": "b", "embedding": [0.9, 0.1]},
    ...         {"id": "c", "embedding": [0.0, 1.0]}]
    >>> [(x, y, round(s, 3)) for x, y, s in nearest(rows, k=1, threshold=0.5)]
    [('a', 'b', 0.994), ('b', 'a', 0.994)]
    """
    by_size: dict[int, list[tuple[str, Any]]] = {}
    for row in rows:
        vector = row["embedding"]
        vector = np.asarray(vector.to_numpy() if hasattr(vector, "to_numpy") else vector, dtype=np.float64)
        by_size.setdefault(len(vector), []).append((row["id"], vector))
    out: list[tuple[str, str, float]] = []
    for group in by_size.values():
        ids = [memory_id for memory_id, _ in group]
        matrix = np.stack([vector for _, vector in group])
        norms = np.linalg.norm(matrix, axis=1)
        usable = norms > 0
        unit = matrix / np.where(usable, norms, 1.0)[:, None]
        sims = unit @ unit.T
        sims[~usable, :] = -np.inf
        sims[:, ~usable] = -np.inf
        np.fill_diagonal(sims, -np.inf)
        for i, row_sims in enumerate(sims):
            passing = np.flatnonzero(row_sims >= threshold)
            if len(passing) > k:
                # The k-th best value, and every candidate at least as good (ties are then ordered by id).
                kth = np.partition(row_sims[passing], len(passing) - k)[len(passing) - k]
                passing = passing[row_sims[passing] >= kth]
            best = sorted((-float(row_sims[j]), ids[j]) for j in passing)[:k]
            out.extend((ids[i], b, -negative) for negative, b in best)
    return sorted(out, key=lambda edge: (edge[0], edge[1]))


def _strongest(edges: Any) -> Signal:
    out: Signal = {}
    for a, b, w in edges:
        key = alg.pair(a, b)
        out[key] = max(out.get(key, w), w)
    return out


def _by_entity(rows: list[dict]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for r in rows:
        groups.setdefault(r["entity_id"], []).append(r["memory_id"])
    return groups


def _shared_entity_pairs(rows: list[dict], max_group: int) -> list[tuple[str, str]]:
    """The pairs of memories that are evidence about one entity, each once, in id order."""
    return sorted(_shared_entities(_by_entity(rows), max_group))


def _shared_entities(groups: dict[str, list[str]], max_group: int) -> Signal:
    """One edge per pair of memories about one entity, its weight the number of entities they share; an entity
    with more than ``max_group`` memories is skipped (it would join everything)."""
    out: Signal = {}
    for members in groups.values():
        ms = sorted(set(members))
        if len(ms) < 2 or len(ms) > max_group:
            continue
        for i, a in enumerate(ms):
            for b in ms[i + 1 :]:
                out[(a, b)] = out.get((a, b), 0.0) + 1.0
    return out


def _normalised(signal: Signal, scale: float) -> Signal:
    """Min-max to [0, 1], times ``scale``: signals on different scales add up without one swamping another."""
    if not signal:
        return {}
    lo, hi = min(signal.values()), max(signal.values())
    return {k: ((w - lo) / (hi - lo) if hi - lo > 1e-9 else 1.0) * scale for k, w in signal.items()}


def _merge(g: alg.Graph, weight: dict[tuple[str, str], float], signal: Signal, name: str) -> int:
    """Add ``signal`` to the graph: an existing edge gains weight, a new one is made. Returns how many new."""
    added = 0
    for (a, b), w in signal.items():
        if not (g.has(a) and g.has(b)):
            continue
        if (a, b) in weight:
            weight[(a, b)] += w
        else:
            g.add_edge(a, b, min(1.0, max(0.0, w)), f"densify:{name}")
            weight[(a, b)] = w
            added += 1
    return added
