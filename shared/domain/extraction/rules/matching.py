"""The shape of a rule (a sentence in, (predicate, value, offset) out) and the matching every rule shares: a
match that a negation before it takes back is no match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from shared.domain.extraction.rules.phrases import KIN

_WORD = re.compile(r"[\w']+")


def _negated(sentence: str, start: int) -> bool:
    """A negation among the three words before ``start``, in its clause ("I don't like tea, I prefer coffee")."""
    clause = max(sentence.rfind(c, 0, start) for c in ",;:") + 1
    before = [w.lower() for w in last_words(sentence, clause, start, 3)]
    return any(w in ("not", "never", "no", "longer") or w.endswith("n't") for w in before)


def last_words(text: str, begin: int, end: int, n: int) -> list[str]:
    """The last ``n`` words (``[\\w']+``) of ``text[begin:end]``: read backwards from ``end`` in a window that
    doubles until it holds them, not from ``begin`` (every match of a rule asks; from the clause's start that cost
    O(n²) a sentence).

    >>> last_words("so I really don't like it", 0, 22, 3), last_words("ab, cd", 3, 6, 3)
    (['really', "don't", 'like'], ['cd'])
    """
    width = 64
    while True:
        lo = max(begin, end - width)
        words = _WORD.findall(text, lo, end)
        # the window's first word may be cut short: it counts only when the window starts at ``begin`` or between words
        whole = lo == begin or not (_WORD.match(text[lo - 1]) and _WORD.match(text[lo]))
        if len(words) > n or whole:
            return words[-n:] if n else []
        width *= 2


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
