"""``lives_in``, ``hometown``, ``lived_in`` and ``visited``: "I live in Leeds", "I grew up in Ohio", "I used to live
in Tokyo", "I've been to Japan".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from shared.domain.extraction.rules.matching import Emit, each, others_named
from shared.domain.extraction.rules.phrases import KIN, PROPER, same_subject
from shared.domain.extraction.rules.times import FUTURE_TIME, HOW_MANY, PAST_TIME
from shared.domain.extraction.rules.values import PREPOSITION, clause, clean
from shared.domain.extraction.rules.words import NOT_NAMES, NOT_PLACE_WORDS, NOT_PLACES

PLACE_LOWER = r"([a-z][a-z.'-]+(?:\s+[a-z][a-z.'-]+){0,2})"  # only in a message typed all in lower case


# "a small village near York", "a suburb of Chicago", "the north of England": the named place is the answer.
SETTLEMENT = (r"(?:(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:village|town|city|suburb|neighbou?rhood|area|part|corner|"
               r"hamlet|county|region|province|state|island|place|spot|flat|apartment|house|farm|cottage|valley)\s+"
               r"(?:(?:just\s+)?(?:near|outside(?:\s+of)?|in|of|close\s+to|not\s+far\s+from|"
               r"on\s+the\s+outskirts\s+of|"
               r"(?:north|south|east|west)\s+of)|(?:an\s+hour|\w+\s+miles|\w+\s+minutes)\s+from)\s+|"
               r"the\s+(?:north|south|east|west|north-east|north-west|south-east|south-west|outskirts|suburbs|"
               r"middle|centre|center|heart)\s+of\s+)?")  # fmt: skip


_MOVED = (r"(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|also\s+|since\s+)?(?:moved|relocated|"
          r"emigrated)"
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
    """Where the user lives, grew up, used to live and has been, each read by one of ``_STEPS`` in turn."""
    lower = s == s.lower()
    place = PLACE_LOWER if lower else PROPER
    for step in _STEPS:
        yield from step(s, lower, place)


# A step of ``places``: the sentence, whether it is typed all in lower case, and the pattern of a place in it.
_Step = Callable[[str, bool, str], Emit]

_LIVES = (rf"\bI\s+live\s+(?:just\s+)?(?:near|outside)|\b(?:I\s+live|I'm\s+living|I\s+am\s+living|we\s+live|"
          rf"I'm\s+based|"
          rf"I\s+am\s+based|we're\s+based|I\s+reside|I(?:'ve|\s+have)?\s+settled(?:\s+down)?|"
          rf"{_MOVED}(?:\s+from\s+\S+(?:\s+[A-Z]\S*)*)?)"
          r"\s+(?:to|in)|\b(?:I'm|I\s+am|we're)\s+based\s+out\s+of|\bhome\s+(?:for\s+me\s+)?is|\b(?:my|"
          r"our)\s+(?:home|house|flat|apartment|place)\s+is\s+in|\bI\s+now\s+live\s+in|"
          r"(?:\band|\bbut)\s+(?:now\s+|currently\s+)?(?:live|reside|am\s+based)\s+in|"
          r"^\W*(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)(?:\s+(?:back|over|out|down|up|home|"
          r"across))?\s+to")  # fmt: skip


def _same_subject(s: str, m: re.Match[str]) -> bool:
    """A match that starts "and …"/"but …" has the user as its subject only if the clause before it does."""
    return not m.group(0).lower().startswith(("and", "but")) or same_subject(s, m.start())


def _lives(s: str, lower: bool, place: str) -> Emit:
    """ "I live in Leeds", "I'm based in Toronto", "home for me is Dublin", "we moved to Lisbon"."""
    for m in each(rf"(?:{_LIVES})\s+{SETTLEMENT}{place}", s):
        if not _same_subject(s, m):
            continue
        value = _place(m.group(1), lower)
        if value.lower() not in NOT_PLACES and not re.search(
            r"\b(?:used\s+to|anymore)\b", s[m.start() :], re.I
        ):
            yield "lives_in", value, m.start()


_RENTING = (r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:been\s+)?(?:rent(?:ing)?|shar(?:e|ing)|own(?:ing)?|liv(?:e|"
            r"ing)\s+in)\s+(?:a|an|our|my)\s+"
            r"(?:[\w-]+\s+)?(?:flat|house|apartment|place|home|room|condo|studio|cottage|bungalow|"
            r"houseboat)\s+(?:in|near)\s+")  # fmt: skip
_HOLIDAY = (r"\b(?:every|each|for\s+(?:a|the|two|three|\d+|a\s+few)\s+(?:weeks?|days?|nights?|summer|holidays?|"
            r"weekend)|on\s+holiday|this\s+(?:summer|winter|spring|autumn)|over\s+)")  # fmt: skip


def _renting(s: str, lower: bool, place: str) -> Emit:
    """ "We've been renting a flat in Brooklyn since 2019", "I rent a room in Camden"; "a cottage in Cornwall every
    summer" is a holiday."""
    for m in each(rf"{_RENTING}{place}", s):
        value = _place(m.group(1), lower)
        if value.lower() not in NOT_PLACES and not re.search(_HOLIDAY, s[m.end() :], re.I):
            yield "lives_in", value, m.start()


