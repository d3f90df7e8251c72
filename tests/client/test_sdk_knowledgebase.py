"""Our SDK's knowledgebase methods, against the live local server over HTTP through both clients (``sdk``):
generate, the summary, articles, the vault and the live graph."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from memorylayer import (
    EntityRelationInput,
    KbArticle,
    KbCommunity,
    KbGraphAnalysis,
    Knowledgebase,
    NotFoundError,
    ValidationError,
)


def _seed(sdk: Any) -> None:
    """Two memories about Bob's review of PR-12 (one community through the entities), one unrelated."""
    for text in ("Bob reviewed PR-12", "PR-12 was merged after Bob's review"):
        sdk.remember(
            text,
            relations=[
                EntityRelationInput(
                    source_entity_name="Bob Stone",
                    source_entity_type="person",
                    target_entity_name="PR-12",
                    target_entity_type="pull_request",
                    relationship="reviewed",
                )
            ],
        )
    sdk.remember("The cafeteria serves soup on Fridays")


def test_generate_then_read_the_articles_the_vault_and_the_graph(sdk: Any) -> None:
    with pytest.raises(NotFoundError):
        sdk.get_knowledgebase()
    _seed(sdk)
    summary = sdk.generate_knowledgebase(max_god_nodes=5)
    assert isinstance(summary, Knowledgebase) and summary.stats is not None
    assert (summary.community_count, summary.stats.node_count) == (1, 3)
    assert sdk.get_knowledgebase().article_count == summary.article_count == 4  # index, community, 2 entities

    articles = sdk.list_kb_articles()
    assert all(isinstance(a, KbArticle) for a in articles)
    assert [a.article_type for a in articles] == ["index", "community", "entity", "entity"]
    bob = next(a for a in sdk.list_kb_articles(article_type="entity") if a.title == "Bob Stone")
    assert "Bob Stone *reviewed* [[entities/" in bob.content_md
    assert sdk.get_kb_article(bob.id) == bob

    vault = zipfile.ZipFile(io.BytesIO(sdk.export_kb_vault()))
    assert vault.read("entities/" + bob.id.removeprefix("entity-") + ".md").decode() == bob.content_md

    graph = sdk.get_kb_graph()
    assert isinstance(graph, KbGraphAnalysis)
    assert [c.size for c in graph.communities] == [2, 1]
    community = sdk.get_kb_community(0)
    assert isinstance(community, KbCommunity) and community.label == articles[1].title
    assert sdk.get_kb_graph(include_central_nodes=False).central_nodes == []


def test_bad_arguments_and_missing_things_raise(sdk: Any) -> None:
    with pytest.raises(ValidationError):
        sdk.generate_knowledgebase(max_communities=0)
    with pytest.raises(NotFoundError):
        sdk.get_kb_article("index")
    with pytest.raises(NotFoundError):
        sdk.get_kb_community(7)
    with pytest.raises(NotFoundError):
        sdk.export_kb_vault()
