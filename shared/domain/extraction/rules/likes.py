"""``likes`` and ``dislikes``: "I love hiking", "Ramen is my favourite food", "I can't stand cilantro"; sarcasm
("oh great, I just LOVE Mondays") states nothing.
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, Rule, each
from shared.domain.extraction.rules.phrases import DEGREE, PERFECT, THE_THING
from shared.domain.extraction.rules.values import clean, items
from shared.domain.extraction.rules.words import NOT_ITEMS

# Sarcasm says the opposite: an interjection ("oh yeah", "oh great", "yeah right") with a shouted or "just" love or
# "best part of my day", or a "said no one ever" / "/s" anywhere.
_SARCASM = re.compile(r"\bsaid\s+no\s+one\s+ever\b|\s/s\b|^\W*yeah\s+right\b|^(?=\W*(?:oh\s+(?:yeah|great|joy|"
                      r"wow|sure|boy)|yeah\s+right|wow)\b)"
                      r".*(?:\b(?-i:LOVE|LIKE|ENJOY|ADORE)\b|\bjust\s+(?:love|adore)|"
                      r"\bbest\s+part\s+of\s+my\s+(?:day|week)\b)", re.I)  # fmt: skip


def _in_the_thing(s: str, at: int) -> bool:
    """``at`` is inside a "the only thing I hate eating is …" frame, which its own rule reads."""
    low = s.lower()
    if "thing" not in low and "what" not in low:
        return False
    return any(m.start() <= at < m.end() for m in re.finditer(THE_THING, s, re.I))


def likes(s: str) -> Emit:
    """What the user likes, said any of the ways of ``_STEPS``; after sarcasm, only what another frame said first."""
    yield from _the_thing(s)
    yield from _so_am_i(s)
    if _SARCASM.search(s):
        return
    for step in _STEPS:
        yield from step(s)


def _not_a_thing(item: str) -> bool:
    """ "I love my job", "I hate it": a pronoun or a possessive, no preference."""
    return bool(re.match(rf"(?:{'|'.join(NOT_ITEMS)})\b", item, re.I))


def _the_thing(s: str) -> Emit:
    """ "The only thing I hate eating is olives", "the only thing I don't like is …" (the opposite)."""
    low = s.lower()
    for m in re.finditer(THE_THING, s, re.I) if "thing" in low or "what" in low else ():
        kind = "likes" if m.group(2).lower() in ("like", "love", "enjoy", "adore") else "dislikes"
        if m.group(1):
            kind = "dislikes" if kind == "likes" else "likes"
        for item in items(m.group(3)):
            if not _not_a_thing(item):
                yield kind, item, m.start()


_FANS_TOO = (r"(?:'s|\s+is|\s+are|'re)\s+(?:a\s+)?(?:(?:huge|big|massive|die-?hard|lifelong)\s+)?"
             r"((?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})|[a-z-]+)\s+fans?,?\s+(?:and|as)\s+(?:so\s+am\s+I|"
             r"I\s+am\s+too|I'm\s+too|me\s+too)\b")  # fmt: skip
_LOVES_TOO = (r"\b(?:loves|likes|enjoys|adores|love|like|enjoy|adore)\s+(.+?),?\s+(?:and|as)\s+(?:so\s+do\s+I|"
              r"I\s+do\s+too|me\s+too)\b")  # fmt: skip


def _so_am_i(s: str) -> Emit:
    """ "My dad's a massive Arsenal fan and so am I", "My wife loves opera and so do I"."""
    low = s.lower()
    too = " too" in low or " so " in low
    for m in () if not too else each(_FANS_TOO, s):
        if m.group(1).lower() not in ("big", "huge", "massive", "a"):
            yield "likes", m.group(1), m.start()
    for m in () if not too else each(_LOVES_TOO, s):
        if not re.match(r"\s*(?:I|we)\s*$", s[: m.start()], re.I):
            for item in items(m.group(1)):
                if not _not_a_thing(item):
                    yield "likes", item, m.start()


_LIKE = rf"{PERFECT}\s+{DEGREE}(?:like|love|enjoy|adore|prefer|liked|loved|enjoyed|adored|dig)"


def _i_like(s: str) -> Emit:
    """ "I love hiking and photography", "Big fan of sci-fi here" (the subject left out), "my favourite food
    is …"."""
    for m in each(rf"\b(?:I|we){_LIKE}\s+(?!to\b|it\b|that\b|you\b|when\b|how\b|the\s+idea\b)(.+)", s):
        if _in_the_thing(s, m.start()):
            continue
        for item in items(m.group(1)):
            if not _not_a_thing(item):
                yield "likes", item, m.start()
    for m in each(
        r"^\W*(?:(?:huge|big)\s+)?fan\s+of\s+(.+)|^\W*(?:huge|big|really|very|so)\s+into\s+(.+)", s
    ):
        for item in items(re.sub(r"\s+here\b.*$", "", m.group(1) or m.group(2))):
            yield "likes", item, m.start()
    for m in each(r"\bmy\s+fav(?:ou?rite)?\s+([\w ]{1,30}?)\s+(?:is|are)\s+(.+)", s):
        kind = "hobby" if re.search(r"\b(?:hobby|hobbies|pastime)$", m.group(1), re.I) else "likes"
        for item in items(m.group(2), cut_prepositions=False):
            yield kind, item, m.start()


