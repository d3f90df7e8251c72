"""Ages, birthdays and news with a date: "I just turned 40", "my birthday's on March 3rd", "it was my first day
at the new job yesterday", "I just got engaged", "we've been married twelve years".
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, Rule, each
from shared.domain.extraction.rules.phrases import A_NAME, NAME
from shared.domain.extraction.rules.times import FUTURE_TIME, MONTH, PAST_TIME
from shared.domain.extraction.rules.values import clause, clean
from shared.domain.extraction.rules.words import PARTNERS


def dates(s: str) -> Emit:
    """Ages, birthdays, dated occasions and marriages said as news, each read by one of ``_STEPS`` in turn."""
    for step in _STEPS:
        yield from step(s)


def _ages(s: str) -> Emit:
    """ "I'm 29 years old", "I just turned 40", "50 today!!" (a birthday, said as the age)."""
    for m in each(r"\bI(?:'m|\s+am)\s+(\d{1,3})\s+years?\s+old\b|\bI\s+(?:just\s+)?turned\s+(\d{1,3})\b", s):
        yield "age", m.group(1) or m.group(2), m.start()
    for m in re.finditer(r"^\W*(\d{2,3})\s+today\b", s):
        yield "age", m.group(1), m.start()


_BORN_IN = rf"\bI\s+was\s+born\s+in\s+(?-i:(?:[A-Z][\w'-]*,?\s+){{1,3}}in\s+)?((?:(?:{MONTH})\s+)?\d{{4}})\b"
_WHEN_NOT_DATE = r"(?:next|this|last|tomorrow|today|yesterday|soon|coming\s+up|in\s+\w+\s+\w+)\b"


def _birthdays(s: str) -> Emit:
    """ "I was born in 1979" (a year, not a place; "born in Lahore in 1979" has both), "my birthday's on March 3rd";
    "my birthday is next month" says when it comes, not the date."""
    for m in each(_BORN_IN, s):
        yield "birthday", m.group(1), m.start()
    for m in each(r"\b(?:my\s+birthday(?:\s+is|'s)(?:\s+on)?|I\s+was\s+born\s+on)\s+(?:the\s+)?(.+)", s):
        value = clean(clause(m.group(1)))
        if value and not re.match(_WHEN_NOT_DATE, value, re.I):
            yield "birthday", value, m.start()


_NTH_BIRTHDAY = (r"\b(?:it\s+was|it's|it\s+is|today\s+is|today\s+was|yesterday\s+was|I\s+(?:just\s+)?(?:had|"
                 r"celebrated))\s+"
                 r"my\s+(\d{1,3})(?:st|nd|rd|th)\s+(?:birthday|bday)\b")  # fmt: skip
_WAS_MY = (r"\b(?:it\s+was|that\s+was|(yesterday|last\s+(?:week|month|year|night|weekend|"
           r"\w+day))\s+was)\s+(my\s+(?:\d{1,3}(?:st|nd|rd|th)\s+|first\s+|last\s+|big\s+)?"
           r"(?:birthday|bday|anniversary|wedding|graduation|day|week|exam|interview|date|gig|race|marathon|"
           r"match|game|"
           r"party|retirement|leaving\s+do|hen\s+do|stag\s+do|baby\s+shower|operation|surgery)\b.*)")  # fmt: skip


def _occasions(s: str) -> Emit:
    """ "It was my 60th birthday last weekend": an age now, unless the birthday is still to come; "It was my first
    day at the new job yesterday", "yesterday was my 25th birthday": a dated occasion of the user's."""
    low = s.lower()
    for m in () if "day" not in low else each(_NTH_BIRTHDAY, s):
        if not FUTURE_TIME.search(clause(s[m.end() :])):
            yield "age", m.group(1), m.start()
    for m in () if " was my " not in low else each(_WAS_MY, s):
        if m.group(1):
            yield "event", f"{clean(clause(m.group(2)))} {m.group(1).lower()}", m.start()
        elif when := PAST_TIME.search(clause(m.group(2))):
            yield "event", clean(m.group(2)[: when.end()]), m.start()


_ENGAGED_TO_MY = (rf"\b(?:I'm|I\s+am|I\s+got|we\s+got|I've\s+been|I\s+have\s+been)\s+(?:\w+\s+)?(?:engaged|"
                  rf"married)\s+to\s+my\s+(?:[\w-]+\s+){{0,3}}?(?:sweetheart|partner|boyfriend|girlfriend|"
                  rf"fianc[ée]e?|love|best\s+friend|other\s+half|soulmate|person)\s*,\s*{NAME}")  # fmt: skip
_PARTNER = "|".join(PARTNERS)
# "we've been", "me and my husband Kofi have been": a couple the user is one of
_COUPLE = (rf"\bwe(?:'ve|\s+have)\s+been|\bwe're|\bwe\s+are|(?:\bme|"
           rf"\bI)\s+and\s+my\s+(?:{_PARTNER})(?:\s+{A_NAME})?\s+(?:have|'ve)\s+been|"
           rf"\bmy\s+(?:{_PARTNER})(?:\s+{A_NAME})?\s+and\s+I\s+(?:have|'ve)\s+been|"
           rf"\bmy\s+(?:{_PARTNER})(?:\s+{A_NAME})?\s+and\s+I\s+are")  # fmt: skip
_COUPLE_MARRIED = (rf"(?:{_COUPLE})\s+(?:(?:happily|now|officially|just)\s+)?(married|engaged)\b(?!\s+(?:twice|"
                   rf"once|before|\w+\s+times)\b)")  # fmt: skip


def _marriages(s: str) -> Emit:
    """ "Engaged to my high school sweetheart, Ananya" (the name after the description is the partner's), "I just
    got married", "we've been married twelve years"."""
    low = s.lower()
    for m in () if "to my" not in low else each(_ENGAGED_TO_MY, s):
        yield "partner", m.group(1), m.start()
    for m in each(r"\bI\s+(?:just\s+)?got\s+(married|engaged|divorced)\b", s):
        yield "marital_status", m.group(1).lower(), m.start()
    for m in () if "married" not in low and "engaged" not in low else each(_COUPLE_MARRIED, s):
        yield "marital_status", m.group(1).lower(), m.start()


# In this order: the first to say a (predicate, value) keeps its offset.
_STEPS: tuple[Rule, ...] = (_ages, _birthdays, _occasions, _marriages)
