"""Which sentences state anything: a question, a condition, a hedge or a wish states nothing about the user; a
statement before a question or a hedging clause is still read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from shared.domain.extraction.rules.phrases import THE_THING
from shared.domain.extraction.rules.words import HEDGES, QUESTION_START

SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


# What the rules read of one text (a message, a memory). Many rules scan a sentence from each of their matches, so
# their cost grows with a sentence's length squared: a sentence of 20,000 spaces took 24 s. Bounded here, before any
# rule, rather than in each: a statement about oneself fits in far less (the longest sentence of the extraction
# fixtures and the LoCoMo conversations is under 450 characters), and what is past the bounds is not read.
MAX_TEXT_CHARS = 10_000  # the head of a text the rules read (whitespace runs collapsed); longer is a paste
# A longer sentence states nothing the rules take (one cut short could lose its "if").
MAX_SENTENCE_CHARS = 1_000
MAX_SENTENCES = 400
_WHITESPACE_RUN = re.compile(r"\s{2,}")


def readable(text: str) -> str:
    r"""``text`` as the rules read it: each run of whitespace one space (one line break if it has one: that ends a
    sentence), cut to ``MAX_TEXT_CHARS`` after the last sentence that ends by then.

    >>> readable("I live in   Rome.\n\n\nI work  at Acme.")
    'I live in Rome.\nI work at Acme.'
    """
    text = _WHITESPACE_RUN.sub(lambda m: "\n" if "\n" in m.group(0) else " ", text)
    if len(text) <= MAX_TEXT_CHARS:
        return text
    head = text[:MAX_TEXT_CHARS]
    ends = [head.rfind(c) for c in ".!?\n"]
    return head[: max(ends) + 1]


def sentences(text: str) -> Iterator[re.Match[str]]:
    """The sentences the rules read in ``readable(text)`` (pass it that): the first ``MAX_SENTENCES``, each no
    longer than ``MAX_SENTENCE_CHARS``."""
    for n, sentence in enumerate(SENTENCE.finditer(text)):
        if n >= MAX_SENTENCES:
            return
        if len(sentence.group(0)) <= MAX_SENTENCE_CHARS:
            yield sentence


def states_nothing(sentence: str) -> bool:
    """A question, a condition, a hedge or a wish: no fact about the user, whatever its words.

    >>> states_nothing("Should I apply to work at Google?"), states_nothing("I'd love to work at NASA someday")
    (True, True)
    """
    words = re.findall(r"[\w'’]+", sentence.lower().replace("’", "'"))
    when_clause = (
        words[:2] in (["when", "i"], ["when", "we"]) and len(words) > 2 and words[2] in ("was", "were")
    )
    the_thing = bool(words) and words[0] == "what" and re.match(THE_THING, sentence.lstrip(" \t\"'("), re.I)
    if (
        not words
        or sentence.rstrip().endswith("?")
        or (words[0] in QUESTION_START and not (when_clause or the_thing))
    ):
        return True
    # "wish me luck" is no wish of the user's
    return bool(HEDGES.intersection(words)) and not (
        HEDGES.intersection(words) == {"wish"} and re.search(r"\bwish\s+me\s+luck\b", sentence, re.I)
    )


# A question asked after a statement, in the same sentence: ", any tips on colours?", ", what do you think?"
ASKED_AFTER = re.compile(r",\s*(?:so\s+|but\s+)?(?:any|what|how|where|which|who|when|why|can|could|do|does|"
                         r"should|would|will|is|are|thoughts|ideas|suggestions|recommendations|tips|advice|"
                         r"anyone|anybody)\b[^,]*\?+\s*$", re.I)  # fmt: skip


SYMBOLS_AFTER = re.compile(r"[\s\u2600-\u27bf\ufe0f\u200d\U0001f000-\U0001faff]+$")


# Words that make the whole sentence a condition, wherever they are ("I'll move to Berlin, but only if …").
_CONDITIONS = frozenset(
    {"if", "unless", "whether", "suppose", "supposing", "imagine", "pretend", "hypothetically"}
)


# Where a clause with its own subject starts: "…, but he might think that's lame", "… so I'd rather not".
_SUBJECT_CLAUSE = re.compile(
    r"(?:,\s*|\s+)(?:but|so|and|though|although|because|whereas|while)\s+(?=(?:he|she|they|it|you|we|I|i|i'd|I'd|"
    r"my|his|her|their|our|the|that|this|there)\b)|\s*[;:]\s+|\s+[-–—]\s+|"
    r"\s+(?:says|said|thinks|reckons|keeps\s+saying|told\s+me)\s+(?=(?:I|i|I'd|I'm|we)\b)",
)


def before_hedge(sentence: str) -> str:
    """The statement before a clause of its own that hedges: "I love hiking but my knees might not cope" -> "I love
    hiking"; "" when the hedge is the sentence's own, is a condition, or comes first."""
    words = set(re.findall(r"[\w']+", sentence.lower()))
    if _CONDITIONS & words or sentence.rstrip().endswith("?"):
        return ""
    kept = ""
    for boundary in _SUBJECT_CLAUSE.finditer(sentence):
        before = sentence[: boundary.start()]
        if HEDGES.intersection(re.findall(r"[\w']+", before.lower())):
            break
        kept = before
    # "I'm moving to Berlin next month but I might not": a hedge the user puts on their own words takes them back
    if kept and re.search(
        r"^\W*(?:but|so|and|though|although)?\s*(?:I|we|i)\b.*(?:\bnot\b|n't\b|\bnever\b)",
        sentence[len(kept) :],
    ):
        return ""
    return kept
