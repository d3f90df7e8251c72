"""Extractive tiers: a memory's ``abstract`` (≤ 200 characters) and ``overview`` (≤ 500) made of whole source
sentences, chosen without an LLM by position, headings and repeated terms, each with the character spans it was
taken from (so every tier points back into the text).

    >>> text = ("# Billing\\n\\nInvoices go out monthly. The weather was mild that week, as it often is in May. "
    ...         "Billing runs on the first; invoices are sent by email. Lunch was pasta.")
    >>> abstract, overview = extractive_tiers(text, abstract_chars=90)
    >>> abstract.content
    '# Billing Invoices go out monthly. Billing runs on the first; invoices are sent by email.'
    >>> [text[s:e] for s, e in abstract.spans]
    ['# Billing', 'Invoices go out monthly.', 'Billing runs on the first; invoices are sent by email.']

Bounded: only the head of a long text is read (``MAX_INPUT_CHARS``, at most ``MAX_SENTENCES`` sentences), so a
paste of megabytes costs what 20,000 characters do.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

ABSTRACT_CHARS = 200
OVERVIEW_CHARS = 500
METHOD = "extractive"
MAX_INPUT_CHARS = 20_000
MAX_SENTENCES = 400

# A sentence: from a non-space to terminal punctuation followed by space (so "3.5" and "e.g.x" stay whole), a line
# break, or the end. Lines are sentences of their own: a heading or a list item ends where its line does.
_SENTENCE = re.compile(r"\S[^\n]*?(?:[.!?]+(?=\s|$)|(?=\n)|$)")
_TERM = re.compile(r"[a-z][a-z0-9_-]{2,}")
# Words every text repeats: their counts say nothing about what this one is about.
_STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "not",
        "but",
        "you",
        "your",
        "this",
        "that",
        "with",
        "from",
        "they",
        "them",
        "their",
        "there",
        "what",
        "when",
        "which",
        "who",
        "will",
        "would",
        "can",
        "could",
        "should",
        "into",
        "about",
        "also",
        "been",
        "its",
        "our",
        "out",
        "all",
        "any",
        "just",
        "than",
        "then",
        "some",
        "such",
        "very",
        "more",
        "most",
        "other",
        "only",
        "over",
    ]
)
_HEADING = re.compile(r"#{1,6}\s|[A-Z][^.!?\n]{0,80}:$")


@dataclass(frozen=True)
class Tier:
    content: str
    spans: tuple[tuple[int, int], ...]  # [start, end) into the source text, in order
    method: str  # source_reuse (the whole text), extractive (whole sentences), bounded_source_excerpt


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences in the head of ``text``."""
    head = text[:MAX_INPUT_CHARS]
    found = []
    for match in _SENTENCE.finditer(head):
        found.append((match.start(), match.end()))
        if len(found) >= MAX_SENTENCES:
            break
    return found


def _scores(text: str, spans: list[tuple[int, int]]) -> list[float]:
    """Position (earlier is better), headings and paragraph openers, and terms the text repeats; a long
    sentence loses a little."""
    frequencies = Counter(t for t in _TERM.findall(text[:MAX_INPUT_CHARS].casefold()) if t not in _STOPWORDS)
    scores = []
    for index, (start, end) in enumerate(spans):
        sentence = text[start:end]
        terms = set(_TERM.findall(sentence.casefold())) - _STOPWORDS
        repeated = sum(frequencies[t] - 1 for t in terms)
        opener = start == 0 or text[max(0, start - 2) : start].endswith("\n\n")
        heading = 2.0 if opener or _HEADING.match(sentence) else 0.0
        length_penalty = max(0.0, (len(sentence) - 320) / 160)
        scores.append(heading + 3.0 / (index + 1) + 0.2 * repeated - length_penalty)
    return scores


def _select(text: str, spans: list[tuple[int, int]], order: list[int], limit: int) -> Tier:
    chosen: list[int] = []
    used = 0
    seen: set[str] = set()
    for index in order:
        start, end = spans[index]
        if text[start:end] in seen:  # a repeated sentence says nothing new
            continue
        extra = end - start + (1 if chosen else 0)
        if used + extra <= limit:
            chosen.append(index)
            seen.add(text[start:end])
            used += extra
    if not chosen:
        # No sentence fits: the first one cut at a word boundary (or hard at the limit).
        start, end = spans[0]
        cut = text[start : min(end, start + limit)]
        if end - start > limit and " " in cut[limit // 2 :]:
            cut = cut[: cut.rindex(" ")]
        cut = cut.rstrip()
        return Tier(cut, ((start, start + len(cut)),), "bounded_source_excerpt")
    chosen.sort()
    picked = tuple(spans[i] for i in chosen)
    return Tier(" ".join(text[s:e] for s, e in picked), picked, METHOD)


def extractive_tiers(
    text: str, *, abstract_chars: int = ABSTRACT_CHARS, overview_chars: int = OVERVIEW_CHARS
) -> tuple[Tier, Tier] | None:
    """The abstract and the overview of ``text``; a text that fits is its own tier. None for blank text."""
    if not text.strip():
        return None
    whole = Tier(text, ((0, len(text)),), "source_reuse")
    if len(text) <= abstract_chars:
        return whole, whole
    spans = sentences(text)
    scores = _scores(text, spans)
    order = sorted(range(len(spans)), key=lambda i: (-scores[i], i))
    overview = whole if len(text) <= overview_chars else _select(text, spans, order, overview_chars)
    return _select(text, spans, order, abstract_chars), overview


def attach(row: dict, stored: dict | None, enabled: bool) -> None:
    """Set ``row``'s ``abstract`` and ``overview`` for sending: the ``stored`` tiers (a row with
    ``tier_source_spans``), computed here (not stored) for a memory the backfill has not reached, none when tiers
    are off."""
    if enabled and (stored is None or stored.get("tier_source_spans") is None):
        stored = columns(row["content"], True)
    row["abstract"] = stored.get("abstract") if stored and enabled else None
    row["overview"] = stored.get("overview") if stored and enabled else None


def columns(text: str, enabled: bool) -> dict[str, object]:
    """The row's tier columns for ``text``: all null when tiers are off (a backfill does them later); a blank
    text has no tiers but is marked done."""
    if not enabled:
        return {"abstract": None, "overview": None, "tier_source_spans": None}
    tiers = extractive_tiers(text)
    if tiers is None:
        return {"abstract": None, "overview": None, "tier_source_spans": {"method": METHOD}}
    abstract, overview = tiers
    return {
        "abstract": abstract.content,
        "overview": overview.content,
        "tier_source_spans": {
            "method": METHOD,
            "abstract": {"method": abstract.method, "spans": [list(s) for s in abstract.spans]},
            "overview": {"method": overview.method, "spans": [list(s) for s in overview.spans]},
        },
    }