_CAME_BACK = (r"\b(?:before|then|and\s+then|until|till)\s+(?:coming|moving|came|moved|heading|"
              r"settling)\s+back\s+(?:home\s+)?to\s+")  # fmt: skip
_OTHERS_BACK = (rf"\b(?:he|she|they|you|his|her|their)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN}|friends?|boss|"
                rf"neighbou?r|flatmate|roommate)\b")  # fmt: skip


def _came_back(s: str, lower: bool, place: str) -> Emit:
    """ "… before coming back to Sydney", "then moved back to Leeds": where the user came back to is home."""
    for m in () if " back " not in s.lower() else each(rf"{_CAME_BACK}{place}", s):
        before = s[: m.start()]
        if re.search(r"\b(?:I|we)\b", before, re.I) and not re.search(_OTHERS_BACK, before, re.I):
            yield "lives_in", _place(m.group(1), lower), m.start()


def _call_home(s: str, lower: bool, place: str) -> Emit:
    """ "I call Seattle home"."""
    for m in each(rf"\bI\s+call\s+{place}\s+home\b", s):
        yield "lives_in", _place(m.group(1), lower), m.start()


def _living_in(s: str, lower: bool, place: str) -> Emit:
    """ "Currently living in Oslo" (the subject left out); "I've lived in Berlin since 2019"."""
    for m in each(
        rf"^\W*(?:currently\s+|now\s+)?(?:been\s+)?(?:living|based|live|renting)\s+in\s+{SETTLEMENT}{place}",
        s,
    ):
        yield "lives_in", _place(m.group(1), lower), m.start()
    for m in each(rf"\b(?:I|we)(?:'ve|’ve|\s+have)\s+(?:been\s+)?liv(?:ed|ing)\s+in\s+{PROPER}(?=\s+(?:for|"
                  rf"since)\b)", s):  # fmt: skip
        yield "lives_in", m.group(1).rstrip(",."), m.start()


_RAISED = (
    r"(?:born\s+and\s+raised\s+in|grew\s+up\s+(?:in|on)|raised\s+in|brought\s+up\s+in|originally\s+from)"
)
_RAISED_AFTER = r"(?:born\s+and\s+raised\s+in|grew\s+up\s+in|originally\s+from)"
_OTHERS_RAISED = (rf"\b(?:he|she|they|you|his|her|their)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN}|friends?|boss|"
                  rf"neighbou?r)\b")  # fmt: skip


def _raised(s: str, lower: bool, place: str) -> Emit:
    """ "Born and raised in Cork" (the subject left out); "live in glasgow, originally from belfast": after a comma,
    when no one else was named before it."""
    for m in each(rf"^\W*{_RAISED}\s+{SETTLEMENT}{place}", s):
        yield "hometown", _place(m.group(1), lower), m.start()
    for m in () if "," not in s else each(rf",\s*(?:but\s+)?{_RAISED_AFTER}\s+{SETTLEMENT}{place}", s):
        if not re.search(_OTHERS_RAISED, s[: m.start()], re.I):
            yield "hometown", _place(m.group(1), lower), m.start()


_SPENT = (rf"\bI\s+spent\s+(?:a|an|one|two|three|four|five|six|several|a\s+few|\d+)\s+(?:days?|weeks?|months?|"
          rf"years?|summers?)\s+in\s+{PROPER}")  # fmt: skip


def _spent_time(s: str, lower: bool, place: str) -> Emit:
    """ "I spent three weeks in Peru"."""
    for m in each(_SPENT, s):
        yield "visited", m.group(1).rstrip(",."), m.start()


