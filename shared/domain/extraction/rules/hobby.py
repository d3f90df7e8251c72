"""``hobby``: a pastime said as one ("outside of work I do crochet", "I collect stamps", "I play the cello")."""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each
from shared.domain.extraction.rules.values import items
from shared.domain.extraction.rules.words import MEALS

# Said of what someone does, these make it a pastime: "Outside of work I mostly do crochet", "… my favourite way to
# switch off".
_LEISURE = re.compile(r"\b(?:outside\s+(?:of\s+)?work|on\s+(?:the\s+)?weekends|"
                      r"(?:most|every)\s+(?:weekends?|evenings?|sundays?|saturdays?)|at\s+(?:the\s+)?weekends|"
                      r"after\s+work|in\s+my\s+(?:spare|free|down)\s*time|for\s+fun|as\s+a\s+hobby|"
                      r"(?:my\s+)?fav(?:ou?rite)?\s+way\s+to\s+(?:relax|unwind|switch\s+off|chill|de-?stress|"
                      r"decompress|wind\s+down|spend\s+(?:my\s+)?(?:weekends?|evenings?|time))|keeps\s+me\s+sane|"
                      r"helps\s+me\s+(?:relax|unwind|switch\s+off))\b", re.I)  # fmt: skip


# Making things as a pastime: what is made is the hobby ("I build model railways in my spare time").
_CRAFT = r"(?:build|make|knit|crochet|sew|paint|bake|brew|restore|grow|carve|sketch)"


def hobby(s: str) -> Emit:
    if _LEISURE.search(s):
        for m in each(r"(?:\bI(?:'ve\s+been|\s+have\s+been)?|^\W*been)\s+"
                      r"(?:(?:mostly|usually|also|often|mainly|really|just)\s+)?"
                      rf"(?:do|doing|play|playing|go|going|{_CRAFT})\s+"
                      r"(?:a\s+lot\s+of\s+|lots\s+of\s+|a\s+bit\s+of\s+)?"
                      r"(?!(?:a|an|the|some|my|it|that|this|nothing|something|anything|"
                      r"stuff|things|what|to|out|home|back|for|with|on|in|at)\b)([a-z].+)", s):  # fmt: skip
            for item in items(m.group(1)):
                # "… and do a bit of beekeeping": the second pastime's verb and measure are not part of it
                item = re.sub(
                    rf"^(?:do|play|go|{_CRAFT})\s+(?:a\s+(?:bit|lot)\s+of\s+|lots\s+of\s+|some\s+)?",
                    "",
                    item,
                    flags=re.I,
                )
                item = _LEISURE.sub("", item).strip()  # "wild swimming most weekends": not its time
                if item and item.split()[0].lower() not in MEALS:
                    yield "hobby", item, m.start()
    for m in each(r"\bI\s+(?:also\s+)?collect\s+(.+)", s):
        for item in items(m.group(1)):
            yield "hobby", item, m.start()
    for m in each(r"\bI\s+(?:also\s+)?play\s+(?:the\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", s):
        played = items(m.group(1))
        if played and played[0].lower() not in ("with", "it", "around", "games", "a", "along", "music"):
            yield "hobby", played[0], m.start()
    for m in each(r"\bmy\s+hobb(?:y|ies)\s+(?:is|are|include)\s+(.+)", s):
        for item in items(m.group(1), cut_prepositions=False):
            yield "hobby", item, m.start()
