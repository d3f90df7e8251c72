"""The "I'm …" frame: "I'm 29, vegetarian and allergic to cats", "I'm a nurse", "I'm married to Tom".

What follows "I'm" is cut at commas and "and", and each piece is read by the first of ``PIECE_READERS`` whose frame
it is. Also "we're both nurses": what is said of both is said of the user.
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.family import family_fact, plural_of
from shared.domain.extraction.rules.health import ALLERGIC, DEVICE, DRUG, MEDICINES, condition
from shared.domain.extraction.rules.matching import Emit, each
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
    NUMBERS,
    PETS,
    SINGULAR,
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
            said = list(_copula_piece(piece, m.start(), lower))
            # "I'm married, no kids, one very spoilt springer spaniel": a verbless list goes on
            if not said and i:
                said = list(_listed_have(piece, m.start()))
            if not said and " and " in piece:  # "unemployed and looking for work", "two sons and a greyhound"
                parts = [unfill(part) for part in piece.split(" and ")]
                said = [f for part in parts for f in _copula_piece(part, m.start(), lower)]
                if not said and i:
                    said = [f for part in parts for f in _listed_have(part, m.start())]
            yield from said


def both(s: str) -> Emit:
    """ "Me and my fiancé are both nurses", "we're both huge Arsenal fans": what is said of both is said of the user."""
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
        n = NUMBERS.get(match.group(1).lower()) if not match.group(1).isdigit() else int(match.group(1))
        kind = SINGULAR.get(match.group(2).lower(), match.group(2).lower())
        yield "pet", f"{n} {plural_of(kind)}" if n and n > 1 else kind, at
    elif match := re.fullmatch(rf"({NUM})\s+(?:[\w-]+\s+){{0,2}}?({KIN})", piece, re.I):
        yield (*family_fact(match.group(2), match.group(1)), at)


def _copula_piece(piece: str, at: int, lower: bool = False) -> Emit:
    low = piece.lower()
    if match := re.fullmatch(r"(\d{1,3})(?:\s+years?\s+old)?", low):
        yield "age", match.group(1), at
    elif (through := re.fullmatch(r"going\s+through\s+(?:the\s+)?(.+)", low)) and (
        found := condition(through.group(1))
    ):
        yield "health_condition", found, at  # "I'm 52, going through menopause"
    elif (eats := re.sub(r"^an?\s+", "", low)) in DIETS or FREE_FROM.fullmatch(eats):
        yield "diet", eats, at  # "vegan", "a pescatarian", "lactose-free"
    elif match := re.fullmatch(
        r"on\s+an?\s+(?:(?:strict|new|special|mostly)\s+)?([\w-]+(?:\s+[\w-]+)?)\s+diet", low
    ):
        yield "diet", match.group(1), at
    elif match := re.fullmatch(rf"(?:(?:very|severely|slightly|partially|profoundly|mildly|borderline|clinically|"
                               rf"completely|totally|legally|\w+\s+(?:weeks?|months?))\s+)?({'|'.join(CONDITION_ADJECTIVES)})"
                               rf"(\s+in\s+(?:one|both|my\s+(?:left|right)|the\s+(?:left|right))\s+(?:ear|eye)s?)?", low):  # fmt: skip
        yield "health_condition", CONDITION_ADJECTIVES[match.group(1)] + (match.group(2) or ""), at
    elif match := re.fullmatch(r"type\s+([12])\s+diabetic", low):
        yield "health_condition", f"type {match.group(1)} diabetes", at
    elif match := re.match(
        r"(?:(?:really|very|quite|so|super|pretty|absolutely|totally)\s+)?(?:obsessed\s+with|crazy\s+about|passionate\s+about|"
        r"mad\s+about|fond\s+of|keen\s+on|partial\s+to|a\s+sucker\s+for|big\s+on|hooked\s+on|addicted\s+to)\s+(.+)",
        piece,
        re.I,
    ):
        for item in items(match.group(1)):
            yield "likes", item, at
    elif match := re.match(
        rf"in\s+my\s+(?:first|second|third|fourth|final|last)\s+year\s+at\s+{PROPER}", piece
    ):
        yield "school", match.group(1).rstrip(",."), at
    elif match := re.match(
        rf"(?:very\s+|severely\s+|really\s+|mildly\s+)?{ALLERGIC}\s+to\s+(.+)", piece, re.I
    ):
        for item in items(match.group(1)):
            yield "allergy", item, at
    elif re.match(r"(?:married|engaged|divorced)\s+(?:twice|once|before|\w+\s+times)\b", low):
        pass  # "I've been married twice" says nothing about now
    elif match := re.match(rf"(married|engaged)(?:\s+to\s+{NAME})?", piece, re.I):
        yield "marital_status", match.group(1).lower(), at
        if match.group(2):
            yield "partner", match.group(2), at
        if kids := re.search(rf"\bwith\s+({NUM})\s+(kids|children|sons|daughters|boys|girls)\b", piece, re.I):
            yield (*family_fact(kids.group(2), kids.group(1)), at)
    elif match := re.fullmatch(rf"({'|'.join(MARITAL)})(?:\s+(?:from|since)\b.*)?", low):
        yield "marital_status", match.group(1), at  # "separated from my husband"
    elif low in JOB_STATES:
        yield "job_title", JOB_STATES[low], at
    elif match := re.match(rf"(?:originally\s+)?from\s+{SETTLEMENT}{PROPER}", piece):
        yield "hometown", match.group(1).rstrip(",."), at
    elif lower and (
        match := re.match(rf"(?:originally\s+)?from\s+{SETTLEMENT}(?:the\s+)?{PLACE_LOWER}", piece)
    ):
        if match.group(1) not in NOT_PLACES and match.group(1) not in ("work", "school", "home", "office"):
            yield "hometown", match.group(1), at
    elif match := re.match(r"an?\s+only\s+child\b", low):
        yield "family", "only child", at
    elif match := re.fullmatch(rf"an?\s+(?:(single|stay-at-home|working|new|proud|first-time|busy|full-time)\s+)?"
                               rf"(grand)?(?:mom|mum|mother|dad|father|parent|ma|pa)(?:\s+(?:of|to)\s+({NUM})\b.*)?", low):  # fmt: skip
        # "I'm a single mum", "I'm a dad of three": the user has children.
        if match.group(1) == "single":
            yield "marital_status", "single", at
        yield (*family_fact("grandchildren" if match.group(2) else "children", match.group(3)), at)
    elif match := re.fullmatch(r"an?\s+(?:proud\s+|true\s+|born-and-bred\s+)?(?-i:([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)er)"
                               r"(?:\s+born\s+and\s+bred|\s+through\s+and\s+through|\s+at\s+heart)?", piece):  # fmt: skip
        # "I'm a Londoner", "a New Yorker": the place the user is of. Not "a Northerner", "a Pacific Islander".
        if not re.search(r"^(?:North|South|East|West|Outsid|Foreign|Believ|Lov|Play|Us)|(?:Island|Highland|Lowland)$",
                         match.group(1)) and len(match.group(1)) >= 5:  # fmt: skip
            yield "lives_in", match.group(1), at
    elif match := re.match(rf"an?\s+native\s+of\s+{PROPER}", piece):
        yield "hometown", match.group(1).rstrip(",."), at
    elif match := re.fullmatch(r"an?\s+(?:(?:huge|big|massive|die-?hard|lifelong|long-time|loyal|massive)\s+)?"
                               r"((?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})|[a-z-]+(?:\s+[a-z-]+)?)\s+fan", piece):  # fmt: skip
        if match.group(1).lower() not in (
            "big",
            "huge",
            "ceiling",
            "desk",
            "sports",
            "music",
            "football",
            "film",
        ):
            yield "likes", match.group(1), at  # "I'm a huge Arsenal fan", "a jazz fan"
    elif match := re.match(r"(?:an?\s+)?(?:(?:huge|big|massive)\s+)?fan\s+of\s+(.+)|(?:(?:really|very|so|big|super)\s+)?into\s+(.+)", piece, re.I):  # fmt: skip
        for item in items(match.group(1) or match.group(2)):
            if item.lower() not in NOT_ITEMS:
                yield "likes", item, at
    elif (
        match := re.match(
            rf"on\s+(?:an?\s+)?((?:[\w-]+\s+){{0,3}}{MEDICINES}(?:\s+{DEVICE})?)\b", piece, re.I
        )
    ) or (
        match := re.fullmatch(
            rf"(?:on|taking)\s+({DRUG})(?:\s+(?:this\s+week|at\s+the\s+moment))?(?:\s+(?:for\s+.+|daily|every\s+\w+|now))?",
            low,
        )
    ):
        yield "medication", match.group(1), at  # "on blood pressure medication", "on sertraline"
    elif match := re.fullmatch(
        r"an?\s+(\d{1,3})\s+year\s+old\s+(?!(?:at|in|on|for|with|inside|trapped)\b)([a-z].*)", piece, re.I
    ):
        yield "age", match.group(1), at  # "I'm a 34 yo mechanic" (normalised), "a 40 year old mum of two"
        yield from _copula_piece("a " + match.group(2), at, lower)
    elif match := re.match(rf"(?:an?\s+)?ex-{PROPER}(?:\s+([a-z][\w -]*))?$", piece):
        # "I'm ex-McKinsey", "an ex-Google engineer": where the user worked (and the job, if said)
        if not job_title(match.group(1)):
            yield "former_employer", match.group(1).rstrip(",."), at
            if match.group(2) and (job := job_title(match.group(2))):
                yield "job_title", job, at
    elif re.match(r"(?:an?|the)\s|(?:head|senior|junior|lead|chief|principal|deputy|sous|staff)\s", low):
        # "I'm a nurse", "I'm head chef at …"
        words = re.sub(r"^(?:an?|the)\s+", "", piece)
        if job := job_title(words):
            yield "job_title", job, at
            rest = words[len(job) :]
            if place := re.match(rf"\s+(?:in|from)\s+{PROPER}", rest):
                yield "lives_in", place.group(1).rstrip(",."), at
            if school := re.match(
                rf"\s+(?:(?:over\s+|out\s+|down\s+|up\s+)?at|for|with(?=\s+(?:the\s+)?(?-i:[A-Z]\w*\s+[A-Z])))\s+{CALLED}{PROPER}",
                rest,
            ):
                yield ("school" if job.lower().endswith("student") else "employer"), school.group(1), at
            if job.lower().endswith("student") and (field := re.match(r"\s+in\s+([a-z][\w ]*)", rest)):
                yield "studies", items(field.group(1))[0], at
            if study := re.search(r"\bstudying\s+([\w ]+)", rest):
                yield "studies", items(study.group(1))[0], at
