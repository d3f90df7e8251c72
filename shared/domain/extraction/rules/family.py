"""``family``, ``pet`` and ``partner``: "my sister", "I have two kids", "my wife Priya", "we have a dog named Biscuit"."""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each
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
    gap = r"(?:\s+(?:on|in|at|last|this|yesterday|today|from|over|a\s+few|\w+\s+(?:days|weeks|months)\s+ago)\b[^,.;!?]{0,30}?)?"
    said = re.match(rf"{gap}\s*,?\s*(?:and\s+)?(?:(?:her|his|its|their)\s+name(?:'s|\s+is)|(?:she|he|it)(?:'s|\s+is)\s+(?:called|named))\s+{NAME}",
                    rest, re.I)  # fmt: skip
    return said.group(1) if said else None


def family(s: str) -> Emit:
    words = KIN
    adjective = r"(?:\d{1,2}[\s-]?(?:year|yr|month)s?[\s-]old\s+)?(?:(?:younger|older|little|big|baby|twin|first|second|third|eldest|oldest|youngest|new|late|step|identical|adopted|teenage|grown-up|adult)\s+)?"  # fmt: skip
    named = rf"(?:'s\s+(?:name\s+is|called|named)\s+{NAME}|,?\s+(?:is\s+(?:called|named)\s+|named\s+|called\s+|is\s+(?={A_NAME}\s*(?:[,.!;]|$|\band\b)))?{NAME})?"  # fmt: skip
    for m in each(rf"\b(?:my|our)\s+{adjective}({words})\b{named}", s):
        if re.search(r"\bexpecting\s+$", s[: m.start()], re.I):  # "expecting my first baby" is a plan, below
            continue
        if re.search(
            r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|both|all)\s+of\s+$", s[: m.start()], re.I
        ):
            continue  # "all 5 of my grandkids": counted below
        called = m.group(2) or m.group(3) or _named_before(s[: m.start()], s[m.end() :])
        yield (*family_fact(m.group(1), None, called), m.start())
    # "all 5 of my grandkids", "both of my brothers": the user's, counted
    for m in () if " of " not in s else each(rf"\b(?:all\s+)?(\d{{1,2}}|two|three|four|five|six|seven|eight|nine|ten|both)\s+of\s+(?:my|our)\s+{adjective}({words})\b", s):  # fmt: skip
        yield (*family_fact(m.group(2), None if m.group(1).lower() == "both" else m.group(1)), m.start())
    # "my two boys", "our three girls": children, counted
    for m in () if not re.search(r"boys|girls", s, re.I) else each(rf"\b(?:my|our)\s+({NUM})\s+(?:little\s+|young\s+|teenage\s+)?(boys|girls)\b", s):  # fmt: skip
        if m.group(1).lower() not in ("a", "an", "one"):
            yield (*family_fact(m.group(2), m.group(1)), m.start())
    # "me and the wife", "the kids and I": "the" for the user's own family when the user is in the same breath
    for m in () if " and " not in s.lower() else each(rf"\b(?:me|I)\s+and\s+the\s+({words})\b|\bthe\s+({words})\s+and\s+(?:I|me)\b", s):  # fmt: skip
        yield (*family_fact(m.group(1) or m.group(2)), m.start())
    for m in each(rf"\b(?:I|we){HAVE}\s+({NUM})\s+{adjective}({words})\b{named}", s):  # fmt: skip
        one = m.group(1).lower() in ("a", "an", "one")
        called = m.group(3) or m.group(4) or (_named_later(s[m.end() :]) if one else None)
        yield (*family_fact(m.group(2), m.group(1), called), m.start())
        # "an older brother and a younger sister": the list goes on
        rest = s[m.end() :]
        while more := re.match(rf"\s*(?:,\s*(?:and\s+)?|\s+and\s+)({NUM})\s+{adjective}({words})\b", rest, re.I):  # fmt: skip
            yield (*family_fact(more.group(2), more.group(1)), m.start())
            rest = rest[more.end() :]
    for m in each(rf"\b(?:(?:I|we)(?:{HAVE}|\s+just\s+adopted|\s+adopted)|with|(?:with\s+)?(?:my|our))\s+({NUM})\s+(?:[\w-]+\s+){{0,2}}?({PETS}|puppies|bunnies|ponies)s?\b{named}", s):  # fmt: skip
        n = NUMBERS.get(m.group(1).lower()) if not m.group(1).isdigit() else int(m.group(1))
        kind = SINGULAR.get(m.group(2).lower(), m.group(2).lower())
        value = f"{n} {plural_of(kind)}" if n and n > 1 else kind
        pet = m.group(3) or m.group(4) or (_named_later(s[m.end() :]) if value == kind else None)
        yield "pet", f"{value} {pet}" if pet else value, m.start()
        # "two cats and a parrot": the list goes on
        rest = s[m.end() :]
        while more := re.match(rf"\s*(?:,\s*(?:and\s+)?|\s+and\s+)({NUM})\s+(?:[\w-]+\s+){{0,2}}?({PETS}|puppies|bunnies|ponies)s?\b{named}", rest, re.I):  # fmt: skip
            n = NUMBERS.get(more.group(1).lower()) if not more.group(1).isdigit() else int(more.group(1))
            kind = SINGULAR.get(more.group(2).lower(), more.group(2).lower())
            value = f"{n} {plural_of(kind)}" if n and n > 1 else kind
            pet = more.group(3) or more.group(4)
            yield "pet", f"{value} {pet}" if pet else value, m.start()
            rest = rest[more.end() :]
    for m in each(rf"\b(?:my|our)\s+({PETS})\b{named}", s):
        pet = m.group(2) or m.group(3) or _named_before(s[: m.start()], s[m.end() :])
        yield "pet", f"{m.group(1).lower()} {pet}" if pet else m.group(1).lower(), m.start()
