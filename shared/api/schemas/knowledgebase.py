"""The knowledgebase on the wire (/v1/knowledgebase), shaped as the reference's ``Knowledgebase``, ``Article``,
``GraphAnalysis`` and ``Community`` (SDK 0.2.1's ``KbMetadata``, ``KbArticle``, ``KbGraphAnalysis``, ``KbCommunity``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire


class KbGraphStats(Wire):
    node_count: int = Field(default=0, description="Memories in the graph.")
    edge_count: int = Field(default=0, description="Links between them (associations and shared entities).")
    community_count: int = Field(default=0, description="Communities found (singletons included).")
    density: float = Field(default=0.0, description="Edges over possible edges (0–1).")
    avg_degree: float = Field(default=0.0, description="Average links per memory.")
    max_degree: int = Field(default=0, description="The most links any memory has.")
    god_node_count: int = Field(default=0, description="Memories with more than twice the median links.")


class Knowledgebase(Wire):
    workspace_id: str = Field(description="The workspace it was generated for.")
    article_count: int = Field(default=0, description="Articles stored (index, communities, entities).")
    community_count: int = Field(default=0, description="Community articles among them.")
    generated_at: Timestamp = Field(description="When it was generated (ISO-8601 UTC).")
    stats: KbGraphStats | None = Field(default=None, description="The graph it was cut from.")
    coverage: dict[str, Any] | None = Field(
        default=None,
        description="How much of the graph reached an article (`coverage_ratio`, `coverage_covered`, …).",
    )


class KbArticle(Wire):
    id: str = Field(description="`index`, `community-{n}` or `entity-{slug}-{suffix}`.")
    article_type: str = Field(description="index, community or entity.")
    title: str = Field(description="Its title.")
    content_md: str = Field(
        description="Its body: Obsidian-flavoured Markdown with front matter and wikilinks."
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict, description="What it was written from (ids, sizes)."
    )
    generated_at: Timestamp = Field(description="When it was generated (ISO-8601 UTC).")


class KbArticleList(Wire):
    articles: list[KbArticle] = Field(description="The articles: the index, communities by size, entities.")
    total: int = Field(description="How many are in this answer.")


class KbCommunity(Wire):
    id: int = Field(description="Its number: 0 is the largest.")
    memory_ids: list[str] = Field(default_factory=list, description="Its memories, by id.")
    size: int = Field(default=0, description="How many memories.")
    cohesion_score: float = Field(default=0.0, description="Links inside it over possible links (0–1).")
    central_node_ids: list[str] = Field(default_factory=list, description="Its three best-linked memories.")
    label: str | None = Field(default=None, description="Its article's title, when one was generated.")


class KbCentralNode(Wire):
    memory_id: str = Field(description="The memory.")
    label: str | None = Field(default=None, description="Its first line, shortened.")
    degree: int = Field(default=0, description="Its links.")
    betweenness: float = Field(
        default=0.0,
        description="Normalised betweenness: exact up to 100 memories, estimated from sampled sources above.",
    )
    community_id: int = Field(default=-1, description="Its community.")


class KbBridge(Wire):
    source_community_id: int = Field(description="The community of one end.")
    target_community_id: int = Field(description="The community of the other end.")
    memory_id_source: str = Field(description="One end's memory.")
    memory_id_target: str = Field(description="The other end's memory.")
    relationship_type: str = Field(description="The association's relationship, or `shares_entity`.")
    strength: float = Field(default=0.0, description="The link's strength (0–1).")


class KbGraphSnapshot(Wire):
    workspace_id: str = Field(description="The workspace analysed.")
    context_id: str | None = Field(default=None, description="The context it was limited to (null: all).")
    node_count: int = Field(default=0, description="Memories in the graph.")
    edge_count: int = Field(default=0, description="Links between them.")
    includes_rpg: bool = Field(default=False, description="Always false: there are no RPG nodes here.")


class KbGraphAnalysis(Wire):
    snapshot: KbGraphSnapshot = Field(description="What was analysed.")
    communities: list[KbCommunity] = Field(
        default_factory=list, description="Its communities, largest first."
    )
    central_nodes: list[KbCentralNode] = Field(
        default_factory=list, description="The 100 most central memories, most central first."
    )
    bridges: list[KbBridge] = Field(
        default_factory=list, description="Links between communities, strongest first."
    )
    stats: KbGraphStats = Field(default_factory=KbGraphStats, description="Its statistics.")


class KbGraphResponse(Wire):
    analysis: KbGraphAnalysis | None = Field(default=None, description="The analysis.")
    cached: bool = Field(default=False, description="Always false: every call analyses the live graph.")
