"""``family``, ``pet`` and ``partner``: "my sister", "I have two kids", "my wife Priya", "we have a dog named
Biscuit".
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, Rule, each
from shared.domain.extraction.rules.phrases import A_NAME, HAVE, KIN, NAME, NUM
from shared.domain.extraction.rules.words import (
    CANONICAL,
    INVARIANT,
    NOT_NAMES,
    NUMBERS,
    PARTNERS,
    PETS,
    SINGULAR,
)


def plural_of(noun: str) -> str:
    """ "goldfish" -> "goldfish", "puppy" -> "puppies", "guinea pig" -> "guinea pigs", "fox" -> "foxes"."""
    last = noun.split()[-1]
    if last in INVARIANT:
        return noun
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z)$", noun):
        return noun + "es"
    return noun + "s"


def family_fact(word: str, count: str | None = None, name: str | None = None) -> tuple[str, str]:
    word = word.lower()
    if name and word in PARTNERS:
        return "partner", name
    word = CANONICAL.get(word, word)
    n = NUMBERS.get(count.lower()) if count and not count.isdigit() else int(count) if count else 1
    value = f"{n} {word}" if n and n > 1 else word
    return "family", f"{value} {name}" if name else value


def _named_before(before: str, after: str) -> str | None:
    """The name set beside a kin word or pet as an apposition: "Spike, my bearded dragon, has …", "Sipho (my
    boyfriend) says …" -> the name; None if there is none."""
    if not re.match(r"\s*[,)]", after):
        return None
    said = re.search(r"(?:^|[\s(\"'])(?-i:([A-Z][a-zà-ÿ'-]+))\s*(?:,|\()\s*$", before)
    if said and said.group(1).lower() not in NOT_NAMES:
        return said.group(1)
    return None


def _named_later(rest: str) -> str | None:
    """The name given after a time or place: "(a kitten) on Sunday, her name is Mochi" -> Mochi."""
    gap = (
        r"(?:\s+(?:on|in|at|last|this|yesterday|today|from|over|a\s+few|\w+\s+(?:days|weeks|"
        r"months)\s+ago)\b[^,.;!?]{0,30}?)?"
    )
    said = re.match(rf"{gap}\s*,?\s*(?:and\s+)?(?:(?:her|his|its|their)\s+name(?:'s|\s+is)|(?:she|he|it)(?:'s|"
                    rf"\s+is)\s+(?:called|named))\s+{NAME}",
                    rest, re.I)  # fmt: skip
    return said.group(1) if said else None


def family(s: str) -> Emit:
    """The user's family, partner and pets, each read by one of ``_STEPS`` in turn."""
    for step in _STEPS:
        yield from step(s)


_ADJECTIVE = (r"(?:\d{1,2}[\s-]?(?:year|yr|month)s?[\s-]old\s+)?(?:(?:younger|older|little|big|baby|twin|first|"
              r"second|third|eldest|oldest|youngest|new|late|step|identical|adopted|teenage|grown-up|"
              r"adult)\s+)?")  # fmt: skip
# The name given after a kin word or pet: "my sister's name is Ana", "my daughter Mia", "a dog named Biscuit".
_NAMED = (rf"(?:'s\s+(?:name\s+is|called|named)\s+{NAME}|,?\s+(?:is\s+(?:called|named)\s+|named\s+|called\s+|"
          rf"is\s+(?={A_NAME}\s*(?:[,.!;]|$|\band\b)))?{NAME})?")  # fmt: skip
_COUNTED_BEFORE = r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|both|all)\s+of\s+$"


def _my_kin(s: str) -> Emit:
    """ "my sister", "my daughter Mia", "Sipho (my boyfriend)"; not "expecting my first baby" (a plan) nor "all 5 of
    my grandkids" (counted, below)."""
    for m in each(rf"\b(?:my|our)\s+{_ADJECTIVE}({KIN})\b{_NAMED}", s):
        if re.search(r"\bexpecting\s+$", s[: m.start()], re.I):
            continue
        if re.search(_COUNTED_BEFORE, s[: m.start()], re.I):
            continue
        called = m.group(2) or m.group(3) or _named_before(s[: m.start()], s[m.end() :])
        yield (*family_fact(m.group(1), None, called), m.start())


_ALL_OF_MY = (rf"\b(?:all\s+)?(\d{{1,2}}|two|three|four|five|six|seven|eight|nine|ten|both)\s+of\s+(?:my|"
              rf"our)\s+{_ADJECTIVE}({KIN})\b")  # fmt: skip


