"""Graph analysis of a workspace's associations (/v1/graph/*): the reference's models, plus ``truncated``."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.api.schemas.base import Wire

_TRUNCATED = (
    "A cap (`MEMORYLAYER_GRAPH_ANALYSIS_MAX_EDGES`, `…_MAX_NODES`) left edges or memories out of the graph."
)


class GraphSnapshot(Wire):
    workspace_id: str = Field(description="The workspace analysed.")
    context_id: str | None = Field(default=None, description="The context filter, if one was given.")
    node_count: int = Field(default=0, description="Memories in the graph.")
    edge_count: int = Field(default=0, description="Edges: pairs of memories joined by an association.")
    includes_rpg: bool = Field(
        default=False, description="Echoes `include_rpg`; every live memory is a node."
    )


class Community(Wire):
    id: int = Field(description="0-based, largest community first.")
    memory_ids: list[str] = Field(default_factory=list, description="Its memories.")
    size: int = Field(default=0, description="How many memories.")
    cohesion_score: float = Field(default=0.0, description="Edge density inside the community (0–1).")
    central_node_ids: list[str] = Field(
        default_factory=list, description="Its three best-connected memories inside it."
    )
    label: str | None = Field(default=None, description="A topic label (none is generated here).")


class CentralNode(Wire):
    memory_id: str = Field(description="The memory.")
    label: str | None = Field(default=None, description="The first line of its content, shortened.")
    degree: int = Field(default=0, description="How many memories it is joined to.")
    betweenness: float = Field(
        default=0.0,
        description="Normalised betweenness centrality; estimated from a sample of sources on large graphs.",
    )
    community_id: int = Field(default=-1, description="The community it belongs to.")


class Bridge(Wire):
    source_community_id: int = Field(description="One side's community.")
    target_community_id: int = Field(description="The other side's community.")
    memory_id_source: str = Field(description="The memory on the first side.")
    memory_id_target: str = Field(description="The memory on the other side.")
    relationship_type: str = Field(description="The association's relationship (the strongest of the pair).")
    strength: float = Field(default=0.0, ge=0.0, le=1.0, description="The association's strength.")


class GraphStats(Wire):
    node_count: int = Field(default=0, description="Memories in the graph.")
    edge_count: int = Field(default=0, description="Edges in the graph.")
    community_count: int = Field(default=0, description="Communities found.")
    density: float = Field(default=0.0, description="Edges present over edges possible (0–1).")
    avg_degree: float = Field(default=0.0, description="Mean edges per memory.")
    max_degree: int = Field(default=0, description="The most edges any memory has.")
    god_node_count: int = Field(default=0, description="Memories with more than twice the median degree.")


class GraphSnapshotResponse(Wire):
    snapshot: GraphSnapshot = Field(description="The graph's size.")
    truncated: bool = Field(description=_TRUNCATED)


class CommunitiesResponse(Wire):
    communities: list[Community] = Field(description="Communities by label propagation, largest first.")
    total_count: int = Field(description="How many.")
    truncated: bool = Field(description=_TRUNCATED)


class CentralityResponse(Wire):
    central_nodes: list[CentralNode] = Field(description="Every memory of the graph, most between first.")
    total_count: int = Field(description="How many.")
    truncated: bool = Field(description=_TRUNCATED)


class BridgesResponse(Wire):
    bridges: list[Bridge] = Field(description="Edges joining two communities, strongest first.")
    total_count: int = Field(description="How many.")
    truncated: bool = Field(description=_TRUNCATED)


class GraphStatsResponse(Wire):
    stats: GraphStats = Field(description="The graph's aggregate statistics.")
    truncated: bool = Field(description=_TRUNCATED)


class GraphAnalysis(Wire):
    snapshot: GraphSnapshot = Field(description="The graph's size.")
    communities: list[Community] = Field(default_factory=list, description="As GET /v1/graph/communities.")
    central_nodes: list[CentralNode] = Field(default_factory=list, description="As GET /v1/graph/centrality.")
    bridges: list[Bridge] = Field(default_factory=list, description="As GET /v1/graph/bridges.")
    stats: GraphStats = Field(description="As GET /v1/graph/stats.")
    truncated: bool = Field(description=_TRUNCATED)


class DensifyPreview(Wire):
    workspace_id: str = Field(description="The workspace analysed.")
    baseline: dict[str, Any] = Field(
        description="Communities of the association graph: `node_count`, `edge_count`, `community_count`, "
        "`size_histogram`, `top_sizes`, `modularity`."
    )
    densified: dict[str, Any] = Field(description="The same, with the enabled signals' edges added.")
    densify: dict[str, Any] = Field(
        description="Edges: `base_edges`, new ones per signal (`cosine`, `maxsim`, `entity`), `total_edges`."
    )
    config: dict[str, Any] = Field(description="The signals' settings used.")
    truncated: bool = Field(description=_TRUNCATED)
