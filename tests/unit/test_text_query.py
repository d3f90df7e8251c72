"""Query text → tsquery operands, whole-word speaker matching, and temporal-question detection."""

from __future__ import annotations

import pytest

from shared.domain.retrieval.text_query import (
    MAX_TERMS,
    NamedPeriod,
    asks_when,
    named_period,
    query_terms,
    query_words,
    to_tsquery_text,
)


def test_terms_are_distinct_lowercase_and_quoted():
    assert query_terms("Jon JON jon's banker") == ["'jon'", "'s'", "'banker'"]
    assert to_tsquery_text("Jon banker") == "'jon' | 'banker'"
    assert to_tsquery_text("dance", prefix=True) == "'dance':*"


@pytest.mark.parametrize("hostile", ["a' | 'b", "x:* & !y", "(foo) <-> bar", "\\'; DROP TABLE memories; --"])
def test_user_text_cannot_inject_tsquery_syntax(hostile: str):
    for term in query_terms(hostile):
        assert term.startswith("'") and term.endswith("'")
        assert term[1:-1].isalnum()


def test_terms_are_capped_and_empty_input_is_empty():
    assert len(query_terms(" ".join(f"w{i}" for i in range(200)))) == MAX_TERMS
    assert to_tsquery_text("?!…") == ""


def test_query_words_delimit_whole_words():
    words = query_words("What's Gina's favourite dance, Jon-Paul?")
    assert " gina " in words and " jon " in words and " paul " in words
    assert " gin " not in words


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("When did Jon lose his job?", True),
        ("when is the studio opening", True),
        ("How long did it take Jon to open his studio?", True),
        ("What year did Gina start dancing?", True),
        ("Which month did they meet?", True),
        ("What is Jon's favourite dance?", False),
        ("Why did Gina start a clothing store?", False),
        ("Whenever possible, Jon dances", False),
    ],
)
def test_asks_when(query: str, expected: bool):
    assert asks_when(query) is expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What did Gina find for her store on 1 February, 2023?", NamedPeriod(2023, 2, 1)),
        ("What did Gina get accepted for on May 23, 2023?", NamedPeriod(2023, 5, 23)),
        ("What setback did Melanie face in October 2023?", NamedPeriod(2023, 10, None)),
        ("When did Melanie go camping in June?", NamedPeriod(None, 6, None)),
        ("May I ask what Jon did?", None),  # "may" the verb
        ("How many times has Melanie gone to the beach in 2023?", None),  # a bare year names no period
        ("What is Jon's favourite dance?", None),
    ],
)
def test_named_period(query: str, expected: NamedPeriod | None):
    assert named_period(query) == expected


def test_period_params_bound_the_period_and_a_week_after():
    from datetime import UTC, datetime

    from shared.domain.retrieval.text_query import period_params

    dated = period_params(named_period("what happened in March 2022?"), 7)
    assert (dated["p_start"], dated["p_end"], dated["p_month"]) == (
        datetime(2022, 3, 1, tzinfo=UTC),
        datetime(2022, 4, 8, tzinfo=UTC),
        None,
    )
    day = period_params(named_period("on 31 December, 2023"), 0)
    assert (day["p_start"], day["p_end"]) == (
        datetime(2023, 12, 31, tzinfo=UTC),
        datetime(2024, 1, 1, tzinfo=UTC),
    )
    month = period_params(named_period("in December"), 7)
    assert (month["p_month"], month["p_next"], month["p_slack"], month["p_start"]) == (12, 1, 7, None)
