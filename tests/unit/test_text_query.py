"""Query text → tsquery operands, whole-word speaker matching, and temporal-question detection."""

from __future__ import annotations

import pytest

from shared.retrieval.text_query import MAX_TERMS, asks_when, query_terms, query_words, to_tsquery_text


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
