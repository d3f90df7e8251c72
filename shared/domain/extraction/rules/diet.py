"""``diet`` and ``avoids``: "I've gone vegan", "I don't eat meat anymore", "I quit drinking"."""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each
from shared.domain.extraction.rules.phrases import FREE_FROM
from shared.domain.extraction.rules.times import PAST_TIME
from shared.domain.extraction.rules.values import items
from shared.domain.extraction.rules.words import DIETS


def diet(s: str) -> Emit:
    """ "I've gone vegan", "I went gluten-free last year", "I eat plant-based"."""
    for m in each(r"\bI(?:'ve|\s+have)?\s+(?:recently\s+|just\s+|finally\s+|also\s+)?"
                  r"(?:gone|went|become|became|turned|(?:been\s+)?eat(?:ing)?)\s+"
                  r"(?:fully\s+|completely\s+|strictly\s+|mostly\s+)?(?:an?\s+)?([\w-]+)", s):  # fmt: skip
        word = m.group(1).lower()
        if word in DIETS or FREE_FROM.fullmatch(word):
            yield "diet", word, m.start()


def avoids(s: str) -> Emit:
    verbs = r"(?:don't|do\s+not|never|no\s+longer|can't|cannot)\s+(?:eat|drink|touch|consume)"
    quit = (r"(?:'ve|\s+have)?\s+(?:stopped|quit|given\s+up|cut\s+out|cut\s+back\s+on)\s+(?:eating|drinking)|"
            r"(?:'ve|\s+have)?\s+(?:given|gave)\s+up|(?:'ve|\s+have)?\s+cut\s+out|"
            r"\s+(?:try\s+to\s+|always\s+|strictly\s+)?"
            r"(?:avoid|stay\s+away\s+from|steer\s+clear\s+of|abstain\s+from)")  # fmt: skip
    for m in re.finditer(rf"\bI(?:\s+{verbs}|{quit})\s+(?!much\b|a\s+lot\b|enough\b|on\b|any\b|it\b|that\b|"
                         rf"them\b|him\b|her\b|people\b)(.+)", s, re.I):  # fmt: skip
        for item in items(m.group(1)):
            # "I gave up sugar last year", "I quit drinking two years ago": the when is not the what.
            when = PAST_TIME.search(item)
            if when and when.end() == len(item):
                item = item[: when.start()].strip()
            if not item or (
                re.search(r"avoid|away|clear|abstain", m.group(0), re.I)
                and item.split()[0].lower().endswith("ing")
            ):
                continue  # "I avoid driving at night" is a habit, not a food
            # "I never drink coffee after 2pm" is a habit, not a food avoided.
            if not re.search(
                rf"{re.escape(item)}\s+(?:after|before|at\s+night|in\s+the\s+evening|on\s+week)", s, re.I
            ):
                yield "avoids", item, m.start()
    # "I quit drinking", "I've stopped smoking": the habit itself is what is avoided ("quit drinking coffee" is
    # about coffee, above).
    for m in each(r"(?:\bI(?:'ve|\s+have)?|^\W*)\s*(?:just\s+|finally\s+|recently\s+)?"
                  r"(?:stopped|quit|given\s+up|gave\s+up)\s+(drinking|smoking|vaping|gambling)\b", s):  # fmt: skip
        if not re.match(r"\s+(?!(?:a|an|one|two|three|four|five|six|\d+|last|in|on|since|for|at|about|ago|now|"
                        r"yesterday|today|recently|completely|entirely|altogether|and|but|so|because)\b)[a-z]",
                        s[m.end() :], re.I):  # fmt: skip
            yield "avoids", m.group(1).lower(), m.start()
