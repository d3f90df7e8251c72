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

Terms are quoted lexemes of ``[a-z0-9]`` only, so user text can never inject tsquery syntax; Postgres applies
the text search configuration (stemming, stop words) when it parses them, and drops the stop words.
"""

from __future__ import annotations

import re

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
