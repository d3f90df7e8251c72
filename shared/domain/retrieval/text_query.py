"""Free text to Postgres ``tsquery`` text: the query's terms ORed, so a turn matching some words still ranks,
and the same terms one by one, so the full-text arm can weigh each by how rare it is (BM25-style IDF).

    >>> to_tsquery_text("What did Caroline research?")
    "'what' | 'did' | 'caroline' | 'research'"
    >>> query_terms("Caroline's research, research!")
    ["'caroline'", "'s'", "'research'"]
    >>> query_terms("pottery class", prefix=True)
    ["'pottery':*", "'class':*"]
    >>> to_tsquery_text("!!!")
    ''
    >>> query_words("When did Jon lose his job?")
    ' when did jon lose his job '
    >>> named_period("What did Gina find for her store on 1 February, 2023?")
    NamedPeriod(year=2023, month=2, day=1)
    >>> named_period("When did Melanie go camping in June?")
    NamedPeriod(year=None, month=6, day=None)
    >>> named_period("How many times has Melanie gone to the beach in 2023?") is None
    True
    >>> named_period("What happened on 31 February, 2023?") is None
    True

Terms are quoted lexemes of ``[a-z0-9]`` only, so user text can never inject tsquery syntax; Postgres applies
the text search configuration (stemming, stop words) when it parses them, and drops the stop words.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

_TERM = re.compile(r"[a-z0-9]+")
MAX_TERMS = 64


def query_terms(query: str, *, prefix: bool = False) -> list[str]:
    """Each distinct term as a quoted tsquery operand (``'term'``, or ``'term':*`` for a prefix match)."""
    terms = list(dict.fromkeys(_TERM.findall(query.lower())))[:MAX_TERMS]
    suffix = ":*" if prefix else ""
    return [f"'{t}'{suffix}" for t in terms]


def to_tsquery_text(query: str, *, prefix: bool = False) -> str:
    return " | ".join(query_terms(query, prefix=prefix))


def query_words(query: str) -> str:
    """The query's words, lower-cased, space-delimited on both ends, for whole-word ``position()`` tests."""
    return " " + " ".join(re.findall(r"[^\W_]+", query.lower())) + " "


# "When did …", "How long ago …", "What year …": questions answered by a memory that says when.
_TEMPORAL_QUESTION = re.compile(
    r"^\s*when\b|\bwhen (did|does|do|is|was|will|are|were)\b|\bhow long\b"
    r"|\bwhat (time|date|day|week|month|year)\b"
    r"|\bwhich (day|week|month|year)\b|\bhow many (days|weeks|months|years)\b",
    re.IGNORECASE,
)
# A Postgres regular expression (ARE, case-insensitive match with ~*) for a time mentioned in a memory's text.
TIME_EXPRESSION = (
    r"\m(yesterday|today|tonight|tomorrow|ago|last|next|recently|weekend|week|weeks|month|months|year|years"
    r"|january|february|march|april|june|july|august|september|october|november|december"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|(19|20)[0-9][0-9])\M"
)


def asks_when(query: str) -> bool:
    """Whether the query asks for a time (``When did Jon open his studio?``)."""
    return bool(_TEMPORAL_QUESTION.search(query))


# "Where did Dana live before?", "used to", "previously": a question about the past, whose answer may be a turn
# that restates a superseded value (those are not ranked lower for it).
_ASKS_PAST = re.compile(
    r"\b(before|previous(ly)?|used to|former(ly)?|earlier|originally|prior|past|any ?more|no longer)\b",
    re.IGNORECASE,
)


def asks_past(query: str) -> bool:
    """Whether the query asks about an earlier state.

    >>> asks_past("Where did Dana live before?"), asks_past("where does Dana live?")
    (True, False)
    """
    return bool(_ASKS_PAST.search(query))


_MONTH = r"(january|february|march|april|may|june|july|august|september|october|november|december)"
_MONTHS = _MONTH.strip("()").split("|")
# "1 February, 2023", "May 23, 2023", "October 2023", "in June": a month, with a day and a year if given.
_DAY_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MONTH}\b,? ?((?:19|20)\d\d)?", re.IGNORECASE
)
_MONTH_DAY = re.compile(rf"\b{_MONTH} (\d{{1,2}})(?:st|nd|rd|th)?\b,? ?((?:19|20)\d\d)?", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b{_MONTH}\b,? ?((?:19|20)\d\d)?", re.IGNORECASE)


class NamedPeriod(NamedTuple):
    year: int | None
    month: int
    day: int | None


def named_period(query: str) -> NamedPeriod | None:
    """The month (and day, year) a question names, if it names one. A bare year names too much of a
    conversation to tell memories apart, so it is not a period here; "may" as a verb is only taken with a day
    or a year beside it."""
    if m := _DAY_MONTH.search(query):
        return _possible(
            int(m.group(3)) if m.group(3) else None, _MONTHS.index(m.group(2).lower()) + 1, int(m.group(1))
        )
    if m := _MONTH_DAY.search(query):
        return _possible(
            int(m.group(3)) if m.group(3) else None, _MONTHS.index(m.group(1).lower()) + 1, int(m.group(2))
        )
    for m in _MONTH_YEAR.finditer(query):
        if m.group(1).lower() == "may" and not m.group(2):
            continue
        return NamedPeriod(
            int(m.group(2)) if m.group(2) else None, _MONTHS.index(m.group(1).lower()) + 1, None
        )
    return None


def _possible(year: int | None, month: int, day: int) -> NamedPeriod | None:
    """The day a question names, or None when no calendar has it ("31 February, 2023", "45 March"): an
    impossible date names no period (recall then reads the query as it would without one), rather than failing.

    >>> _possible(2023, 2, 31), _possible(None, 2, 29), _possible(2023, 2, 29), _possible(2024, 2, 29)
    (None, NamedPeriod(year=None, month=2, day=29), None, NamedPeriod(year=2024, month=2, day=29))
    """
    # a day without a year is possible when some year has it: 29 February is
    last = calendar.monthrange(2024 if year is None else year, month)[1]
    return NamedPeriod(year, month, day) if 1 <= day <= last else None


def period_params(period: NamedPeriod | None, slack_days: int) -> dict[str, Any]:
    """recall.sql's bounds for a named period: ``p_start``/``p_end`` for a dated one (the end moved
    ``slack_days`` on: a chat tells of an event days later), ``p_month``/``p_next``/``p_slack`` for a month
    without a year (any such month, or the first days of the next); None where they do not apply.

    >>> period_params(NamedPeriod(None, 12, None), 7)["p_next"], period_params(None, 7)["p_start"]
    (1, None)
    """
    bounds: dict[str, Any] = dict.fromkeys(("p_start", "p_end", "p_month", "p_next", "p_slack"))
    if period is None:
        return bounds
    if period.year is None:
        return bounds | {"p_month": period.month, "p_next": period.month % 12 + 1, "p_slack": slack_days}
    start = datetime(period.year, period.month, period.day or 1, tzinfo=UTC)
    if period.day:
        end = start + timedelta(days=1)
    else:
        end = datetime(period.year + period.month // 12, period.month % 12 + 1, 1, tzinfo=UTC)
    return bounds | {"p_start": start, "p_end": end + timedelta(days=slack_days)}
