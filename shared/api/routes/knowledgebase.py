"""/v1/knowledgebase: generate a workspace's articles, read them, export them as an Obsidian vault, and analyse
its graph (the reference's knowledgebase routes and SDK 0.2.1's ``client.kb``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import Response

from shared.api.deps import CallerDep, ServicesDep
from shared.api.schemas.knowledgebase import (
    KbArticle,
    KbArticleList,
    KbBridge,
    KbCentralNode,
    KbCommunity,
    KbGraphAnalysis,
    KbGraphResponse,
    KbGraphSnapshot,
    KbGraphStats,
    Knowledgebase,
)
from shared.domain.graph.analysis import Analysis, Community
from shared.domain.knowledgebase.requests import KbGenerateRequest

router = APIRouter(prefix="/v1/knowledgebase", tags=["knowledgebase"])


def _summary(row: dict[str, Any]) -> Knowledgebase:
    return Knowledgebase.model_construct(
        workspace_id=row["workspace_id"],
        article_count=row["article_count"],
        community_count=row["community_count"],
        generated_at=row["generated_at"],
        stats=KbGraphStats.model_construct(**row["stats"]),
        coverage=row["coverage"],
    )


def _community(c: Community) -> KbCommunity:
    return KbCommunity.model_construct(
        id=c.id,
        memory_ids=c.memory_ids,
        size=c.size,
        cohesion_score=c.cohesion_score,
        central_node_ids=c.central_node_ids,
        label=c.label,
    )


def _analysis(workspace_id: str, context_id: str | None, a: Analysis) -> KbGraphAnalysis:
    stats = KbGraphStats.model_construct(**vars(a.stats))
    return KbGraphAnalysis.model_construct(
        snapshot=KbGraphSnapshot.model_construct(
            workspace_id=workspace_id,
            context_id=context_id,
            node_count=a.stats.node_count,
            edge_count=a.stats.edge_count,
            includes_rpg=False,
        ),
        communities=[_community(c) for c in a.communities],
        central_nodes=[KbCentralNode.model_construct(**vars(n)) for n in a.central_nodes],
        bridges=[
            KbBridge.model_construct(
                source_community_id=a.community_of[e.source],
                target_community_id=a.community_of[e.target],
                memory_id_source=e.source,
                memory_id_target=e.target,
                relationship_type=e.relationship,
                strength=e.strength,
            )
            for e in a.bridges
        ],
        stats=stats,
    )


@router.post("/generate", response_model=Knowledgebase)
def generate(body: KbGenerateRequest, caller: CallerDep, svc: ServicesDep) -> Knowledgebase:
    """Write the workspace's knowledgebase, in place of the last one: an index, one article per community of
    linked memories (up to `max_communities`) and one per entity (up to `max_god_nodes`, the best-connected
    first), each in Markdown with wikilinks between them. Deterministic: no LLM is asked."""
    workspace = caller.workspace(body.workspace_id)
    summary = svc.knowledgebase.generate(
        workspace,
        tenant_id=caller.tenant_id,
        context_id=body.context_id,
        max_communities=body.max_communities,
        max_entities=body.max_god_nodes,
    )
    return _summary(summary)


@router.get(
    "",
    response_model=Knowledgebase,
    responses={404: {"description": "No knowledgebase was generated (`knowledgebase_not_found`)."}},
)
def get_knowledgebase(
    caller: CallerDep,
    svc: ServicesDep,
    context_id: Annotated[str | None, Query(description="Accepted for the reference's SDK.")] = None,
) -> Knowledgebase:
    """The last generation's summary: its article and community counts, when, and the graph's statistics."""
    return _summary(svc.knowledgebase.get(caller.workspace()))


@router.get("/articles", response_model=KbArticleList)
def list_articles(
    caller: CallerDep,
    svc: ServicesDep,
    article_type: Annotated[
        str | None, Query(description="Only `index`, `community` or `entity` articles.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="How many at most (1–1000).")] = 100,
    offset: Annotated[int, Query(ge=0, description="How many to skip (paging).")] = 0,
) -> KbArticleList:
    """The stored articles: the index, then communities (largest first), then entities. Empty before the first
    generation."""
    rows = svc.knowledgebase.list_articles(caller.workspace(), article_type, limit, offset)
    return KbArticleList.model_construct(articles=[KbArticle.pick(r) for r in rows], total=len(rows))


@router.get(
    "/articles/{article_id}",
    response_model=KbArticle,
    responses={404: {"description": "No such article (`kb_article_not_found`)."}},
)
def get_article(
    article_id: Annotated[
        str, Path(max_length=300, description="`index`, `community-{n}` or `entity-{slug}-{suffix}`.")
    ],
    caller: CallerDep,
    svc: ServicesDep,
) -> KbArticle:
    """One stored article."""
    return KbArticle.pick(svc.knowledgebase.article(caller.workspace(), article_id))


@router.get(
    "/export",
    response_class=Response,
    responses={
        200: {"content": {"application/zip": {}}, "description": "The vault, a zip of Markdown files."},
        404: {"description": "No knowledgebase was generated (`knowledgebase_not_found`)."},
    },
)
def export_vault(caller: CallerDep, svc: ServicesDep) -> Response:
    """The stored articles as an Obsidian vault: `index.md`, `communities/community-{n}.md` and
    `entities/{slug}-{suffix}.md`, linked by the wikilinks in their text."""
    workspace = caller.workspace()
    return Response(
        svc.knowledgebase.vault(workspace),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="memorylayer-vault-{workspace}.zip"'},
    )


@router.get("/graph", response_model=KbGraphResponse)
def get_graph_analysis(
    caller: CallerDep,
    svc: ServicesDep,
    include_central_nodes: Annotated[
        bool, Query(description="false: communities, bridges and statistics only (no betweenness).")
    ] = True,
    context_id: Annotated[str | None, Query(description="Only the memories of this context.")] = None,
) -> KbGraphResponse:
    """A fresh analysis of the workspace's memory graph (memories linked by associations and by the entities
    they are evidence about): communities, central memories, bridges between communities, statistics."""
    workspace = caller.workspace()
    analysis = svc.knowledgebase.analyze(workspace, context_id, central=include_central_nodes)
    return KbGraphResponse.model_construct(analysis=_analysis(workspace, context_id, analysis), cached=False)


@router.get(
    "/graph/communities/{community_id}",
    response_model=KbCommunity,
    responses={404: {"description": "No such community in the live graph (`kb_community_not_found`)."}},
)
def get_community(
    community_id: Annotated[
        int, Path(ge=0, le=1_000_000, description="The community's number (0: the largest).")
    ],
    caller: CallerDep,
    svc: ServicesDep,
) -> KbCommunity:
    """One community of the live graph, with its article's title when the last generation wrote one."""
    return _community(svc.knowledgebase.community(caller.workspace(), community_id))
