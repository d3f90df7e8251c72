"""Scoring extracted facts against the labelled fixture (tests/fixtures/extraction/utterances.json).

A proposed fact about the user matches a labelled one when the predicates are equal (after ``ALIASES``) and
the values are equal after ``norm_value`` (lower case, punctuation and a leading a/an/the/my dropped, spaces
collapsed). The free-text predicates ``event`` and ``plan`` match when their content words (``STOPWORDS``
left out, a trailing -ing/-ed/-es/-s/-e cut: "moving" and "move" are one word) overlap with a Jaccard index of at
least 0.5. Matching is one-to-one; facts whose subject is
not the user are not scored.

>>> score([("likes", "The Beatles"), ("allergy", "cats")], [("likes", "beatles"), ("likes", "tea")]).as_tuple()
(1, 1, 1)
>>> match("plan", "move to Seattle in spring", "moving to Seattle in the spring"), match("lives_in", "Paris", "Rome")
(True, False)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "extraction" / "utterances.json"
CATEGORIES = ("preferences", "health", "work", "family", "places", "events", "plans")
FREE_TEXT = frozenset({"event", "plan"})
STOPWORDS = frozenset(
    {"a", "an", "the", "my", "our", "i", "we", "to", "in", "on", "at", "of", "for", "from", "by", "with", "and",
     "is", "am", "are", "was", "be", "been", "this", "that", "it"}
)  # fmt: skip
# Predicate names a model may reasonably choose for the fixture's predicates (the prompt names only some).
ALIASES = {
    "allergic_to": "allergy", "allergies": "allergy", "occupation": "job_title", "job": "job_title",
    "profession": "job_title", "works_at": "employer", "company": "employer", "workplace": "employer",
    "previous_employer": "former_employer", "dislike": "dislikes", "preference": "likes", "like": "likes",
    "condition": "health_condition", "medical_condition": "health_condition", "plans": "plan", "goal": "plan",
    "dietary_preference": "diet", "diet_type": "diet", "from": "hometown", "born_in": "hometown",
    "previously_lived_in": "lived_in", "has_pet": "pet", "pets": "pet", "family_member": "family",
    "has_family_member": "family", "life_event": "event", "medications": "medication", "hobbies": "hobby",
    "relationship_status": "marital_status", "studied_at": "school", "field_of_study": "studies",
    "spouse": "partner", "does_not_eat": "avoids", "avoids_food": "avoids", "visited_places": "visited",
}  # fmt: skip


def norm_value(value: str) -> str:
    words = re.sub(r"[^\w\s]", " ", value.lower()).split()
    while words and words[0] in ("a", "an", "the", "my"):
        words = words[1:]
    return " ".join(words)


def content_words(value: str) -> set[str]:
    return {
        re.sub(r"(?<=\w\w)(?:ing|ed|es|s|e)$", "", w) for w in norm_value(value).split() if w not in STOPWORDS
    }


def match(predicate: str, gold: str, proposed: str) -> bool:
    if predicate in FREE_TEXT:
        a, b = content_words(gold), content_words(proposed)
        return bool(a | b) and len(a & b) / len(a | b) >= 0.5
    return norm_value(gold) == norm_value(proposed)


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    misses: list[str] = field(default_factory=list)  # "text → predicate=value" for the report
    extras: list[str] = field(default_factory=list)

    def add(self, other: Counts) -> None:
        self.tp, self.fp, self.fn = self.tp + other.tp, self.fp + other.fp, self.fn + other.fn
        self.misses += other.misses
        self.extras += other.extras

    def as_tuple(self) -> tuple[int, int, int]:
        return self.tp, self.fp, self.fn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def score(gold: Iterable[tuple[str, str]], proposed: Iterable[tuple[str, str]], text: str = "") -> Counts:
    """One utterance: each proposed fact takes the first unmatched labelled fact it matches."""
    left = [(p, v) for p, v in gold]
    counts = Counts()
    for predicate, value in proposed:
        predicate = ALIASES.get(predicate, predicate)
        hit = next((g for g in left if g[0] == predicate and match(predicate, g[1], value)), None)
        if hit is None:
            counts.fp += 1
            counts.extras.append(f"{text!r} → {predicate}={value}")
        else:
            left.remove(hit)
            counts.tp += 1
    counts.fn = len(left)
    counts.misses += [f"{text!r} → {p}={v}" for p, v in left]
    return counts


def load(path: Path = FIXTURE) -> list[dict]:
    """The fixture's items: {"text", "category", "facts": [[predicate, value], …]}."""
    return json.loads(path.read_text())["items"]


def evaluate(items: list[dict], propose) -> dict[str, Counts]:
    """Counts per category and "overall"; ``propose(text)`` returns (predicate, value) pairs about the user."""
    out = {c: Counts() for c in (*CATEGORIES, "overall")}
    for item in items:
        counts = score([tuple(f) for f in item["facts"]], propose(item["text"]), item["text"])
        out[item["category"]].add(counts)
        out["overall"].add(counts)
    return out
