"""The contradiction scan's rules, without a database: what they flag, what they leave alone, each pair once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from shared.domain.contradictions import rules
from shared.domain.contradictions.rules import Statement


def kinds(a: str, b: str) -> list[tuple[str, str]]:
    return [(f.kind, f.method) for f in rules.find([Statement("a", a), Statement("b", b)])]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The user likes coffee", "The user does not like coffee"),
        ("Dark mode is enabled", "Dark mode is disabled"),
        ("The deploy uses Postgres", "The deploy doesn't use Postgres"),
        ("We always deploy on Fridays", "We never deploy on Fridays"),
        ("Guests are allowed in the lab", "Guests are not allowed in the lab"),
    ],
)
def test_a_statement_and_its_negation(a, b):
    assert kinds(a, b) == [("negation", "negation_pattern")]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Alice lives in Paris", "Alice lives in Berlin"),
        ("The API runs on Python 3.11", "The API runs on Python 3.12"),
        ("Bob works at Acme Corp", "Bob works at Initech Corp"),
    ],
)
def test_one_subject_and_predicate_with_two_values(a, b):
    assert kinds(a, b) == [("semantic_value_conflict", "entity_value_extraction")]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Alice lives in Paris", "Bob lives in Paris"),  # two subjects
        ("Alice has a cat", "Alice has a dog"),  # a predicate with many values
        ("Lighthouse keeper notes", "Lighthouse keeper notes about storms"),  # agree
        ("The cache is not warm", "The cache is not warm yet"),  # both negated
        ("The team drinks tea", "Standups start at nine"),  # unrelated
    ],
)
def test_what_is_no_contradiction(a, b):
    assert kinds(a, b) == []


def test_facts_of_one_user_with_two_values():
    fact = {"fact_subject": "user", "fact_predicate": "lives_in"}
    statements = [
        Statement("f1", "User lives in Paris", user_id="u1", metadata={**fact, "fact_value": "Paris"}),
        Statement("f2", "User moved to Berlin", user_id="u1", metadata={**fact, "fact_value": "Berlin"}),
        Statement("f3", "User lives in paris", user_id="u1", metadata={**fact, "fact_value": " paris"}),
        Statement("f4", "Other user lives in Rome", user_id="u2", metadata={**fact, "fact_value": "Rome"}),
    ]
    facts = [(f.a.id, f.b.id) for f in rules.find(statements) if f.method == "fact_key"]
    assert facts == [("f1", "f2"), ("f2", "f3")]


def test_each_pair_once_and_the_newer_is_named():
    now = datetime.now(UTC)
    older = Statement("old", "The bridge is open", created_at=now - timedelta(days=1))
    newer = Statement("new", "The bridge is not open", created_at=now)
    (finding,) = rules.find([newer, older, Statement("x", "Unrelated words entirely")])
    assert (finding.a.id, finding.b.id, finding.newer_id, finding.confidence) == ("new", "old", "new", 1.0)
    assert rules.find([]) == []
