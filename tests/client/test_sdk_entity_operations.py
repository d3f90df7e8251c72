"""Our SDK's entity operations beyond the registry, against the live local server over HTTP through both clients
(``sdk``): seed, backfill, dedupe, enrich, and one entity's card, provenance, related entities, insights and
derive."""

from __future__ import annotations

from typing import Any

import pytest
from memorylayer import (
    AuthorizationError,
    EntityCard,
    EntityInsights,
    EntityProvenance,
    NotFoundError,
    RelatedEntity,
    ValidationError,
)


def test_seed_backfill_dedupe_and_enrich(sdk: Any) -> None:
    # Given a stored memory that states a relation
    sdk.remember("Today Bob Stone works at Acme Corp.")
    # When the stored memories are backfilled, then the relation's entities exist
    done = sdk.backfill_entities()
    assert (done.scanned, done.relations_written, done.complete) == (1, 1, True)
    assert sdk.backfill_entities(max_memories=1).relations_written == 0
    assert sdk.resolve_entity("Acme Corp", entity_type="org") is not None
    # And a seeded entity whose alias is the extracted name collides with it
    seeded = sdk.seed_entities([{"name": "Acme", "entity_type": "org", "aliases": ["Acme Corp"]}])
    assert (seeded.seeded, seeded.created, seeded.failed) == (1, 1, [])
    # And dedupe folds them into the one with the evidence, once
    merged = sdk.dedupe_entities()
    assert (merged.clusters, merged.merged) == (1, 1)
    survivor = merged.merges[0].target_id
    assert sdk.resolve_entity("Acme Corp", entity_type="org").entity.id == survivor
    assert sdk.resolve_entity("Acme", entity_type="org").entity.id == survivor
    assert sdk.dedupe_entities().merged == 0
    # And enrich links nothing here
    enriched = sdk.enrich_entities(types=["org"])
    assert (enriched.checked, enriched.enriched, enriched.linker_configured) == (1, 0, False)
    with pytest.raises(ValidationError):
        sdk.seed_entities([])


def test_card_provenance_related_and_insights(sdk: Any) -> None:
    memory = sdk.remember("Login fails", metadata={"knowledge_work": {
        "subject": {"name": "PLAT-77", "type": "work_item"}, "reviewers": ["Bob Stone"], "assignee": "Ann Lee"}})  # fmt: skip
    bob = sdk.resolve_entity("Bob Stone").entity
    card = sdk.entity_card(bob.id)
    assert isinstance(card, EntityCard) and card.entity is not None and card.entity.id == bob.id
    assert [(r.relationship, r.target_name) for r in card.relations] == [("reviewed", "PLAT-77")]
    assert card.source_memories == [memory.id] and card.counts is not None and card.counts.relations == 1
    prov = sdk.entity_provenance(bob.id)
    assert isinstance(prov, EntityProvenance) and prov.evidence_memory_ids == [memory.id]
    assert prov.evidence[0].relationship == "reviewed"
    related = sdk.related_entities(bob.id, limit=5)
    assert all(isinstance(r, RelatedEntity) for r in related)
    assert sorted(r.entity.canonical_name for r in related) == ["Ann Lee", "PLAT-77"]
    insight = sdk.remember("Bob reviews carefully", subtype="inference", subject_id=bob.id)
    insights = sdk.entity_insights(bob.id)
    assert isinstance(insights, EntityInsights) and [m.id for m in insights.insights] == [insight.id]
    with pytest.raises(AuthorizationError) as refused:
        sdk.derive_entity_insights(bob.id)
    assert refused.value.code == "generation_not_allowed"
    with pytest.raises(NotFoundError):
        sdk.entity_card("ent_0000000000000000")
