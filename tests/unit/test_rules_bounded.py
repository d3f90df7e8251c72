"""The deterministic rules run in time that grows with the text, not with its square: caller text (a thread message,
a memory, a recall query) is read in bounded pieces, and the rules that rescanned a sentence per match read it once.

Timed in CPU seconds of this process (other processes on a busy machine do not count) against a generous ceiling
(2 s for up to 50 KB; the rules need a fraction of that), the better of two runs. Before the bounds, 20,000 spaces took
~24 s and "Rome and " * 4000 ~11 s in the fact rules (each case here took seconds to minutes).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.domain.contradictions.rules import shape
from shared.domain.extraction.base import ExtractionInput, Message
from shared.domain.extraction.deterministic import DeterministicExtractor, relations_in
from shared.domain.extraction.rules import facts_in
from shared.domain.extraction.rules.events import _past_time_before, _past_time_from
from shared.domain.extraction.rules.matching import last_words
from shared.domain.extraction.rules.phrases import SAME_SUBJECT, same_subject
from shared.domain.extraction.rules.sentences import (
    MAX_SENTENCE_CHARS,
    MAX_TEXT_CHARS,
    readable,
    sentences,
)
from shared.domain.extraction.rules.times import PAST_TIME
from shared.domain.relations.intent import classify
from shared.domain.retrieval.text_query import asks_past, asks_when, named_period, period_params, query_terms

CEILING_S = 2.0
EXTRACTOR = DeterministicExtractor()
SAID = datetime(2023, 5, 8, tzinfo=UTC)


def _all_rules(text: str) -> None:
    """Everything that reads caller text on the request and worker paths."""
    facts_in(text)
    relations_in(text, "Dana")
    EXTRACTOR.extract(
        ExtractionInput(messages=[Message(role="user", text=text, created_at=SAID, message_id="m1")])
    )
    shape(text)
    period_params(named_period(text), 7)
    asks_when(text), asks_past(text), query_terms(text), classify(text)


def _seconds(fn: Callable[[str], object], text: str) -> float:
    """The better of two runs (the first over the ceiling is run again: a noisy neighbour, not the rules)."""
    best = float("inf")
    for _ in range(2):
        started = time.process_time()
        fn(text)
        best = min(best, time.process_time() - started)
        if best < CEILING_S:
            break
    return best


ADVERSARIAL = {
    "20,000 spaces": " " * 20_000,
    "Rome and, 36 KB": "Rome and " * 4_000,
    "Rome and, capitalised": "Rome And Paris " * 2_400,
    "Rome and, after I": "I went to " + "Rome and " * 4_000,
    "Rome and, in sentences": ("I live in " + "Rome and " * 100 + "Paris. ") * 50,
    "a run of apostrophes": "'" * 5_000,
    "works at, one sentence": "Bob works at Acme and " * 2_000,
    "I'm, one sentence": "I'm " * 10_000,
    "spaces between words": ("I  " + " " * 500 + "live in" + " " * 500 + "Rome and ") * 40,
    "digits and commas": "1, 2, 3 and 4 and " * 2_500,
}


@pytest.mark.parametrize("text", ADVERSARIAL.values(), ids=ADVERSARIAL.keys())
def test_adversarial_text_is_read_in_bounded_time(text):
    assert _seconds(_all_rules, text) < CEILING_S


# An alphabet of what made the rules superlinear: whitespace runs, "and" chains, capitalised words, commas, periods,
# apostrophes, digits, pronouns and the words rules anchor on.
ALPHABET = [" ", "   ", "\t", "\n", "and ", "And ", "Rome ", "rome ", "Paris ", "I ", "i ", "we ", "my ", "I'm ",
            ", ", ". ", "'", "-", "\"", "(", "1", "2023 ", "31 February, 2023 ", "yesterday ", "last week ", "moved ",
            "from ", "to ", "in ", "live ", "like ", "love ", "works at ", "Acme ", "ran ", "went ", "don't ", "not ",
            "is my favourite ", "if ", "?", "!", ";", "lol ", "the ", "of ", "New York ", "was ", "married "]  # fmt: skip


@st.composite
def adversarial_texts(draw: st.DrawFn) -> str:
    """A motif of a few pieces of the alphabet repeated, with a little noise, to a size up to 50 KB: repetition is
    where a rule that rescans per match shows."""
    motif = draw(st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=6))
    size = draw(st.integers(min_value=1_000, max_value=50_000))
    noise = random.Random(draw(st.integers(0, 2**32)))
    pieces, length = [], 0
    while length < size:
        piece = noise.choice(ALPHABET) if noise.random() < 0.05 else noise.choice(motif)
        pieces.append(piece)
        length += len(piece)
    return "".join(pieces)[:size]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(adversarial_texts())
def test_any_repetitive_text_up_to_50_kb_is_read_in_bounded_time(text):
    assert _seconds(_all_rules, text) < CEILING_S


# ------------------------------------------------------------------ the bounds


def test_whitespace_runs_read_as_one_space_and_a_long_text_only_its_head():
    assert [f.value for f in facts_in("I live" + " " * 5_000 + "in Rome.")] == ["Rome"]
    long = "I like tea. " * 2_000 + "I live in Rome."
    assert len(readable(long)) <= MAX_TEXT_CHARS and readable(long).endswith(".")
    assert ("lives_in", "Rome") not in {(f.predicate, f.value) for f in facts_in(long)}


def test_a_sentence_past_the_cap_states_nothing():
    assert facts_in("I live in Rome and " + "very " * MAX_SENTENCE_CHARS + "happy.") == []
    assert [s.group(0) for s in sentences(readable("I live in Rome. " + "x" * 2_000 + "."))] == [
        "I live in Rome."
    ]


# ------------------------------------------------------------------ the rewritten rules read as the regexes did

_PIECES = ["I", "i", "we", "We", "and", "my", "he", "so", "Rome", "live", "in", ",", ".", "!", " ", "  ", "'", "x",
           "hers", "yesterday", "last", "week", "on", "the", "3rd", "floor", "2019", "ago", "two", "days", "was",
           "were"]  # fmt: skip
_WORDS = st.lists(st.sampled_from(_PIECES), max_size=30).map(lambda w: " ".join(w))


@settings(max_examples=300, deadline=None)
@given(_WORDS, st.data())
def test_same_subject_answers_as_its_regex_did(text, data):
    end = data.draw(st.integers(0, len(text)))
    assert same_subject(text, end) == bool(re.match(SAME_SUBJECT + "$", text[:end], re.I))


@settings(max_examples=300, deadline=None)
@given(_WORDS)
def test_the_times_before_and_after_a_match_are_the_regexes(text):
    # every place the event rule asks from: the start of "I", "we" and "and", and the word after each
    for m in re.finditer(r"\b(?:I|we|and)\b(?:\s+(\w+))?", text, re.I):
        before = _past_time_before(text, m.start())
        expected = PAST_TIME.search(text[: m.start()])
        assert (before and before.group(0)) == (expected and expected.group(0))
        if m.group(1):
            after, expected = _past_time_from(text, m.start(1)), PAST_TIME.search(text[m.start(1) :])
            assert (after and after.group(0)) == (expected and expected.group(0))


@settings(max_examples=300, deadline=None)
@given(_WORDS, st.data())
def test_last_words_are_the_clause_words_findall_gave(text, data):
    text = text * data.draw(st.integers(1, 8))  # past the first window
    end = data.draw(st.integers(0, len(text)))
    begin = data.draw(st.integers(0, end))
    assert last_words(text, begin, end, 3) == re.findall(r"[\w']+", text[begin:end])[-3:]


# ------------------------------------------------------------------ impossible dates


@pytest.mark.parametrize(
    "query",
    ["What did Gina do on 31 February, 2023?", "45 March 2023", "What happened on 0 March 2023?",
     "February 30, 2023", "What happened on 29 February 2023?", "2023-02-30", "on 31st of April, 2024"],
)  # fmt: skip
def test_an_impossible_date_names_no_period(query):
    assert named_period(query) is None
    assert period_params(named_period(query), 7)["p_start"] is None


def test_possible_dates_still_name_their_period():
    assert named_period("What happened on 29 February 2024?") == (2024, 2, 29)
    assert named_period("What did I do on 29 February?") == (None, 2, 29)
    assert period_params(named_period("on 31 March, 2023"), 7)["p_start"] == datetime(2023, 3, 31, tzinfo=UTC)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 99), st.sampled_from(["January", "February", "April", "june"]), st.integers(1900, 2099))
def test_any_day_month_year_query_gives_bounds_or_none(day, month, year):
    for query in (f"on {day} {month}, {year}", f"{month} {day}, {year}", f"{day}th of {month} {year}"):
        period_params(named_period(query), 7)  # never raises
