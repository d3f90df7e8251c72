"""``lives_in``, ``hometown``, ``lived_in`` and ``visited``: "I live in Leeds", "I grew up in Ohio", "I used to live
in Tokyo", "I've been to Japan".
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each, others_named
from shared.domain.extraction.rules.phrases import KIN, PROPER, SAME_SUBJECT
from shared.domain.extraction.rules.times import FUTURE_TIME, HOW_MANY, PAST_TIME
from shared.domain.extraction.rules.values import PREPOSITION, clause, clean
from shared.domain.extraction.rules.words import NOT_NAMES, NOT_PLACE_WORDS, NOT_PLACES

PLACE_LOWER = r"([a-z][a-z.'-]+(?:\s+[a-z][a-z.'-]+){0,2})"  # only in a message typed all in lower case


# "a small village near York", "a suburb of Chicago", "the north of England": the named place is the answer.
SETTLEMENT = (r"(?:(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:village|town|city|suburb|neighbou?rhood|area|part|corner|"
               r"hamlet|county|region|province|state|island|place|spot|flat|apartment|house|farm|cottage|valley)\s+"
               r"(?:(?:just\s+)?(?:near|outside(?:\s+of)?|in|of|close\s+to|not\s+far\s+from|on\s+the\s+outskirts\s+of|"
               r"(?:north|south|east|west)\s+of)|(?:an\s+hour|\w+\s+miles|\w+\s+minutes)\s+from)\s+|"
               r"the\s+(?:north|south|east|west|north-east|north-west|south-east|south-west|outskirts|suburbs|"
               r"middle|centre|center|heart)\s+of\s+)?")  # fmt: skip


_MOVED = (r"(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|also\s+|since\s+)?(?:moved|relocated|emigrated)"
          r"(?:\s+(?:back|over|out|down|up|home|across|abroad|here|there|permanently)){0,2}")  # fmt: skip


# "i live in leeds now, moved up from london": the subject left out (checked against _SAME_SUBJECT when not first)
_MOVED_ELIDED = (r"(?:^\W*|,\s*|\band\s+)(?:just\s+|recently\s+|then\s+|finally\s+)?(?:moved|relocated|emigrated)"
                 r"(?:\s+(?:back|over|out|down|up|home|across|abroad|here|there|permanently)){0,2}")  # fmt: skip


def _place(value: str, lower: bool) -> str:
    """A place as said; typed in lower case, up to where its clause, a preposition or a time starts ("oregon now")."""
    if lower:
        value = PREPOSITION.sub("", clause(value))
        if (
            when := PAST_TIME.search(value)
            or FUTURE_TIME.search(value)
            or re.search(r"\s(?:last|next|this)\b", value)
        ):
            value = value[: when.start()]
    return clean(value.rstrip(",."))


def _names(text: str) -> list[str]:
    """The capitalised names a list starts with: "Japan, Korea and Vietnam last year" -> Japan, Korea, Vietnam."""
    name = r"(?:the\s+)?[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3}"
    listed = re.match(rf"{name}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*){name})*", text)
    if not listed:
        return []
    return [clean(n) for n in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*", listed.group(0)) if n.strip()]


def places(s: str) -> Emit:
    lower = s == s.lower()
    place = PLACE_LOWER if lower else PROPER
    lives = (rf"\bI\s+live\s+(?:just\s+)?(?:near|outside)|\b(?:I\s+live|I'm\s+living|I\s+am\s+living|we\s+live|I'm\s+based|"
             rf"I\s+am\s+based|we're\s+based|I\s+reside|I(?:'ve|\s+have)?\s+settled(?:\s+down)?|{_MOVED}(?:\s+from\s+\S+(?:\s+[A-Z]\S*)*)?)"
             r"\s+(?:to|in)|\b(?:I'm|I\s+am|we're)\s+based\s+out\s+of|\bhome\s+(?:for\s+me\s+)?is|\b(?:my|our)\s+(?:home|house|flat|apartment|place)\s+is\s+in|\bI\s+now\s+live\s+in|"
             r"(?:\band|\bbut)\s+(?:now\s+|currently\s+)?(?:live|reside|am\s+based)\s+in|"
             r"^\W*(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)(?:\s+(?:back|over|out|down|up|home|across))?\s+to")  # fmt: skip
    for m in each(rf"(?:{lives})\s+{SETTLEMENT}{place}", s):
        if m.group(0).lower().startswith(("and", "but")) and not re.match(
            SAME_SUBJECT + r"$", s[: m.start()], re.I
        ):
            continue
        value = _place(m.group(1), lower)
        if value.lower() not in NOT_PLACES and not re.search(
            r"\b(?:used\s+to|anymore)\b", s[m.start() :], re.I
        ):
            yield "lives_in", value, m.start()
    # "We've been renting a flat in Brooklyn since 2019", "I rent a room in Camden"
    for m in each(rf"\b(?:I|we)(?:'ve|\s+have)?\s+(?:been\s+)?(?:rent(?:ing)?|shar(?:e|ing)|own(?:ing)?|liv(?:e|ing)\s+in)\s+(?:a|an|our|my)\s+"
                   rf"(?:[\w-]+\s+)?(?:flat|house|apartment|place|home|room|condo|studio|cottage|bungalow|houseboat)\s+(?:in|near)\s+{place}", s):  # fmt: skip
        value = _place(m.group(1), lower)
        holiday = re.search(r"\b(?:every|each|for\s+(?:a|the|two|three|\d+|a\s+few)\s+(?:weeks?|days?|nights?|summer|holidays?|weekend)|on\s+holiday|this\s+(?:summer|winter|spring|autumn)|over\s+)",
                            s[m.end() :], re.I)  # fmt: skip
        if (
            value.lower() not in NOT_PLACES and not holiday
        ):  # "a cottage in Cornwall every summer" is a holiday
            yield "lives_in", value, m.start()
    # "… before coming back to Sydney", "then moved back to Leeds": where the user came back to is home
    for m in () if " back " not in s.lower() else each(rf"\b(?:before|then|and\s+then|until|till)\s+(?:coming|moving|came|moved|heading|settling)\s+back\s+(?:home\s+)?to\s+{place}", s):  # fmt: skip
        before = s[: m.start()]
        if re.search(r"\b(?:I|we)\b", before, re.I) and not re.search(
            rf"\b(?:he|she|they|you|his|her|their)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN}|friends?|boss|neighbou?r|flatmate|roommate)\b",
            before, re.I):  # fmt: skip
            yield "lives_in", _place(m.group(1), lower), m.start()
    for m in each(rf"\bI\s+call\s+{place}\s+home\b", s):  # "I call Seattle home"
        yield "lives_in", _place(m.group(1), lower), m.start()
    for m in each(
        rf"^\W*(?:currently\s+|now\s+)?(?:been\s+)?(?:living|based|live|renting)\s+in\s+{SETTLEMENT}{place}",
        s,
    ):  # "Currently living in X"
        yield "lives_in", _place(m.group(1), lower), m.start()
    for m in each(rf"\b(?:I|we)(?:'ve|’ve|\s+have)\s+(?:been\s+)?liv(?:ed|ing)\s+in\s+{PROPER}(?=\s+(?:for|since)\b)", s):  # fmt: skip
        yield "lives_in", m.group(1).rstrip(",."), m.start()
    for m in each(
        rf"^\W*(?:born\s+and\s+raised\s+in|grew\s+up\s+(?:in|on)|raised\s+in|brought\s+up\s+in|originally\s+from)\s+{SETTLEMENT}{place}",
        s,
    ):  # "Born and raised in X"
        yield "hometown", _place(m.group(1), lower), m.start()
    # "live in glasgow, originally from belfast": after a comma, when no one else was named before it
    for m in () if "," not in s else each(rf",\s*(?:but\s+)?(?:born\s+and\s+raised\s+in|grew\s+up\s+in|originally\s+from)\s+{SETTLEMENT}{place}", s):  # fmt: skip
        if not re.search(rf"\b(?:he|she|they|you|his|her|their)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN}|friends?|boss|neighbou?r)\b",
                         s[: m.start()], re.I):  # fmt: skip
            yield "hometown", _place(m.group(1), lower), m.start()
    for m in each(rf"\bI\s+spent\s+(?:a|an|one|two|three|four|five|six|several|a\s+few|\d+)\s+(?:days?|weeks?|months?|years?|summers?)\s+in\s+{PROPER}", s):  # fmt: skip
        yield "visited", m.group(1).rstrip(",."), m.start()
    grew = (
        r"(?:grew\s+up|was\s+born(?:\s+and\s+(?:raised|bred))?|was\s+raised|was\s+brought\s+up)\s+(?:in|on)"
    )
    hometown = (rf"\bI\s+{grew}|\bI\s+(?:come|hail)\s+from|\bI'm\s+originally\s+from|"
                rf"\bI\s+spent\s+(?:(?:most|all|much)\s+of\s+)?my\s+(?:childhood|youth|early\s+years|formative\s+years|"
                rf"teens|teenage\s+years|school\s+years)\s+in|\bmy\s+(?:home\s*town|birthplace|birth\s+place)\s+is|"
                rf"(?:\band|\bbut)\s+(?:originally\s+)?{grew}")  # fmt: skip
    for m in each(rf"(?:{hometown})\s+{SETTLEMENT}{place}", s):
        if m.group(0).lower().startswith(("and", "but")) and not re.match(
            SAME_SUBJECT + r"$", s[: m.start()], re.I
        ):
            continue
        value = _place(m.group(1), lower)
        if value.lower() not in NOT_PLACES:
            yield "hometown", value, m.start()
    for m in re.finditer(rf"(?:\bI\s+used\s+to\s+live\s+in|\bI\s+lived\s+in|\bI\s+no\s+longer\s+live\s+in|\b{_MOVED}(?:\s+(?:away\s+)?from|(?<=out)\s+of)|\bI\s+don't\s+live\s+in|"
                         rf"{_MOVED_ELIDED}(?:\s+(?:away\s+)?from|(?<=out)\s+of)|\b{_MOVED}\s+(?:back\s+|over\s+)?to\s+(?-i:(?:[A-Z][\w'-]*\s+){{1,3}})from|\bI\s+spent\s+my\s+(?:twenties|thirties|forties|fifties|20s|30s|40s|50s|"
                         rf"student\s+years|uni\s+years|university\s+years|college\s+years)\s+in)\s+{place}", s, re.I):  # fmt: skip
        if "don't" in m.group(0).lower() and not re.search(r"\b(?:anymore|any\s+more)\b", s[m.end() :], re.I):
            continue
        if re.match(r"\W*(?:,|and\b)", m.group(0)) and not re.match(
            SAME_SUBJECT + r"$", s[: m.start()], re.I
        ):
            continue  # "my sister lives in Leeds, moved from London": hers
        yield "lived_in", _place(m.group(1), lower), m.start()
    visited = (rf"^\W*(?:also\s+|just\s+|finally\s+)?(?:went|travel(?:l)?ed|flew)\s+to\s+{PROPER}|\bI(?:'ve|’ve|\s+have)\s+(?:been|travel(?:l)?ed)\s+to\s+{PROPER}|\b(?:I|we)(?:'ve|\s+have)?\s+(?:also\s+)?(?:visited|travel(?:l)?ed\s+to|went\s+to)\s+{PROPER}|"
               rf"(?:^\W*|\b(?:I|we)(?:'ve|\s+have)?\s+)(?:just\s+)?(?:got|came|flew|am|'m|are|'re)\s+back\s+from\s+(?:{HOW_MANY}|a\s+fortnight)\s+(?:days?|weeks?|months?|nights?)?\s*(?:in|on|around|travelling|backpacking)\s+{PROPER}|"
               rf"\bI(?:'ve|\s+have)?\s+(?:backpacked|travel(?:l)?ed|toured|cycled|hiked|road-tripped)\s+(?:around|through|across|all\s+over)\s+{PROPER}")  # fmt: skip
    for m in each(visited, s):
        for name in _names(s[m.start(m.lastindex or 1) :]):  # "I've been to Japan, Korea and Vietnam"
            yield "visited", name, m.start()
    # "I've lived in Berlin, Paris and Madrid": places the user has lived (with "for"/"since": lives, above).
    for m in each(rf"\bI(?:'ve|\s+have)\s+(?:also\s+)?lived\s+in\s+{PROPER}(?!.*\b(?:for|since)\b)", s):
        for name in _names(s[m.start(1) :]):
            yield "lived_in", name, m.start()
    # The fifth pass. "I've travelled a lot: Kenya, Peru and Chile": a list of two or more names explaining the travel
    for m in () if not re.search(r"travel", s, re.I) else each(r"(?:\b(?:I|we)(?:'ve|\s+have)?(?:\s+been)?\s+(?:\w+\s+){0,4}?|^\W*been\s+(?:\w+\s+){0,4}?)travel(?:l?ed|l?ing)?\b[^-–—:.;!?]*?\s[-–—:]\s*(?=[A-Z])|(?:\b(?:I|we)(?:'ve|\s+have)?\s+|^\W*)travel(?:l?ed|l?ing)?\b[^-–—.;!?]*?:\s*(?=[A-Z])", s):  # fmt: skip
        if len(names := _names(s[m.end() :])) >= 2:
            for name in names:
                yield "visited", name, m.start()
    # "we left Perth for Kuala Lumpur", "I swapped London for Lisbon": the first was home, the second
    # is ("I left X for Y" stays a former employer: one leaves a job for another as often as a city).
    for m in () if " for " not in s else each(rf"\b(?:we(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?left|(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:swapped|traded|ditched))\s+{PROPER}\s+for\s+{PROPER}", s):  # fmt: skip
        yield "lived_in", m.group(1).rstrip(",."), m.start()
        yield "lives_in", m.group(2).rstrip(",."), m.start()
    # "Kerala born, Toronto based since 2012": a place before "born"/"raised" is home town, before "based" home now;
    # only where a clause starts ("a London-based company" is no one's)
    for m in () if not re.search(r"\b(?:born|based|raised|bred)\b", s) else re.finditer(r"(?:^\W*|,\s*)(?-i:([A-Z][a-zà-ÿ][\w.]*(?:\s+[A-Z][\w.]*){0,2}))[\s-](born|raised|bred|based)\b(?!\s+(?:and\b(?!\s+(?:bred|raised))|in|on|at|company|business|firm|startup|team|band|artist|charity|brand|agency)\b)", s):  # fmt: skip
        if m.group(1).lower() in NOT_NAMES | NOT_PLACE_WORDS or others_named(s[: m.start()]):
            continue
        yield ("lives_in" if m.group(2) == "based" else "hometown"), m.group(1), m.start()
    # "Hong Kong was home for most of my thirties", "Lisbon is home now": a place called home
    for m in re.finditer(rf"^\W*{PROPER}\s+(was|is|has\s+been|'s)\s+(?:my\s+|our\s+)?home\b(?=\s*(?:$|[,.!;]|(?:now|these\s+days|for\s+(?:me|us|(?:most|much|all|part)\s+of\s+my|my|\w+\s+years|a\s+(?:few|couple|decade)))\b))", s):  # fmt: skip
        yield ("lived_in" if m.group(2) == "was" else "lives_in"), m.group(1).rstrip(",."), m.start()
    # "I stay in Bangalore with my parents": to stay in a place, said of no visit or time, is to live there
    for m in () if "stay in" not in s.lower() else each(rf"\b(?:I|we)\s+(?:still\s+|currently\s+|now\s+)?stay\s+in\s+{SETTLEMENT}{PROPER}", s):  # fmt: skip
        if not re.search(r"\b(?:when|whenever|while|during|every|each|hotel|hostel|airbnb|holiday|vacation|trip|visit\w*|night|weekend|until|till)\b", s, re.I) and not (PAST_TIME.search(s) or FUTURE_TIME.search(s)):  # fmt: skip
            yield "lives_in", m.group(1).rstrip(",."), m.start()
