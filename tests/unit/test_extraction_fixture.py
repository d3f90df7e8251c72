"""Deterministic extraction covers what people say: precision and recall on the labelled
fixture (tests/fixtures/extraction/utterances.json, match rule in bench/extraction/score.py), and the rules that
matter most, one by one: an allergy and a job title, negations, questions, hypotheticals and other people."""

from __future__ import annotations

import pytest

from bench.extraction.score import CATEGORIES, evaluate, load, score
from shared.domain.extraction.base import ExtractionInput, Message
from shared.domain.extraction.candidates import MULTI_VALUED, SINGLE_VALUED
from shared.domain.extraction.deterministic import DeterministicExtractor

EXTRACTOR = DeterministicExtractor()


def facts(text: str) -> set[tuple[str, str]]:
    return {(c.predicate or "", c.value or "") for c in EXTRACTOR.facts(text)}


def test_the_fixture_is_big_varied_and_a_third_negatives():
    items = load()
    assert len(items) >= 150
    assert {i["category"] for i in items} == set(CATEGORIES)
    assert 0.25 <= sum(1 for i in items if not i["facts"]) / len(items) <= 0.4


def test_precision_and_recall_on_the_fixture_meet_the_targets():
    results = evaluate(load(), lambda text: sorted(facts(text)))["overall"]
    assert results.precision >= 0.9, results.extras
    assert results.recall >= 0.7, results.misses


def test_every_labelled_predicate_is_in_the_vocabulary_the_llm_is_given():
    from shared.domain.extraction.llm import SYSTEM

    labelled = {fact[0] for item in load() for fact in item["facts"]}
    assert labelled <= SINGLE_VALUED | set(MULTI_VALUED), labelled - SINGLE_VALUED - set(MULTI_VALUED)
    assert all(predicate in SYSTEM for predicate in labelled)


def test_an_allergy_and_a_job_title():
    assert facts("I'm allergic to peanuts") == {("allergy", "peanuts")}
    assert facts("I work as a data engineer") == {("job_title", "data engineer")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("i'm allergic to shellfish and penicillin", {("allergy", "shellfish"), ("allergy", "penicillin")}),
        ("I don't eat meat anymore", {("avoids", "meat")}),
        ("I don't like coffee, I prefer tea", {("dislikes", "coffee"), ("likes", "tea")}),
        ("I no longer work at Deloitte.", {("former_employer", "Deloitte")}),
        ("I'm a software engineer at Stripe", {("job_title", "software engineer"), ("employer", "Stripe")}),
        ("my sister lives in Rome", {("family", "sister")}),
        ("I have a younger sister named Eve", {("family", "sister Eve")}),
        ("My wife's name is Priya", {("partner", "Priya")}),
        ("We moved from Chicago to Denver in 2020",
         {("lived_in", "Chicago"), ("lives_in", "Denver"), ("event", "moved from Chicago to Denver in 2020")}),
        ("Yesterday I adopted a puppy", {("pet", "puppy"), ("event", "adopted a puppy yesterday")}),
        ("Next week I'm flying to Mexico City for a conference",
         {("plan", "flying to Mexico City for a conference next week")}),
        ("quick context: i'm 29, vegetarian, and allergic to cats",
         {("age", "29"), ("diet", "vegetarian"), ("allergy", "cats")}),
        # Two false positives the blind holdout3 run showed (fixed after it: holdout3 is not blind for them).
        ("I'm going to think about it", set()),
        ("I gave up sugar last year", {("avoids", "sugar"), ("event", "gave up sugar last year")}),
        # …and "quit drinking" says the habit is what is avoided (holdout3's label; the time still is not).
        ("I quit drinking two years ago", {("avoids", "drinking"), ("event", "quit drinking two years ago")}),
    ],
)  # fmt: skip
def test_statements(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Is it possible to be allergic to peanuts but not almonds?",  # a question
        "How do I become a data engineer?",
        "I'm not allergic to anything as far as I know",  # a negation with nothing to keep
        "I'm not a developer, just curious",
        "If I lived in Spain I'd learn Spanish",  # a condition
        "I'd love to work at NASA someday",  # a wish
        "Suppose I was born in 1990, how old would I be?",
        "Pretend I'm a nurse and quiz me on drug doses",
        "My friend lives in Rome",  # someone else
        "Her husband is a doctor",
        "I'm going to ask you a few questions",  # talk about the conversation, not a plan
        "I live in hope",  # not a place
        "I'm a bit tired today",  # "I'm a …" that is no job
    ],
)  # fmt: skip
def test_nothing_about_the_user(text):
    assert facts(text) == set()


def test_single_valued_predicates_supersede_and_the_rest_accumulate():
    # Given the writer's rule (a single-valued fact key leaves the value out, so a new value supersedes)
    [old] = EXTRACTOR.facts("I live in Berlin")
    [new] = EXTRACTOR.facts("I moved to Lisbon")
    assert old.fact_key("u1") == new.fact_key("u1") == "u1|user|lives_in"
    # Then allergies, family members and plans accumulate: two of them are two memories.
    first, second = EXTRACTOR.facts("I'm allergic to shellfish and penicillin")
    assert first.fact_key("u1") != second.fact_key("u1")
    assert {"lives_in", "hometown", "marital_status", "job_title", "employer"} <= SINGLE_VALUED
    assert not {"allergy", "family", "plan", "event", "likes"} & SINGLE_VALUED


def test_extract_keeps_the_episode_and_gives_facts_their_message():
    data = ExtractionInput(messages=[Message("user", "I'm allergic to peanuts", message_id="m1"),
                                     Message("assistant", "Noted.", message_id="m2")])  # fmt: skip
    out = EXTRACTOR.extract(data).candidates
    assert [(c.predicate, c.content, c.source_message_ids) for c in out if c.is_fact] == [
        ("allergy", "User is allergic to peanuts", ["m1"])
    ]
    assert [c.content for c in out if not c.is_fact] == ["User: I'm allergic to peanuts\nAssistant: Noted."]


def test_the_match_rule():
    # Values match case-insensitively without punctuation or a leading article; events and plans by their words.
    assert score([("employer", "NHS")], [("employer", "the NHS.")]).as_tuple() == (1, 0, 0)
    assert (
        score([("plan", "move to Seattle in the spring")], [("plan", "moving to Seattle this spring")]).tp
        == 1
    )
    assert score([("lives_in", "Paris")], [("lives_in", "Paris, Texas")]).as_tuple() == (0, 1, 1)
