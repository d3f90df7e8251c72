"""The deterministic extractor's relations: plain present-tense statements become typed
relations with spans into the exchange memory; questions, negations and hypotheticals propose nothing."""

from __future__ import annotations

import pytest

from shared.core.names import ENTITY_TYPES
from shared.domain.extraction.base import ExtractionInput, Message
from shared.domain.extraction.deterministic import DeterministicExtractor, relations_in
from shared.domain.relations.canonical import canonicalize


def triples(text: str, speaker: str | None = None) -> list[tuple[str, str, str]]:
    return [(rel, src, dst) for rel, src, _, dst, _, _, _ in relations_in(text, speaker)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bob Stone works at Acme Corp.", [("employed_by", "Bob Stone", "Acme Corp")]),
        ("Ann works for the Guardian, she says.", [("employed_by", "Ann", "Guardian")]),
        ("Carol is employed by Initech", [("employed_by", "Carol", "Initech")]),
        ("My sister Eve lives in Lisbon.", [("located_in", "Eve", "Lisbon")]),
        ("Today Raj is based in New York City", [("located_in", "Raj", "New York City")]),
        ("Lena is a member of Platform Group.", [("member_of", "Lena", "Platform Group")]),
        ("Omar founded Bright Labs", [("founded", "Omar", "Bright Labs")]),
        (
            "Bob works at Acme. Ann lives in Paris!",
            [("employed_by", "Bob", "Acme"), ("located_in", "Ann", "Paris")],
        ),
    ],
)
def test_plain_statements_propose_relations(text, expected):
    assert triples(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Does Bob work at Acme?",
        "Bob works at Acme?",
        "Where does Ann live? Is Ann based in Paris",
        "Bob no longer works at Acme.",
        "Bob doesn't work at Acme.",
        "Bob works at Acme no more.",
        "Bob used to work at Acme.",
        "Bob worked at Acme until May.",
        "If Bob works at Acme, he knows Carol.",
        "Maybe Bob works at Acme.",
        "Bob might say Ann works at Acme.",
        "I hope Bob lives in Paris.",
        "He works at Acme.",
        "they said bob works at acme",
        "I work at Acme.",  # first person, but nobody named the speaker
    ],
)
def test_questions_negations_hypotheticals_and_pronouns_propose_nothing(text):
    assert relations_in(text) == []


def test_first_person_is_the_named_speaker():
    assert triples("I work at Acme Corp and I live in Berlin.", speaker="Dana Reyes") == [
        ("employed_by", "Dana Reyes", "Acme Corp"),
        ("located_in", "Dana Reyes", "Berlin"),
    ]
    assert triples("I don't work at Acme.", speaker="Dana") == []


def test_every_rule_names_a_canonical_relationship_and_known_kinds():
    from shared.domain.extraction.deterministic import RELATION_RULES

    for relationship, source_kind, target_kind, _, _ in RELATION_RULES:
        canonical = canonicalize(relationship)
        assert canonical is not None and canonical.relationship == relationship and not canonical.reversed
        assert {source_kind, target_kind} <= set(ENTITY_TYPES)


def test_relations_ride_on_the_exchange_with_spans_into_its_content():
    data = ExtractionInput(
        messages=[
            Message("user", "  My name is Dana Reyes. I work at Acme Corp, and Bob Stone reports to me.  "),
            Message("assistant", "Noted."),
            Message("user", "Does Bob work at Acme?"),
        ]
    )
    out = DeterministicExtractor().extract(data).candidates
    [first, second] = [c for c in out if c.type == "episodic"]
    assert second.relations == []
    [relation] = first.relations
    assert (relation.source_entity_name, relation.source_entity_type, relation.relationship) == (
        "Dana Reyes",
        "person",
        "employed_by",
    )
    assert (relation.target_entity_name, relation.target_entity_type) == ("Acme Corp", "org")
    assert relation.evidence_kind == "pattern"
    span = first.content[relation.source_span_start : relation.source_span_end]
    assert span == "I work at Acme Corp"


def test_the_speaker_can_be_known_from_earlier_memories():
    data = ExtractionInput(messages=[Message("user", "I live in Oslo")], known_facts=["User's name is Kari"])
    [episode] = [c for c in DeterministicExtractor().extract(data).candidates if c.type == "episodic"]
    assert [(r.source_entity_name, r.relationship, r.target_entity_name) for r in episode.relations] == [
        ("Kari", "located_in", "Oslo")
    ]


def test_a_span_cut_by_the_episode_limit_is_dropped():
    text = "x" * 700 + ". Bob works at Acme."
    [episode] = [
        c for c in DeterministicExtractor().extract(ExtractionInput([Message("user", text)])).candidates
    ]
    assert episode.relations == []
