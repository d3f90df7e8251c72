"""Regex pieces several predicate families share: who is speaking ("I'm", "we're", "I've got"), a name, a proper
noun, how many, a kin word, a verb of liking.
"""

from __future__ import annotations

import re
from functools import lru_cache

from shared.domain.extraction.rules.words import PARTNERS, RELATIVES

NUM = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"


# "I'm lactose-free", "I'm nut-free": a diet is "<food>-free"; "I'm debt-free" is not one.
FREE_FROM = re.compile(r"(?:lactose|dairy|gluten|wheat|sugar|nut|peanut|egg|meat|soy|grain|caffeine|alcohol|"
                        r"fodmap|carb|yeast|corn|fish|shellfish|sesame)-free", re.I)  # fmt: skip


KIN = "|".join(sorted(RELATIVES | PARTNERS, key=len, reverse=True))  # longest first: "in-laws" before "in"


# A name, capitalised, one or two words, "Mei-Ling" whole.
NAME = r"(?-i:([A-Z][a-zà-ÿ']+(?:-[A-Za-zà-ÿ']+)*(?:\s+[A-Z][a-zà-ÿ']+(?:-[A-Za-zà-ÿ']+)*)?))"


# "at a startup called Kite", "a little bistro called Lune"
CALLED = r"(?:an?\s+(?:[\w-]+\s+){1,3}(?:called|named)\s+)?"


A_NAME = r"(?-i:[A-Z][a-zà-ÿ'-]+)"  # the same, captured by no group (inside a lookahead)


HAVE = r"(?:\s+have\s+got|\s+have|'ve\s+got|’ve\s+got|'ve|’ve|\s+got)"  # "I have", "I've got", …


PROPER = r"(?:the\s+)?(?-i:([A-Z][\w&.'-]*(?:(?:\s+|,\s*|\s+of\s+(?:the\s+)?)[A-Z][\w&.'-]*){0,3}))"


# "I've been vegan since 2015" still is; "Been vegan for years".
I_AM = r"(?:\b(?:I'm|I\s+am|Im|I’m|I've\s+been|I\s+have\s+been)|^\W*been)\s+"


# Adverbs between "I'm" and what the user is: "I'm happily married", "I'm recently divorced".
STATE_ADVERBS = (r"(?:(?:also|currently|now|still|happily|recently|newly|just|finally|officially|proudly|strictly|"
                  r"mostly|fully|legally|basically|technically|always)\s+)*")  # fmt: skip


# Adverbs that may sit inside a verb of liking: "I really like", "I've always loved", "I don't really like".
DEGREE = (r"(?:(?:really|absolutely|also|just|totally|genuinely|genuinly|truly|honestly|do|quite|still|always|simply|"
           r"especially|particularly|much|actually|kinda|kind\s+of|sort\s+of|so|very|secretly)\s+)*")  # fmt: skip


PERFECT = r"(?:'ve|\s+have)?"  # "I've always loved", "I've never liked"


# "The only thing I hate eating is olives", "What I love most is hiking": the thing is after the verb "is".
THE_THING = (r"\b(?:the\s+(?:only|one|main)\s+thing|the\s+thing|what)\s+I\s+(don'?t\s+|"
             r"do\s+not\s+)?" + DEGREE + r"(like|love|enjoy|adore|hate|"
              r"dislike|detest|loathe|can'?t\s+stand)(?:\s+[a-z]+ing)?(?:\s+(?:the\s+)?most)?\s+(?:is|are)\s+"
              r"(?!(?:when|that|how|if|the\s+way|because)\b)(.+)")  # fmt: skip


# "i grew up in texas but live in oregon now": the second verb's subject is the first's, the user, when no one else
# was named in between. Matched against a sentence's head (``same_subject``), never re-run per match.
SAME_SUBJECT = r"^\W*(?:\w+\s+){0,3}?(?:I|we)\b(?:(?!\b(?:my|his|her|their|our|he|she|they|you)\b)[^.;!?])*?"
_SAME_SUBJECT_HEAD = re.compile(SAME_SUBJECT + "$", re.I)
# Where SAME_SUBJECT's head can end: "I"/"we" after 0-3 words (each k parses one way only).
_SUBJECT_AFTER = tuple(re.compile(rf"\W*(?:\w+\s+){{{k}}}(?:I|we)\b", re.I) for k in range(4))
# What ends the clause the user is the subject of: someone else named, or a clause's end.
_OTHER_OR_END = re.compile(r"\b(?:my|his|her|their|our|he|she|they|you)\b|[.;!?]", re.I)


@lru_cache(maxsize=32)
def _subject_spans(sentence: str) -> tuple[tuple[int, int], ...]:
    """(where "I"/"we" ends, where the clause it is the subject of ends) for each way the head parses."""
    spans = []
    for pattern in _SUBJECT_AFTER:
        if head := pattern.match(sentence):
            other = _OTHER_OR_END.search(sentence, head.end())
            spans.append((head.end(), other.start() if other else len(sentence)))
    return tuple(spans)


def same_subject(sentence: str, end: int) -> bool:
    """Whether ``sentence[:end]`` matches ``SAME_SUBJECT + "$"``: the user is the subject of the clause running
    up to ``end``. The regex re-run on each match's prefix cost O(n) a match and O(n²) a sentence ("Rome and
    Rome and …"); this reads the sentence once and answers each ``end`` in O(1).

    >>> s = "i grew up in texas and live in oregon but my sister lives in leeds and works there"
    >>> same_subject(s, s.index("and live")), same_subject(s, s.index("and works"))
    (True, False)
    """
    if 0 < end < len(sentence) and word_char(sentence[end - 1]) and word_char(sentence[end]):
        # a word cut in two: the prefix's edge reads differently from the whole sentence's (never on a match start)
        return bool(_SAME_SUBJECT_HEAD.match(sentence, 0, end))
    return any(head <= end <= other for head, other in _subject_spans(sentence))


def word_char(char: str) -> bool:
    """``char`` is one ``\\w`` matches (str.isalnum is the same Unicode classes)."""
    return char.isalnum() or char == "_"


# "we're", and a couple or group the user is one of: "me and the wife are", "my husband and I are".
WE_ARE = r"(?:we're|we\s+are|(?:me|I)\s+and\s+(?:my|the)\s+[\w-]+\s+are|(?:my|the)\s+[\w-]+\s+and\s+I\s+are)"
