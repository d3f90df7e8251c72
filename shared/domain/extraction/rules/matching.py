"""The shape of a rule (a sentence in, (predicate, value, offset) out) and the matching every rule shares: a
match that a negation before it takes back is no match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from shared.domain.extraction.rules.phrases import KIN


def _negated(sentence: str, start: int) -> bool:
    """A negation among the three words before ``start``, in its clause ("I don't like tea, I prefer coffee")."""
    clause = re.split(r"[,;:]", sentence[:start])[-1]
    before = re.findall(r"[\w']+", clause.lower())[-3:]
    return any(w in ("not", "never", "no", "longer") or w.endswith("n't") for w in before)


Said = tuple[str, str, int]  # predicate, value, offset in the sentence
Emit = Iterator[Said]
Rule = Callable[[str], Emit]


def each(pattern: str, sentence: str, flags: int = re.I) -> Iterator[re.Match[str]]:
    """Every match of ``pattern`` in ``sentence`` that no negation before it takes back."""
    for match in re.finditer(pattern, sentence, flags):
        if not _negated(sentence, match.start()):
            yield match


_OTHERS = (rf"\b(?:he|she|they|you|his|her|their|him|them)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN}|friends?|"
           rf"boss|colleagues?|neighbou?rs?|flatmates?|roommates?|mates?)\b")  # fmt: skip


def others_named(before: str) -> bool:
    """Someone other than the user is named in ``before`` ("she", "my sister", "our friends")."""
    return bool(re.search(_OTHERS, before, re.I))