_GREW = r"(?:grew\s+up|was\s+born(?:\s+and\s+(?:raised|bred))?|was\s+raised|was\s+brought\s+up)\s+(?:in|on)"
_HOMETOWN = (rf"\bI\s+{_GREW}|\bI\s+(?:come|hail)\s+from|\bI'm\s+originally\s+from|"
             rf"\bI\s+spent\s+(?:(?:most|all|much)\s+of\s+)?my\s+(?:childhood|youth|early\s+years|formative\s+years|"
             rf"teens|teenage\s+years|school\s+years)\s+in|\bmy\s+(?:home\s*town|birthplace|birth\s+place)\s+is|"
             rf"(?:\band|\bbut)\s+(?:originally\s+)?{_GREW}")  # fmt: skip


def _grew_up(s: str, lower: bool, place: str) -> Emit:
    """ "I grew up in Manchester", "I come from Lagos", "my home town is Cork"."""
    for m in each(rf"(?:{_HOMETOWN})\s+{SETTLEMENT}{place}", s):
        if not _same_subject(s, m):
            continue
        value = _place(m.group(1), lower)
        if value.lower() not in NOT_PLACES:
            yield "hometown", value, m.start()


_LIVED = (rf"(?:\bI\s+used\s+to\s+live\s+in|\bI\s+lived\s+in|\bI\s+no\s+longer\s+live\s+in|"
          rf"\b{_MOVED}(?:\s+(?:away\s+)?from|(?<=out)\s+of)|\bI\s+don't\s+live\s+in|"
          rf"{_MOVED_ELIDED}(?:\s+(?:away\s+)?from|(?<=out)\s+of)|\b{_MOVED}\s+(?:back\s+|"
          rf"over\s+)?to\s+(?-i:(?:[A-Z][\w'-]*\s+){{1,3}})from|\bI\s+spent\s+my\s+(?:twenties|thirties|"
          rf"forties|fifties|20s|30s|40s|50s|"
          rf"student\s+years|uni\s+years|university\s+years|college\s+years)\s+in)\s+")  # fmt: skip


def _used_to_live(s: str, lower: bool, place: str) -> Emit:
    """ "I used to live in Tokyo", "we moved from Chicago to …", "I spent my twenties in Paris"."""
    for m in re.finditer(rf"{_LIVED}{place}", s, re.I):
        if "don't" in m.group(0).lower() and not re.search(r"\b(?:anymore|any\s+more)\b", s[m.end() :], re.I):
            continue
        if re.match(r"\W*(?:,|and\b)", m.group(0)) and not same_subject(s, m.start()):
            continue  # "my sister lives in Leeds, moved from London": hers
        yield "lived_in", _place(m.group(1), lower), m.start()


_VISITED = (rf"^\W*(?:also\s+|just\s+|finally\s+)?(?:went|travel(?:l)?ed|flew)\s+to\s+{PROPER}|\bI(?:'ve|’ve|"
            rf"\s+have)\s+(?:been|travel(?:l)?ed)\s+to\s+{PROPER}|\b(?:I|we)(?:'ve|"
            rf"\s+have)?\s+(?:also\s+)?(?:visited|travel(?:l)?ed\s+to|went\s+to)\s+{PROPER}|"
            rf"(?:^\W*|\b(?:I|we)(?:'ve|\s+have)?\s+)(?:just\s+)?(?:got|came|flew|am|'m|are|"
            rf"'re)\s+back\s+from\s+(?:{HOW_MANY}|a\s+fortnight)\s+(?:days?|weeks?|months?|nights?)?\s*(?:in|"
            rf"on|around|travelling|backpacking)\s+{PROPER}|"
            rf"\bI(?:'ve|\s+have)?\s+(?:backpacked|travel(?:l)?ed|toured|cycled|hiked|"
            rf"road-tripped)\s+(?:around|through|across|all\s+over)\s+{PROPER}")  # fmt: skip


def _visited(s: str, lower: bool, place: str) -> Emit:
    """ "I've been to Japan, Korea and Vietnam"; "I've lived in Berlin, Paris and Madrid" (with "for"/"since": lives,
    above)."""
    for m in each(_VISITED, s):
        for name in _names(s[m.start(m.lastindex or 1) :]):
            yield "visited", name, m.start()
    for m in each(rf"\bI(?:'ve|\s+have)\s+(?:also\s+)?lived\s+in\s+{PROPER}(?!.*\b(?:for|since)\b)", s):
        for name in _names(s[m.start(1) :]):
            yield "lived_in", name, m.start()