_IS_MY_FAVOURITE = (r"^\W*+((?:the\s+)?[\w'-]+(?:\s+[\w'-]+){0,4}?)(?:\s+(?:is|are)(?:n't)?|'s|"
                    r"\s+has\s+always\s+been|\s+have\s+always\s+been)\s+"
                    r"(not\s+|n't\s+)?(?:really\s+|probably\s+|definitely\s+|easily\s+)?my\s+(least\s+)?"
                    r"(?:(?:one|two|three|four|true|great|big|biggest|real|current|latest|new|all-time|only)\s+)*"
                    r"(?:fav(?:ou?rite)?s?|favou?rites?|thing|jam|passions?|obsessions?|loves|"
                    r"guilty\s+pleasures?|cup\s+of\s+tea|weakness)\b"
                    r"(?:\s+(hobby|hobbies|pastime)\b)?")  # fmt: skip


def _is_my_favourite(s: str) -> Emit:
    """The other way round: "Ramen is my favourite food", "Mondays are my least favourite day", a list as the
    subject ("Gardening and crosswords are my two great loves")."""
    for m in re.finditer(_IS_MY_FAVOURITE, s, re.I):
        things = items(m.group(1), cut_prepositions=False) if " and " in m.group(1) else [clean(m.group(1))]
        for thing in things:
            yield from _inverse_liking(m, thing)


_MAKES_ME_HAPPY = (r"^\W*+((?:the\s+)?[\w'-]+(?:\s+[\w'-]+){0,3}?)\s+(?:always\s+|really\s+|just\s+|"
                   r"still\s+)?makes?\s+me\s+"
                   r"(?:so\s+|really\s+|very\s+|genuinely\s+|super\s+|ridiculously\s+)?(?:happy|smile|"
                   r"laugh)\b")  # fmt: skip
_NOT_HAPPY_MAKERS = r"(?:my|your|his|her|our|their|this|that|it|he|she|they|who|what)\b"


def _makes_me_happy(s: str) -> Emit:
    """ "Bollywood musicals make me so happy": what makes the user happy is a liking."""
    for m in re.finditer(_MAKES_ME_HAPPY, s, re.I):
        for thing in items(m.group(1), cut_prepositions=False):
            if thing.lower() not in NOT_ITEMS and not re.match(_NOT_HAPPY_MAKERS, thing, re.I):
                yield "likes", thing, m.start()


_LOVE_TO = (rf"\bI{PERFECT}\s+{DEGREE}(?:love|like|enjoy|adore)\s+to\s+(?!(?:think|know|say|be|have|help|keep|"
            rf"imagine|believe|see|hear|point|remind|make|ask|get|go|let|stay|check|mention|add|note|"
            rf"start)\b)([a-z]+)(?=\s*(?:[,.!;]|$))")  # fmt: skip


def _love_to(s: str) -> Emit:
    """ "I love to travel": a verb liked (not "I like to think …"); "I can't get enough of sushi"."""
    for m in each(_LOVE_TO, s):
        yield "likes", m.group(1), m.start()
    for m in each(r"\bI\s+can't\s+get\s+enough\s+of\s+(.+)", s):
        for item in items(m.group(1)):
            yield "likes", item, m.start()


# In this order, after the frames that sarcasm does not take back.
_STEPS: tuple[Rule, ...] = (_i_like, _is_my_favourite, _makes_me_happy, _love_to)


def _inverse_liking(m: re.Match[str], thing: str) -> Emit:
    """ "Ramen is my favourite food": the liking (or dislike, or pastime) the inverse frame ``m`` states of
    ``thing``."""
    pronouns = ("it", "that", "this", "which", "what", "there", "he", "she", "they", "who")
    if thing.lower() in pronouns or re.match(r"(?:my|your|his|her|our|their)\b", thing, re.I):
        return
    negative = m.group(2) or m.group(3) or "n't" in m.group(0)
    kind = "dislikes" if negative else "hobby" if m.group(4) else "likes"
    yield kind, thing, m.start()


_HATE = (rf"(?:{PERFECT}\s+{DEGREE}(?:hate|hated|dislike|detest|loathe|despise|can'?t\s+stand|cannot\s+stand|"
         rf"can'?t\s+bear)|"
         rf"(?:\s+don'?t|\s+do\s+not|\s+never|\s+have\s+never|'ve\s+never)\s+{DEGREE}(?:like|liked|enjoy|"
         rf"enjoyed|care\s+for|cared\s+for))")  # fmt: skip
# "cant stand reality tv": the subject left out, an apostrophe too
_HATE_ELIDED = (rf"^\W*(?:honestly\s+|really\s+|just\s+)?(?:can'?t|cannot)\s+(?:stand|bear)|"
                rf"^\W*(?:honestly\s+)?(?:don'?t|do\s+not|never)\s+{DEGREE}(?:like|enjoy|care\s+for)")  # fmt: skip
_DISLIKE = (rf"(?:\bI{_HATE}|{_HATE_ELIDED})\s+{DEGREE}(?!to\b|it\b|that\b|when\b|how\b|you\b|him\b|her\b|"
            rf"them\b)(.+)")  # fmt: skip
_NOT_A_FAN = (r"(?:\bI'm\s+|\bI\s+am\s+|^\W*)(?:not|\bI(?:'ve|\s+have)\s+never\s+been)\s+(?:a\s+|"
              r"much\s+of\s+a\s+|really\s+a\s+|really\s+|very\s+|that\s+|too\s+)?"
              r"(?:(?:big|huge)\s+fan\s+of|fan\s+of|keen\s+on|fond\s+of|into)\s+(.+)")  # fmt: skip


def dislikes(s: str) -> Emit:
    """ "I can't stand cilantro", "I don't really like horror films", "not a big fan of jazz"."""
    for m in re.finditer(_DISLIKE, s, re.I):
        if _in_the_thing(s, m.start()):
            continue
        for item in items(m.group(1)):
            if not _not_a_thing(item):
                yield "dislikes", item, m.start()
    for m in re.finditer(_NOT_A_FAN, s, re.I):
        for item in items(m.group(1)):
            if not _not_a_thing(item):
                yield "dislikes", item, m.start()
