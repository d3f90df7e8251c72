"""Our SDK's typed relations, against the live local server over HTTP through both clients
(``sdk``): ``relations`` on remember, ``relation_paths`` on recall, the entity methods and the email adapter."""

from __future__ import annotations

from typing import Any

import pytest
from memorylayer import (
    Entity,
    EntityDetail,
    EntityPage,
    EntityRelationInput,
    EntityRelationPath,
    EntityResolution,
    Memory,
    NotFoundError,
    RelationWriteResult,
    ValidationError,
)

PR = "PR-12 fixes the login timeout"


def _seed(sdk: Any) -> Memory:
    """Bob (person) reviewed PR-12 (pull request): one typed relation, written from a model."""
    return sdk.remember(
        PR,
        relations=[
            EntityRelationInput(
                source_entity_name="Bob Stone",
                source_entity_type="person",
                target_entity_name="PR-12",
                target_entity_type="pull_request",
                relationship="reviewed",
                source_span_start=0,
                source_span_end=5,
            )
        ],
    )


def test_remember_with_typed_relations_reports_the_write(sdk: Any) -> None:
    # Given a memory remembered with a relation model
    memory = _seed(sdk)
    # Then the write's report is typed, and says it was written
    report = memory.relation_write_result
    assert isinstance(report, RelationWriteResult)
    assert (report.resolved, report.unresolved, report.rejected, report.duplicate) == (1, 0, 0, 0)
    assert len(report.relation_ids) == 1 and report.relation_ids[0].startswith("erel_")

    # And raw dicts work too (the official SDK's other form); an unknown name is reported, not raised
    other = sdk.remember(
        "Nobody owns PR-12",
        relations=[{"source_entity_name": "Nobody", "target_entity_name": "PR-12", "relationship": "owns"}],
    )
    assert other.relation_write_result.unresolved == 1
    assert other.relation_write_result.errors == ["unresolved endpoints for owns"]

    # And a plain memory carries no report
    assert sdk.remember("likes tea").relation_write_result is None

    # But a relation the server refuses by its model is the SDK's ValidationError, and stores nothing
    with pytest.raises(ValidationError):
        sdk.remember("bad", relations=[{"target_entity_name": "PR-12", "relationship": "owns"}])
    assert [m.content for m in sdk.list_memories().memories if m.content == "bad"] == []


def test_recall_returns_typed_relation_paths(sdk: Any) -> None:
    # Given the reviewed relation
    pr = _seed(sdk)
    # When a relation question is recalled
    result = sdk.recall("Who reviewed PR-12?")
    # Then the evidence memory is found relationally and the path is typed
    assert result.memories[0].id == pr.id and "relational" in result.memories[0].match_signals
    [path] = result.relation_paths
    assert isinstance(path, EntityRelationPath) and path.evidence_memory_ids == [pr.id]
    [relation] = path.relations
    assert (relation.relationship, relation.active, relation.direction) == ("reviewed", True, "outgoing")
    assert path.entity_ids == [relation.target_entity_id, relation.source_entity_id]

    # And with include_relations=False the arm is off
    off = sdk.recall("Who reviewed PR-12?", include_relations=False)
    assert off.relation_paths == []
    assert all("relational" not in m.match_signals for m in off.memories)


def test_entity_methods_list_resolve_get_aliases_and_merge(sdk: Any) -> None:
    # Given two entities from one relation, and a duplicate person
    _seed(sdk)
    sdk.remember(
        "B. Stone approved the rollout",
        relations=[
            EntityRelationInput(
                source_entity_name="B. Stone",
                source_entity_type="person",
                target_entity_name="Rollout",
                target_entity_type="project",
                relationship="approved",
            )
        ],
    )
    page = sdk.list_entities()
    assert isinstance(page, EntityPage) and page.total_count == 4
    assert sorted(e.canonical_name for e in page.entities) == ["B. Stone", "Bob Stone", "PR-12", "Rollout"]

    # When a name resolves
    bob = sdk.resolve_entity("bob stone")
    assert isinstance(bob, EntityResolution) and bob.matched_via == "exact"
    assert isinstance(bob.entity, Entity) and bob.entity.canonical_name == "Bob Stone"
    assert sdk.resolve_entity("Nobody") is None  # a 404 is "no entity", as the official SDK

    # Then get_entity carries its relations
    detail = sdk.get_entity(bob.entity.id)
    assert isinstance(detail, EntityDetail) and detail.entity.id == bob.entity.id
    assert [r.relationship for r in detail.relations] == ["reviewed"]

    # And aliases are added and read back, and resolve
    added = sdk.add_entity_aliases(bob.entity.id, ["bobby", "Bobby"])
    assert isinstance(added, Entity) and "bobby" in [a.lower() for a in added.aliases]
    assert sdk.entity_aliases(bob.entity.id) == added.aliases
    assert sdk.resolve_entity("BOBBY").matched_via == "alias"

    # And a merge folds the duplicate in: its relation moves, its name becomes an alias
    dup = sdk.resolve_entity("B. Stone").entity
    merged = sdk.merge_entities(dup.id, bob.entity.id, reason="same person")
    assert merged.id == bob.entity.id and "B. Stone" in merged.aliases
    assert sorted(r.relationship for r in sdk.get_entity(bob.entity.id).relations) == ["approved", "reviewed"]
    assert [e.id for e in sdk.list_entities(status="merged").entities] == [dup.id]
    assert sdk.merge_entities(dup.id, bob.entity.id).id == bob.entity.id  # again: nothing changes

    # But an unknown entity is NotFoundError with the server's code
    with pytest.raises(NotFoundError) as missing:
        sdk.get_entity("ent_missing")
    assert missing.value.code == "entity_not_found"
    with pytest.raises(NotFoundError):
        sdk.entity_aliases("ent_missing")


def test_ingest_email_writes_its_relations(sdk: Any) -> None:
    memory = sdk.ingest_email(
        "Ann Lee",
        "We ship in July.",
        to=["Bob Stone", "Cy Ng"],
        subject="Q3 plan",
        timestamp="2026-05-01T10:00:00Z",
        message_id="m-1",
    )
    assert isinstance(memory, Memory) and memory.content == "[2026-05-01] Q3 plan: We ship in July."
    assert (memory.relation_write_result.resolved, memory.relation_write_result.duplicate) == (3, 0)
    ann = sdk.resolve_entity("Ann Lee").entity
    assert sorted(r.relationship for r in sdk.get_entity(ann.id).relations) == [
        "authored",
        "sent_to",
        "sent_to",
    ]
    with pytest.raises(ValidationError):
        sdk.ingest_email("Ann Lee", "")
