"""The scan's rules, deterministic and without an LLM: which pairs of memories contradict each other.

- **negation**: two statements of the same thing (their content words agree) where one is negated and the other
  not ("Dark mode is enabled" / "Dark mode is not enabled", "… is disabled").
- **semantic_value_conflict**: two near-identical statements giving one subject and predicate two values ("Alice
  lives in Paris" / "Alice lives in Berlin"), or two live facts (``fact_subject`` / ``fact_predicate`` metadata,
  as the extraction writer stores them) of one user with different ``fact_value``.

Candidate pairs come from an inverted index over content words (a word in very many memories is no evidence and
is not indexed), so the work grows with the memories scanned, not with their square.

    >>> a = Statement("m1", "Dark mode is enabled")
    >>> b = Statement("m2", "Dark mode is disabled")
    >>> [(f.kind, f.method) for f in find([a, b])]
    [('negation', 'negation_pattern')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

NEGATION = "negation"
VALUE_CONFLICT = "semantic_value_conflict"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


NEGATORS = _words(
    "not no never nor cannot can't don't doesn't didn't isn't aren't wasn't weren't won't wouldn't "
    "shouldn't mustn't hasn't haven't hadn't couldn't"
)
# Opposite poles: the second word reads as the first, negated.
ANTONYMS = {
    "disable": "enable",
    "disabled": "enabled",
    "deny": "allow",
    "block": "allow",
    "exclude": "include",
    "false": "true",
    "dislike": "like",
    "dislikes": "likes",
    "hate": "love",
    "hates": "loves",
    "reject": "accept",
    "remove": "add",
    "avoid": "use",
    "avoids": "uses",
    "unavailable": "available",
    "incorrect": "correct",
    "invalid": "valid",
}
STOPWORDS = _words(
    "a an the and or but of to in on at by for with from as into about is are was were be been being am "
    "do does did has have had will would should must can could may might shall this that these those it "
    "its it's i me my we our you your he him his she her they them their there here so than then too very "
    "also just always"
)
# "subject predicate value": predicates that hold one value at a time.
_TRIPLE = re.compile(
    r"^(?P<subject>[\w' -]{2,60}?)\s+(?P<predicate>lives in|works at|works for|runs on|is based in|moved to|"
    r"prefers|is|are|uses|requires|needs)\s+(?P<value>[\w .,'/+-]{1,80}?)[.!]?$"
)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

# Two statements are about the same thing when this share of their content words agree.
MIN_SIMILARITY = 0.5
# A word in more memories than this is not indexed (it would pair everything with everything).
MAX_POSTINGS = 64


@dataclass(frozen=True)
class Statement:
    """One live memory as the rules see it."""

    id: str
    content: str
    created_at: Any = None
    user_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Finding:
    a: Statement
    b: Statement
    kind: str
    method: str
    confidence: float

    @property
    def newer_id(self) -> str | None:
        if self.a.created_at is None or self.b.created_at is None:
            return None
        return self.a.id if self.a.created_at >= self.b.created_at else self.b.id


@dataclass(frozen=True)
class _Shape:
    words: frozenset[str]
    negated: bool
    triple: tuple[str, str, str] | None


def shape(content: str) -> _Shape:
    """Content words (stop words and negators out, opposite poles folded onto one word, a plural ``s`` off),
    whether the statement is negated (an odd number of negators and negative poles), and its triple."""
    text = content.lower().strip()
    tokens = _WORD.findall(text)
    negations = sum(1 for t in tokens if t in NEGATORS or t.endswith("n't"))
    words: set[str] = set()
    for token in tokens:
        if token in NEGATORS or token.endswith("n't") or token in STOPWORDS:
            continue
        if token in ANTONYMS:
            negations += 1
            token = ANTONYMS[token]
        words.add(_stem(token))
    first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    match = _TRIPLE.match(first)
    triple = None
    if match and not NEGATORS & set(_WORD.findall(first)):
        triple = (match["subject"].strip(), match["predicate"], match["value"].strip().rstrip("."))
    return _Shape(frozenset(words), negations % 2 == 1, triple)


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard similarity of two word sets."""
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def decide(a: Statement, b: Statement, sa: _Shape, sb: _Shape) -> Finding | None:
    """Whether two statements about the same thing contradict, and how."""
    score = similarity(sa.words, sb.words)
    if score < MIN_SIMILARITY:
        return None
    if sa.negated != sb.negated and score >= 0.75:
        return Finding(a, b, NEGATION, "negation_pattern", round(score, 4))
    if sa.negated == sb.negated and sa.triple and sb.triple:
        (subject_a, predicate_a, value_a), (subject_b, predicate_b, value_b) = sa.triple, sb.triple
        if (subject_a, predicate_a) == (subject_b, predicate_b) and value_a != value_b:
            return Finding(a, b, VALUE_CONFLICT, "entity_value_extraction", round(score, 4))
    return None


