"""The "I'm …" frame: "I'm 29, vegetarian and allergic to cats", "I'm a nurse", "I'm married to Tom".

What follows "I'm" is cut at commas and "and", and each piece is read by the first of ``PIECE_READERS`` whose frame
it is. Also "we're both nurses": what is said of both is said of the user.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from shared.domain.extraction.rules.family import family_fact, pets_counted
from shared.domain.extraction.rules.health import ALLERGIC, DEVICE, DRUG, MEDICINES, condition
from shared.domain.extraction.rules.matching import Emit, Said, each
from shared.domain.extraction.rules.phrases import (
    CALLED,
    FREE_FROM,
    I_AM,
    KIN,
    NAME,
    NUM,
    PROPER,
    STATE_ADVERBS,
    WE_ARE,
)
from shared.domain.extraction.rules.places import PLACE_LOWER, SETTLEMENT
from shared.domain.extraction.rules.sentences import SYMBOLS_AFTER
from shared.domain.extraction.rules.times import DURATION
from shared.domain.extraction.rules.values import clause, items, unfill
from shared.domain.extraction.rules.words import (
    CONDITION_ADJECTIVES,
    DIETS,
    JOB_STATES,
    MARITAL,
    NOT_ITEMS,
    NOT_PLACES,
    PETS,
)
from shared.domain.extraction.rules.work import job_title


def copula(s: str) -> Emit:
    """ "I'm 29, vegetarian and allergic to cats", "I'm a nurse", "I'm married to Tom", "I'm from Ohio"."""
    for m in each(I_AM + STATE_ADVERBS, s):
        rest = s[m.end() :]
        stop = re.search(r"\s*(?:[.;!?]|\b(?:but|so|since|because|when|while|though|although|whereas|unless)\b|"
                         r"\band\s+(?:I|we|i)\b|\b(?:I'm|I\s+am)\b)", rest)  # fmt: skip
        tail = rest[: stop.start()] if stop else rest
        for i, piece in enumerate(re.split(r"\s*,\s*(?:and\s+)?", tail)):
            lower = s == s.lower()
            # "a vegetarian for ten years" is a vegetarian, "vegan for about three years now 🌱" vegan
            piece = DURATION.sub("", unfill(SYMBOLS_AFTER.sub("", piece)))
            said = list(read_piece(piece, m.start(), lower))
            # "I'm married, no kids, one very spoilt springer spaniel": a verbless list goes on
            if not said and i:
                said = list(_listed_have(piece, m.start()))
            if not said and " and " in piece:  # "unemployed and looking for work", "two sons and a greyhound"
                parts = [unfill(part) for part in piece.split(" and ")]
                said = [f for part in parts for f in read_piece(part, m.start(), lower)]
                if not said and i:
                    said = [f for part in parts for f in _listed_have(part, m.start())]
            yield from said


def both(s: str) -> Emit:
    """ "Me and my fiancé are both nurses", "we're both huge Arsenal fans": what is said of both is said of the
    user."""
    if " both " not in s.lower():  # a substring test first: the frame is rare and the pattern is not cheap
        return
    for m in each(rf"\b{WE_ARE}\s+both\s+(.+)", s):
        said = clause(m.group(1))
        if fans := re.fullmatch(
            r"(?:(?:huge|big|massive|die-?hard|mad)\s+)?(.+?)\s+(?:fans|supporters)", said, re.I
        ):
            yield "likes", fans.group(1), m.start()
        elif (plural := re.fullmatch(r"(?:an?\s+)?((?:[\w-]+\s+){0,2}[\w-]+?)s", said)) and (
            job := job_title(plural.group(1))
        ):
            yield "job_title", job, m.start()


def _listed_have(piece: str, at: int) -> Emit:
    """A counted pet or kin word said as an item of a list after "I'm" ("…, two kids, one very spoilt spaniel")."""
    if match := re.fullmatch(
        rf"({NUM})\s+(?:[\w-]+\s+){{0,2}}?({PETS}|puppies|bunnies|ponies)s?", piece, re.I
    ):
        yield "pet", pets_counted(match.group(1), match.group(2)), at
    elif match := re.fullmatch(rf"({NUM})\s+(?:[\w-]+\s+){{0,2}}?({KIN})", piece, re.I):
        yield (*family_fact(match.group(2), match.group(1)), at)


# One reader a frame of what follows "I'm": None when ``piece`` is not in its frame, else what it says (perhaps
# nothing: "married twice" is the frame of a past, and says nothing about now).
PieceReader = Callable[[str, int, bool], "list[Said] | None"]


def _age(piece: str, at: int, lower: bool) -> list[Said] | None:
    if match := re.fullmatch(r"(\d{1,3})(?:\s+years?\s+old)?", piece.lower()):
        return [("age", match.group(1), at)]
    return None


def _going_through(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "I'm 52, going through menopause"."""
    if (through := re.fullmatch(r"going\s+through\s+(?:the\s+)?(.+)", piece.lower())) and (
        found := condition(through.group(1))
    ):
        return [("health_condition", found, at)]
    return None


