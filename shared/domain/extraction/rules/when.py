"""Relative dates resolved against when the message was said: "yesterday" in a message of 8 May 2023 is 7 May.

    >>> from datetime import datetime, UTC
    >>> said = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)      # a Monday
    >>> [resolve(t, said).date().isoformat() for t in ("got a puppy yesterday", "ran a race last week",
    ...                                               "went there 3 years ago", "flying out next month",
    ...                                               "met her last Friday")]
    ['2023-05-07', '2023-05-01', '2020-05-08', '2023-06-07', '2023-05-05']
    >>> resolve("I like tea", said) is None, resolve("yesterday", None) is None
    (True, True)

Approximate by design (a month is 30 days): the result dates an event for recall's time cues, it is not a
calendar. An absolute date in the text ("in 2019") is left to the text: only relative expressions move the time.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "couple of": 2, "a few": 3, "few": 3}  # fmt: skip
_UNIT_DAYS = {"day": 1, "week": 7, "weekend": 7, "month": 30, "year": 365, "night": 1}
_COUNT = (
    r"(\d{1,3}|a\s+couple\s+of|couple\s+of|a\s+few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
)
_RELATIVE = re.compile(
    rf"\b(?:(yesterday|last\s+night|today|tonight|this\s+morning|tomorrow)"
    rf"|(last|next)\s+(week|weekend|month|year|{'|'.join(_DAYS)})"
    rf"|{_COUNT}\s+(day|week|month|year)s?\s+ago"
    rf"|in\s+{_COUNT}\s+(day|week|month|year)s?)\b",
    re.I,
)
_FIXED = {"yesterday": -1, "last night": -1, "today": 0, "tonight": 0, "this morning": 0, "tomorrow": 1}


def _count(word: str) -> int:
    word = " ".join(word.lower().split())
    return int(word) if word.isdigit() else _NUMBERS.get(word, 1)


def resolve(text: str, said_at: datetime | None) -> datetime | None:
    """The time the first relative expression in ``text`` names, counted from ``said_at``; None if none."""
    if said_at is None:
        return None
    m = _RELATIVE.search(text)
    if m is None:
        return None
    fixed, direction, unit, ago_n, ago_unit, in_n, in_unit = m.groups()
    if fixed:
        return said_at + timedelta(days=_FIXED[" ".join(fixed.lower().split())])
    if direction:
        sign = -1 if direction.lower() == "last" else 1
        unit = unit.lower()
        if (
            unit in _DAYS
        ):  # "last Friday": the latest Friday before the day it was said; "next": the first after
            delta = (said_at.weekday() - _DAYS.index(unit)) % 7 or 7
            return said_at - timedelta(days=delta) if sign < 0 else said_at + timedelta(days=(7 - delta) or 7)
        return said_at + timedelta(days=sign * _UNIT_DAYS[unit])
    if ago_unit:
        return said_at - timedelta(days=_count(ago_n) * _UNIT_DAYS[ago_unit.lower()])
    return said_at + timedelta(days=_count(in_n) * _UNIT_DAYS[in_unit.lower()])
