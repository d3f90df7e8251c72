"""The baseline: the deterministic fact rules as they were before the labelled-fixture work (main at 29d22fe), verbatim,
so the bench can show what the new rules changed, measured in the same run.

>>> facts("I'm allergic to peanuts. I live in Paris")
[('lives_in', 'Paris')]
"""

from __future__ import annotations

import re

_NAME = r"([A-Z][\w'-]+(?: [A-Z][\w'-]+){0,3})"
_PLACE = r"([A-Z][\w.'-]+(?:[ ,]+[A-Z][\w.'-]+){0,3})"
_THING = r"([\w][\w '&/+-]{1,60}?)"
_END = r"(?=\s*(?:[.,;!?]|\band\b|\bbut\b|\bso\b|$))"

# (predicate, pattern, content template); the first group is the value.
RULES: list[tuple[str, re.Pattern[str], str]] = [
    ("name", re.compile(rf"\b(?i:my name is|call me|my name's)\s+{_NAME}"), "User's name is {}"),
    ("lives_in", re.compile(rf"\b(?i:I live in|I'm living in|I am living in|I moved to|I've moved to|I have moved to|"
                            rf"I'm based in|I am based in|I relocated to)\s+{_PLACE}"), "User lives in {}"),
    ("employer", re.compile(rf"\b(?i:I work (?:at|for)|I'm employed (?:at|by)|I am employed (?:at|by)|"
                            rf"I joined)\s+{_PLACE}"), "User works at {}"),
    ("job_title", re.compile(rf"\b(?:I work as an?|I'm employed as an?|my job title is|my job is|my role is)\s+"
                             rf"{_THING}{_END}", re.I), "User works as {}"),
    ("age", re.compile(r"\b(?:I am|I'm)\s+(\d{1,3})\s+years? old\b", re.I), "User is {} years old"),
    ("birthday", re.compile(rf"\b(?:my birthday is(?: on)?|I was born on)\s+{_THING}{_END}", re.I),
     "User's birthday is {}"),
    ("partner", re.compile(rf"\b(?i:my (?:wife|husband|partner|girlfriend|boyfriend|spouse)(?:'s name)? is|"
                           rf"I'm married to|I am married to)\s+{_NAME}"), "User's partner is {}"),
    ("likes", re.compile(rf"\b(?:I (?:really )?(?:like|love|enjoy|prefer)|my favou?rite \w+ is)\s+{_THING}{_END}",
                         re.I), "User likes {}"),
]  # fmt: skip


def facts(text: str) -> list[tuple[str, str]]:
    out = []
    for predicate, pattern, _template in RULES:
        for match in pattern.finditer(text):
            value = match.group(1).strip(" .,'")
            if value:
                out.append((predicate, value))
    return out