def _diet_word(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "vegan", "a pescatarian", "lactose-free"."""
    if (eats := re.sub(r"^an?\s+", "", piece.lower())) in DIETS or FREE_FROM.fullmatch(eats):
        return [("diet", eats, at)]
    return None


def _on_a_diet(piece: str, at: int, lower: bool) -> list[Said] | None:
    if match := re.fullmatch(
        r"on\s+an?\s+(?:(?:strict|new|special|mostly)\s+)?([\w-]+(?:\s+[\w-]+)?)\s+diet", piece.lower()
    ):
        return [("diet", match.group(1), at)]
    return None


_CONDITION_ADJECTIVE = (
    r"(?:(?:very|severely|slightly|partially|profoundly|mildly|borderline|clinically|"
    r"completely|totally|legally|\w+\s+(?:weeks?|months?))\s+)?"
    rf"({'|'.join(CONDITION_ADJECTIVES)})"
    r"(\s+in\s+(?:one|both|my\s+(?:left|right)|the\s+(?:left|right))\s+(?:ear|eye)s?)?"
)


def _condition_adjective(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "lactose intolerant", "deaf in one ear"."""
    if match := re.fullmatch(_CONDITION_ADJECTIVE, piece.lower()):
        return [("health_condition", CONDITION_ADJECTIVES[match.group(1)] + (match.group(2) or ""), at)]
    return None


def _diabetic(piece: str, at: int, lower: bool) -> list[Said] | None:
    if match := re.fullmatch(r"type\s+([12])\s+diabetic", piece.lower()):
        return [("health_condition", f"type {match.group(1)} diabetes", at)]
    return None


_KEEN = (
    r"(?:(?:really|very|quite|so|super|pretty|absolutely|totally)\s+)?(?:obsessed\s+with|crazy\s+about|"
    r"passionate\s+about|"
    r"mad\s+about|fond\s+of|keen\s+on|partial\s+to|a\s+sucker\s+for|big\s+on|hooked\s+on|addicted\s+to)\s+(.+)"
)


def _keen_on(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "obsessed with k-dramas", "keen on gardening"."""
    if match := re.match(_KEEN, piece, re.I):
        return [("likes", item, at) for item in items(match.group(1))]
    return None


def _year_at(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "in my second year at Leeds"."""
    if match := re.match(
        rf"in\s+my\s+(?:first|second|third|fourth|final|last)\s+year\s+at\s+{PROPER}", piece
    ):
        return [("school", match.group(1).rstrip(",."), at)]
    return None


def _allergic_to(piece: str, at: int, lower: bool) -> list[Said] | None:
    if match := re.match(rf"(?:very\s+|severely\s+|really\s+|mildly\s+)?{ALLERGIC}\s+to\s+(.+)", piece, re.I):
        return [("allergy", item, at) for item in items(match.group(1))]
    return None


def _married_before(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "I've been married twice" says nothing about now."""
    if re.match(r"(?:married|engaged|divorced)\s+(?:twice|once|before|\w+\s+times)\b", piece.lower()):
        return []
    return None


def _married_to(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "married to Tom with two kids"."""
    match = re.match(rf"(married|engaged)(?:\s+to\s+{NAME})?", piece, re.I)
    if not match:
        return None
    said = [("marital_status", match.group(1).lower(), at)]
    if match.group(2):
        said.append(("partner", match.group(2), at))
    if kids := re.search(rf"\bwith\s+({NUM})\s+(kids|children|sons|daughters|boys|girls)\b", piece, re.I):
        said.append((*family_fact(kids.group(2), kids.group(1)), at))
    return said


def _marital(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "divorced", "separated from my husband"."""
    if match := re.fullmatch(rf"({'|'.join(MARITAL)})(?:\s+(?:from|since)\b.*)?", piece.lower()):
        return [("marital_status", match.group(1), at)]
    return None


def _not_working(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "retired", "between jobs"."""
    if (low := piece.lower()) in JOB_STATES:
        return [("job_title", JOB_STATES[low], at)]
    return None


def _from(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "from Ohio", "originally from a small town near Cork"."""
    if match := re.match(rf"(?:originally\s+)?from\s+{SETTLEMENT}{PROPER}", piece):
        return [("hometown", match.group(1).rstrip(",."), at)]
    return None


def _from_lower(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "from leeds", in a message typed all in lower case."""
    if not lower or not (
        match := re.match(rf"(?:originally\s+)?from\s+{SETTLEMENT}(?:the\s+)?{PLACE_LOWER}", piece)
    ):
        return None
    if match.group(1) not in NOT_PLACES and match.group(1) not in ("work", "school", "home", "office"):
        return [("hometown", match.group(1), at)]
    return []


def _only_child(piece: str, at: int, lower: bool) -> list[Said] | None:
    if re.match(r"an?\s+only\s+child\b", piece.lower()):
        return [("family", "only child", at)]
    return None


_PARENT = (
    r"an?\s+(?:(single|stay-at-home|working|new|proud|first-time|busy|full-time)\s+)?"
    rf"(grand)?(?:mom|mum|mother|dad|father|parent|ma|pa)(?:\s+(?:of|to)\s+({NUM})\b.*)?"
)


def _parent(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "I'm a single mum", "I'm a dad of three": the user has children."""
    match = re.fullmatch(_PARENT, piece.lower())
    if not match:
        return None
    said = [("marital_status", "single", at)] if match.group(1) == "single" else []
    return [*said, (*family_fact("grandchildren" if match.group(2) else "children", match.group(3)), at)]


_DEMONYM = (
    r"an?\s+(?:proud\s+|true\s+|born-and-bred\s+)?(?-i:([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)er)"
    r"(?:\s+born\s+and\s+bred|\s+through\s+and\s+through|\s+at\s+heart)?"
)
_NOT_DEMONYM = r"^(?:North|South|East|West|Outsid|Foreign|Believ|Lov|Play|Us)|(?:Island|Highland|Lowland)$"


def _demonym(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "I'm a Londoner", "a New Yorker": the place the user is of. Not "a Northerner", "a Pacific Islander"."""
    match = re.fullmatch(_DEMONYM, piece)
    if not match:
        return None
    if not re.search(_NOT_DEMONYM, match.group(1)) and len(match.group(1)) >= 5:
        return [("lives_in", match.group(1), at)]
    return []


def _native_of(piece: str, at: int, lower: bool) -> list[Said] | None:
    if match := re.match(rf"an?\s+native\s+of\s+{PROPER}", piece):
        return [("hometown", match.group(1).rstrip(",."), at)]
    return None


_A_FAN = (
    r"an?\s+(?:(?:huge|big|massive|die-?hard|lifelong|long-time|loyal|massive)\s+)?"
    r"((?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})|[a-z-]+(?:\s+[a-z-]+)?)\s+fan"
)
_NOT_FANDOMS = ("big", "huge", "ceiling", "desk", "sports", "music", "football", "film")


def _a_fan(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "I'm a huge Arsenal fan", "a jazz fan"."""
    match = re.fullmatch(_A_FAN, piece)
    if not match:
        return None
    return [("likes", match.group(1), at)] if match.group(1).lower() not in _NOT_FANDOMS else []


_FAN_OF = (
    r"(?:an?\s+)?(?:(?:huge|big|massive)\s+)?fan\s+of\s+(.+)|(?:(?:really|very|so|big|super)\s+)?into\s+(.+)"
)


def _fan_of(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "a big fan of sci-fi", "really into bouldering"."""
    match = re.match(_FAN_OF, piece, re.I)
    if not match:
        return None
    return [
        ("likes", item, at)
        for item in items(match.group(1) or match.group(2))
        if item.lower() not in NOT_ITEMS
    ]


_ON_DRUG = (
    rf"(?:on|taking)\s+({DRUG})(?:\s+(?:this\s+week|at\s+the\s+moment))?"
    r"(?:\s+(?:for\s+.+|daily|every\s+\w+|now))?"
)


def _on_medication(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "on blood pressure medication", "on sertraline"."""
    if (
        match := re.match(
            rf"on\s+(?:an?\s+)?((?:[\w-]+\s+){{0,3}}{MEDICINES}(?:\s+{DEVICE})?)\b", piece, re.I
        )
    ) or (match := re.fullmatch(_ON_DRUG, piece.lower())):
        return [("medication", match.group(1), at)]
    return None


def _aged(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "I'm a 34 yo mechanic" (normalised), "a 40 year old mum of two": the age, and the rest read again."""
    if match := re.fullmatch(
        r"an?\s+(\d{1,3})\s+year\s+old\s+(?!(?:at|in|on|for|with|inside|trapped)\b)([a-z].*)", piece, re.I
    ):
        return [("age", match.group(1), at), *read_piece("a " + match.group(2), at, lower)]
    return None


def _ex(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "I'm ex-McKinsey", "an ex-Google engineer": where the user worked (and the job, if said)."""
    match = re.match(rf"(?:an?\s+)?ex-{PROPER}(?:\s+([a-z][\w -]*))?$", piece)
    if not match:
        return None
    if job_title(match.group(1)):
        return []
    said = [("former_employer", match.group(1).rstrip(",."), at)]
    if match.group(2) and (job := job_title(match.group(2))):
        said.append(("job_title", job, at))
    return said


_WORKS_AT = (
    r"\s+(?:(?:over\s+|out\s+|down\s+|up\s+)?at|for|with(?=\s+(?:the\s+)?(?-i:[A-Z]\w*\s+[A-Z])))\s+"
    rf"{CALLED}{PROPER}"
)


def _job(piece: str, at: int, lower: bool) -> list[Said] | None:
    """ "I'm a nurse", "I'm head chef at …", "a student at UCLA studying biology"."""
    if not re.match(
        r"(?:an?|the)\s|(?:head|senior|junior|lead|chief|principal|deputy|sous|staff)\s", piece.lower()
    ):
        return None
    words = re.sub(r"^(?:an?|the)\s+", "", piece)
    job = job_title(words)
    if not job:
        return []
    said = [("job_title", job, at)]
    rest = words[len(job) :]
    student = job.lower().endswith("student")
    if place := re.match(rf"\s+(?:in|from)\s+{PROPER}", rest):
        said.append(("lives_in", place.group(1).rstrip(",."), at))
    if school := re.match(_WORKS_AT, rest):
        said.append(("school" if student else "employer", school.group(1), at))
    if student and (field := re.match(r"\s+in\s+([a-z][\w ]*)", rest)):
        said.append(("studies", items(field.group(1))[0], at))
    if study := re.search(r"\bstudying\s+([\w ]+)", rest):
        said.append(("studies", items(study.group(1))[0], at))
    return said


# In this order: the first reader whose frame a piece is reads it.
PIECE_READERS: tuple[PieceReader, ...] = (
    _age, _going_through, _diet_word, _on_a_diet, _condition_adjective, _diabetic, _keen_on, _year_at,
    _allergic_to, _married_before, _married_to, _marital, _not_working, _from, _from_lower, _only_child,
    _parent, _demonym, _native_of, _a_fan, _fan_of, _on_medication, _aged, _ex, _job,
)  # fmt: skip


def read_piece(piece: str, at: int, lower: bool = False) -> list[Said]:
    """What one piece of "I'm …" says: "29", "vegetarian", "allergic to cats", "a nurse at the Royal Free"."""
    for reader in PIECE_READERS:
        said = reader(piece, at, lower)
        if said is not None:
            return said
    return []