_TRAVELLED = (r"(?:\b(?:I|we)(?:'ve|\s+have)?(?:\s+been)?\s+(?:\w+\s+){0,4}?|"
              r"^\W*been\s+(?:\w+\s+){0,4}?)travel(?:l?ed|l?ing)?\b[^-–—:.;!?]*?\s[-–—:]\s*(?=[A-Z])|(?:\b(?:I|"
              r"we)(?:'ve|\s+have)?\s+|^\W*)travel(?:l?ed|l?ing)?\b[^-–—.;!?]*?:\s*(?=[A-Z])")  # fmt: skip


def _travel_list(s: str, lower: bool, place: str) -> Emit:
    """ "I've travelled a lot: Kenya, Peru and Chile": a list of two or more names explaining the travel."""
    for m in () if not re.search(r"travel", s, re.I) else each(_TRAVELLED, s):
        if len(names := _names(s[m.end() :])) >= 2:
            for name in names:
                yield "visited", name, m.start()


_LEFT_FOR = (rf"\b(?:we(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?left|(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|"
             rf"finally\s+)?(?:swapped|traded|ditched))\s+{PROPER}\s+for\s+{PROPER}")  # fmt: skip


def _left_for(s: str, lower: bool, place: str) -> Emit:
    """ "we left Perth for Kuala Lumpur", "I swapped London for Lisbon": the first was home, the second is ("I left X
    for Y" stays a former employer: one leaves a job for another as often as a city)."""
    for m in () if " for " not in s else each(_LEFT_FOR, s):
        yield "lived_in", m.group(1).rstrip(",."), m.start()
        yield "lives_in", m.group(2).rstrip(",."), m.start()


_BORN_BASED = (r"(?:^\W*|,\s*)(?-i:([A-Z][a-zà-ÿ][\w.]*(?:\s+[A-Z][\w.]*){0,2}))[\s-](born|raised|bred|"
               r"based)\b(?!\s+(?:and\b(?!\s+(?:bred|raised))|in|on|at|company|business|firm|startup|team|band|"
               r"artist|charity|brand|agency)\b)")  # fmt: skip


def _born_based(s: str, lower: bool, place: str) -> Emit:
    """ "Kerala born, Toronto based since 2012": a place before "born"/"raised" is home town, before "based" home
    now; only where a clause starts ("a London-based company" is no one's)."""
    for m in () if not re.search(r"\b(?:born|based|raised|bred)\b", s) else re.finditer(_BORN_BASED, s):
        if m.group(1).lower() in NOT_NAMES | NOT_PLACE_WORDS or others_named(s[: m.start()]):
            continue
        yield ("lives_in" if m.group(2) == "based" else "hometown"), m.group(1), m.start()


_IS_HOME = (rf"^\W*{PROPER}\s+(was|is|has\s+been|'s)\s+(?:my\s+|our\s+)?home\b(?=\s*(?:$|[,.!;]|(?:now|"
            rf"these\s+days|for\s+(?:me|us|(?:most|much|all|part)\s+of\s+my|my|\w+\s+years|a\s+(?:few|couple|"
            rf"decade)))\b))")  # fmt: skip


def _is_home(s: str, lower: bool, place: str) -> Emit:
    """ "Hong Kong was home for most of my thirties", "Lisbon is home now": a place called home."""
    for m in re.finditer(_IS_HOME, s):
        yield ("lived_in" if m.group(2) == "was" else "lives_in"), m.group(1).rstrip(",."), m.start()


_STAY_IN = rf"\b(?:I|we)\s+(?:still\s+|currently\s+|now\s+)?stay\s+in\s+{SETTLEMENT}{PROPER}"
_VISITING = (r"\b(?:when|whenever|while|during|every|each|hotel|hostel|airbnb|holiday|vacation|trip|visit\w*|"
             r"night|weekend|until|till)\b")  # fmt: skip


def _stay_in(s: str, lower: bool, place: str) -> Emit:
    """ "I stay in Bangalore with my parents": to stay in a place, said of no visit or time, is to live there."""
    for m in () if "stay in" not in s.lower() else each(_STAY_IN, s):
        if not re.search(_VISITING, s, re.I) and not (PAST_TIME.search(s) or FUTURE_TIME.search(s)):
            yield "lives_in", m.group(1).rstrip(",."), m.start()


# In this order: the first to say a (predicate, value) keeps its offset.
_STEPS: tuple[_Step, ...] = (
    _lives, _renting, _came_back, _call_home, _living_in, _raised, _spent_time, _grew_up, _used_to_live, _visited,
    _travel_list, _left_for, _born_based, _is_home, _stay_in,
)  # fmt: skip
