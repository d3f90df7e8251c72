"""Every fact a text states: each sentence that states something, through every rule in order."""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared.domain.extraction.rules.copula import both, copula
from shared.domain.extraction.rules.dates import dates
from shared.domain.extraction.rules.diet import avoids, diet
from shared.domain.extraction.rules.events import event
from shared.domain.extraction.rules.family import family
from shared.domain.extraction.rules.health import health
from shared.domain.extraction.rules.hobby import hobby
from shared.domain.extraction.rules.likes import dislikes, likes
from shared.domain.extraction.rules.matching import Rule
from shared.domain.extraction.rules.names import greeting, name
from shared.domain.extraction.rules.normalise import normalise
from shared.domain.extraction.rules.places import places
from shared.domain.extraction.rules.plans import plans
from shared.domain.extraction.rules.sentences import (
    ASKED_AFTER,
    SYMBOLS_AFTER,
    before_hedge,
    readable,
    sentences,
    states_nothing,
)
from shared.domain.extraction.rules.work import work


@dataclass(frozen=True)
class Fact:
    predicate: str
    value: str
    start: int  # offset of the statement in the text as read (``readable``), for ordering


# Every sentence goes through every rule in this order; when two rules say the same (predicate, value), the
# first wins.
RULES: tuple[Rule, ...] = (
    name,
    copula,
    both,
    likes,
    diet,
    dislikes,
    avoids,
    hobby,
    health,
    work,
    family,
    places,
    dates,
    event,
    plans,
)


def facts_in(text: str) -> list[Fact]:
    """Every fact about the user ``text`` states, in the order stated, each (predicate, value) once."""
    found: dict[tuple[str, str], Fact] = {}
    text = readable(text)  # bounded: whitespace runs collapsed, the head only (offsets are into this)
    for sentence in sentences(text):
        body = normalise(sentence.group(0).replace("’", "'"))  # a phone's apostrophe too
        # "I'm gonna paint the spare room, any tips?": the statement before the question is read
        if states_nothing(body) and (asked := ASKED_AFTER.search(body)):
            body = body[: asked.start()]
        # "I love hiking but my knees might not cope": the statement before the hedging clause is read
        if states_nothing(body) and not (body := before_hedge(body)):
            continue
        if states_nothing(body):
            continue
        for fn in RULES:
            for predicate, value, at in fn(body):
                value = SYMBOLS_AFTER.sub("", value).strip(" ,.;:'\"")  # "go to Tenerife on Saturday ☀️"
                key = (predicate, re.sub(r"\W+", " ", value.lower()).strip())
                if value and key not in found:
                    found[key] = Fact(predicate, value, sentence.start() + at)
    greeted = greeting(text)
    if greeted and ("name", greeted.group(1).lower()) not in found:
        found[("name", greeted.group(1).lower())] = Fact("name", greeted.group(1), greeted.start())
    return sorted(found.values(), key=lambda f: f.start)
