"""/v1/graph: analysis of a workspace's association graph (shared/domain/graph/), bounded like traverse."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.domain.graph.requests import DensifyPreviewRequest, GraphAnalysisRequest
from shared.domain.graph.service import DensifyConfig

router = APIRouter(prefix="/v1/graph", tags=["graph-analysis"])

ContextFilter = Annotated[str | None, Query(max_length=128, description="Only the memories of this context.")]
IncludeRelations = Annotated[
    bool,
    Query(
        description="Also join memories that are evidence about one entity (typed relations) by a "
        "`shares_entity` edge (our extension; the reference's graph is associations only)."
    ),
]
IncludeRpg = Annotated[
    bool, Query(description="Accepted for the reference's clients: every live memory is a node here.")
]


@router.get("/snapshot", response_model=schemas.GraphSnapshotResponse)
def graph_snapshot(
    caller: CallerDep,
    svc: ServicesDep,
    context_id: ContextFilter = None,
    include_rpg: IncludeRpg = False,
    include_relations: IncludeRelations = False,
) -> dict[str, Any]:
    """The size of the workspace's graph: its live memories are the nodes, associations the edges."""
    return svc.graph.snapshot(
        caller.workspace(),
        context_id=context_id,
        include_rpg=include_rpg,
        include_relations=include_relations,
    )


@router.get("/communities", response_model=schemas.CommunitiesResponse)
def graph_communities(
    caller: CallerDep,
    svc: ServicesDep,
    context_id: ContextFilter = None,
    include_relations: IncludeRelations = False,
) -> dict[str, Any]:
    """Communities of memories (label propagation, weighted by strength), largest first."""
    return svc.graph.communities(
        caller.workspace(), context_id=context_id, include_relations=include_relations
    )


@router.get("/centrality", response_model=schemas.CentralityResponse)
def graph_centrality(
    caller: CallerDep,
    svc: ServicesDep,
    context_id: ContextFilter = None,
    include_relations: IncludeRelations = False,
) -> dict[str, Any]:
    """Each memory's degree and betweenness centrality, most between first."""
    return svc.graph.centrality(
        caller.workspace(), context_id=context_id, include_relations=include_relations
    )


@router.get("/bridges", response_model=schemas.BridgesResponse)
def graph_bridges(
    caller: CallerDep,
    svc: ServicesDep,
    context_id: ContextFilter = None,
    include_relations: IncludeRelations = False,
) -> dict[str, Any]:
    """The associations that join two communities, strongest first."""
    return svc.graph.bridges(caller.workspace(), context_id=context_id, include_relations=include_relations)


@router.get("/stats", response_model=schemas.GraphStatsResponse)
def graph_stats(
    caller: CallerDep,
    svc: ServicesDep,
    context_id: ContextFilter = None,
    include_relations: IncludeRelations = False,
) -> dict[str, Any]:
    """Aggregate statistics: nodes, edges, communities, density, degrees."""
    return svc.graph.stats(caller.workspace(), context_id=context_id, include_relations=include_relations)


@router.post("/analyze", response_model=schemas.GraphAnalysis)
def graph_analyze(body: GraphAnalysisRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """Snapshot, communities, centrality, bridges and statistics from one build of the graph."""
    return svc.graph.analyze(
        caller.workspace(body.workspace_id),
        context_id=body.context_id,
        include_rpg=body.include_rpg,
        include_relations=body.include_relations,
    )


@router.post("/densify-preview", response_model=schemas.DensifyPreview)
def graph_densify_preview(body: DensifyPreviewRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """Communities before and after adding edges between memories about one entity and between nearest
    embeddings, over the same graph. Nothing is stored."""
    config = DensifyConfig(**body.model_dump(exclude={"workspace_id", "context_id"}))
    return svc.graph.densify_preview(caller.workspace(body.workspace_id), config, context_id=body.context_id)