def find(statements: list[Statement], *, max_group_pairs: int | None = None) -> list[Finding]:
    """Every contradicting pair among ``statements``, each pair once, in the order the statements come (a fact
    group yields at most ``max_group_pairs``: see ``fact_conflicts``)."""
    return find_capped(statements, max_group_pairs=max_group_pairs)[0]


def find_capped(
    statements: list[Statement], *, max_group_pairs: int | None = None
) -> tuple[list[Finding], int]:
    """``find``'s pairs, and how many fact groups the cap cut."""
    shapes = [shape(s.content) for s in statements]
    postings: dict[str, list[int]] = {}
    for index, sh in enumerate(shapes):
        for word in sh.words:
            postings.setdefault(word, []).append(index)
    found: list[Finding] = []
    for i, sh in enumerate(shapes):
        partners: set[int] = set()
        for word in sh.words:
            ids = postings[word]
            if len(ids) <= MAX_POSTINGS:
                partners.update(j for j in ids if j > i)
        for j in sorted(partners):
            finding = decide(statements[i], statements[j], sh, shapes[j])
            if finding:
                found.append(finding)
    facts, capped = fact_conflicts(statements, max_group_pairs)
    return found + facts, capped


def fact_conflicts(
    statements: Iterable[Statement], max_group_pairs: int | None = None
) -> tuple[list[Finding], int]:
    """Live facts of one user with one subject and predicate and two values, and how many groups were cut: a
    group of n values holds n²/2 pairs, so one yields at most ``max_group_pairs``, the newest statements' first
    (the statements come newest first).

    >>> facts = [Statement(f"m{i}", "", None, "u", {"fact_subject": "dana", "fact_predicate": "lives_in",
    ...          "fact_value": city}) for i, city in enumerate(["Paris", "Berlin", "Rome"])]
    >>> [(f.a.id, f.b.id) for f in fact_conflicts(facts)[0]]
    [('m0', 'm1'), ('m0', 'm2'), ('m1', 'm2')]
    >>> found, capped = fact_conflicts(facts, max_group_pairs=2)
    >>> len(found), capped
    (2, 1)
    """
    by_key: dict[tuple[str, str, str], list[Statement]] = {}
    for s in statements:
        subject, predicate = s.metadata.get("fact_subject"), s.metadata.get("fact_predicate")
        if isinstance(subject, str) and isinstance(predicate, str) and "fact_value" in s.metadata:
            by_key.setdefault((s.user_id or "", subject.lower(), predicate.lower()), []).append(s)
    found: list[Finding] = []
    capped = 0
    for group in by_key.values():
        taken = 0
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if _value(a) == _value(b):
                    continue
                if max_group_pairs is not None and taken >= max_group_pairs:
                    break
                found.append(Finding(a, b, VALUE_CONFLICT, "fact_key", 1.0))
                taken += 1
            else:
                continue
            capped += 1
            break
    return found, capped


def _value(s: Statement) -> str:
    return " ".join(str(s.metadata.get("fact_value", "")).lower().split())