def _counted_kin(s: str) -> Emit:
    """ "all 5 of my grandkids", "both of my brothers"; "my two boys" (children); "me and the wife", "the kids and I"
    ("the" for the user's own family when the user is in the same breath)."""
    for m in () if " of " not in s else each(_ALL_OF_MY, s):
        yield (*family_fact(m.group(2), None if m.group(1).lower() == "both" else m.group(1)), m.start())
    boys = rf"\b(?:my|our)\s+({NUM})\s+(?:little\s+|young\s+|teenage\s+)?(boys|girls)\b"
    for m in () if not re.search(r"boys|girls", s, re.I) else each(boys, s):
        if m.group(1).lower() not in ("a", "an", "one"):
            yield (*family_fact(m.group(2), m.group(1)), m.start())
    the = rf"\b(?:me|I)\s+and\s+the\s+({KIN})\b|\bthe\s+({KIN})\s+and\s+(?:I|me)\b"
    for m in () if " and " not in s.lower() else each(the, s):
        yield (*family_fact(m.group(1) or m.group(2)), m.start())


_AND_MORE = r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)"  # a list going on: "…, and", "… and"


def _i_have_kin(s: str) -> Emit:
    """ "I have two kids", "we've got a daughter, her name is Mia", "an older brother and a younger sister"."""
    for m in each(rf"\b(?:I|we){HAVE}\s+({NUM})\s+{_ADJECTIVE}({KIN})\b{_NAMED}", s):
        one = m.group(1).lower() in ("a", "an", "one")
        called = m.group(3) or m.group(4) or (_named_later(s[m.end() :]) if one else None)
        yield (*family_fact(m.group(2), m.group(1), called), m.start())
        rest = s[m.end() :]
        while more := re.match(rf"{_AND_MORE}({NUM})\s+{_ADJECTIVE}({KIN})\b", rest, re.I):
            yield (*family_fact(more.group(2), more.group(1)), m.start())
            rest = rest[more.end() :]


def pets_counted(count: str, kind: str) -> str:
    """ "two", "puppies" -> "2 puppies"; "a", "cat" -> "cat"."""
    n = NUMBERS.get(count.lower()) if not count.isdigit() else int(count)
    kind = SINGULAR.get(kind.lower(), kind.lower())
    return f"{n} {plural_of(kind)}" if n and n > 1 else kind


_PET_KINDS = rf"({PETS}|puppies|bunnies|ponies)s?"
_HAVE_PETS = (rf"\b(?:(?:I|we)(?:{HAVE}|\s+just\s+adopted|\s+adopted)|with|(?:with\s+)?(?:my|"
              rf"our))\s+({NUM})\s+(?:[\w-]+\s+){{0,2}}?{_PET_KINDS}\b{_NAMED}")  # fmt: skip
_MORE_PETS = rf"{_AND_MORE}({NUM})\s+(?:[\w-]+\s+){{0,2}}?{_PET_KINDS}\b{_NAMED}"


def _pets(s: str) -> Emit:
    """ "We have a dog named Biscuit", "two cats and a parrot", "my cockapoo Alfie"."""
    for m in each(_HAVE_PETS, s):
        value = pets_counted(m.group(1), m.group(2))
        one = value == SINGULAR.get(m.group(2).lower(), m.group(2).lower())
        pet = m.group(3) or m.group(4) or (_named_later(s[m.end() :]) if one else None)
        yield "pet", f"{value} {pet}" if pet else value, m.start()
        rest = s[m.end() :]
        while more := re.match(_MORE_PETS, rest, re.I):
            value = pets_counted(more.group(1), more.group(2))
            pet = more.group(3) or more.group(4)
            yield "pet", f"{value} {pet}" if pet else value, m.start()
            rest = rest[more.end() :]
    for m in each(rf"\b(?:my|our)\s+({PETS})\b{_NAMED}", s):
        pet = m.group(2) or m.group(3) or _named_before(s[: m.start()], s[m.end() :])
        yield "pet", f"{m.group(1).lower()} {pet}" if pet else m.group(1).lower(), m.start()


# In this order: the first to say a (predicate, value) keeps its offset.
_STEPS: tuple[Rule, ...] = (_my_kin, _counted_kin, _i_have_kin, _pets)
