"""``plan``: an intention ("I'm planning to visit Japan"), or the present with a future time ("we fly to Rome on
Friday", "my surgery is on Friday").
"""

from __future__ import annotations

import re
from collections.abc import Generator

from shared.domain.extraction.rules.matching import Emit, Said, each, others_named
from shared.domain.extraction.rules.phrases import WE_ARE
from shared.domain.extraction.rules.times import FUTURE_TIME, HABIT, PAST_TIME
from shared.domain.extraction.rules.values import clause, clean
from shared.domain.extraction.rules.words import TALK, TALK_PLANNABLE

_TALK_OBJECT = re.compile(
    r"\w+\s+(?:you|u|ya|it|that|this|them|ahead|now|how|what|if|whether|with|through|over|by|"
    r"for|on|about|off|anyway)\b",
    re.I,
)


# The present for what is timetabled ("Tomorrow I start my new job", "we fly to Rome on Friday"), not a habit.
_TIMETABLED = re.compile(
    r"\b(?:I|we)\s+(start|begin|fly|leave|move|head|travel|graduate|retire|return|finish|"
    r"go\s+back|set\s+off|drive|sail|depart|arrive|get\s+married)\b(.+)",
    re.I,
)


_INTENT = (r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:planning|hoping|aiming|intending)\s+(?:on\s+|to\s+)|"
           r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:going\s+to|gonna)\s+|"
           r"\b(?:I|we)\s+(?:plan|want|hope|intend|aim|mean)\s+to\s+|\b(?:I|we)\s+wanna\s+|"
           r"\bmy\s+(?:goal|plan|dream|aim|resolution)(?:\s+for\s+(?:the\s+)?(?:next|this|the\s+coming)\s+\w+)?"
           r"\s+is\s+to\s+|"
           r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:finally\s+)?(?:decided|resolved|committed)\s+to\s+|"
           r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:determined|looking|preparing|getting\s+ready|about)\s+to\s+|"
           r"\b(?:I|we)(?:\s+will|'ll|’ll)\s+(?!be\s+(?:honest|brief|quick|back)\b)|"
           r"^\W*(?:gonna|planning\s+(?:to|on)|hoping\s+to|going\s+to)\s+")  # fmt: skip
# "I'm going to lose it", "I'll eat whatever's put in front of me": an idiom or a habit, no plan.
_IDIOM = (r"\w+(?:\s+(?:up|out|off|down))?\s+(?:it|that|this|whatever\S*|anything|everything)\s*(?:[,.!;]|$)|"
          r"\w+\s+(?:whatever|anything|everything)\b")  # fmt: skip


def plans(s: str) -> Emit:
    """ "I'm planning to visit Japan next month", "we're moving to Seattle in the spring"."""
    intended = yield from _intentions(s)
    if not intended:
        yield from _progressive(s)
        yield from _booked(s)
        yield from _planning_a(s)
        yield from _off_to(s)
    yield from _appointment(s)
    yield from _occasion(s)
    if not intended:
        yield from _booked_in(s)
        yield from _timetabled(s)
    yield from _chore(s)
    yield from _saving(s)


def _is_talk(phrase: str) -> bool:
    """ "I'm going to ask you something", "let me start by asking": talk about the conversation, not a plan."""
    first = phrase.split()[0].lower() if phrase.split() else ""
    talk = first in TALK and not (first == "be" and re.match(r"be\s+(?:in|at|on|\w+ing|\d+)\b", phrase))
    if talk and first in TALK_PLANNABLE and FUTURE_TIME.search(phrase) and not _TALK_OBJECT.match(phrase):
        talk = False
    if first == "start" and not re.match(
        r"start(?:\s+(?:by|with|off|again|over|from|here|there|now)\b|\W*$)", phrase, re.I
    ):
        talk = False  # "start a new job at Meta" is a plan; "start by asking" is talk
    return bool(talk)


def _intentions(s: str) -> Generator[Said, None, bool]:
    """ "I'm planning to …", "I've decided to …", "My plan for next year is to …"; whether any was said."""
    found = False
    for m in each(rf"(?:{_INTENT})(.+)", s):
        phrase = m.group(1)
        if _is_talk(phrase):
            continue
        if PAST_TIME.search(phrase) and not FUTURE_TIME.search(phrase):
            continue  # "I decided to quit my job last week" was a plan; the event rule has it
        if re.match(_IDIOM, clause(phrase), re.I):
            continue
        found = True
        yield "plan", _with_time(phrase, s[: m.start(1)]), m.start()
    return found


_PROGRESSIVE = (rf"\b(?:I'm|I\s+am|{WE_ARE})\s+(?!going\s+(?!on\b|away\b|abroad\b|home\b|back\b|out\b|\w+ing\b)|"
                rf"planning\b|hoping\b|thinking\b|living\b|looking\b|trying\b|feeling\b|"
                rf"doing\b(?!\s+(?:the|a|an|my|our)\s+(?!(?:lot|bit|little|much|good|great|fine|better|ok|okay|job|"
                rf"best)\b))|working\b|studying\b|"
                rf"taking\b(?!\s+(?:my|our|the|his|her)\s+(?:[\w-]+\s+){{0,2}}to\b))(\w+ing)\b")  # fmt: skip


def _progressive(s: str) -> Emit:
    """ "We're moving to Seattle in the spring": the present progressive with a future time."""
    for m in each(_PROGRESSIVE, s):
        phrase = s[m.start(1) :]
        # a time said before counts only in the same clause ("Broke my wrist in February so I'm typing …")
        before = re.split(r"\b(?:so|but|and|because|since)\b|;", s[: m.start()])[-1]
        if FUTURE_TIME.search(phrase) or FUTURE_TIME.search(before):
            yield "plan", _with_time(phrase, before), m.start()


_BOOKED = (r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|already\s+)?"
           r"(?:booked|scheduled|arranged|organi[sz]ed)\s+(.+)"
           r"|^\W*(?!(?:looking|thinking|wondering|hoping|trying|feeling|being|getting\s+back|loving|liking|"
           r"enjoying|hating|"
           r"working|doing|having|struggling|dealing|waiting)\b)([a-z]+ing\s+.+)")  # fmt: skip


def _booked(s: str) -> Emit:
    """ "I've booked a trip to Morocco for April", "Going to Japan in the autumn!" (the subject left out): a plan when
    a future time is said."""
    for m in each(_BOOKED, s):
        phrase = m.group(1) or m.group(2)
        when = FUTURE_TIME.search(phrase)
        if when and not re.match(r"this\s+(?!coming\b)", when.group(0), re.I):
            yield "plan", clean(phrase[: when.end()]), m.start()


def _planning_a(s: str) -> Emit:
    """ "I'm planning a trip to Vietnam"."""
    for m in each(
        r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:planning|organi[sz]ing|booking)\s+(?:a|an|our|my)\s+(.+)", s
    ):
        yield "plan", _with_time(m.group(1), s[: m.start()]), m.start()


def _off_to(s: str) -> Emit:
    """ "I'm off to Spain next week"."""
    for m in each(rf"\b(?:I'm|I\s+am|{WE_ARE})\s+(off\s+to\s+.+)", s):
        if FUTURE_TIME.search(m.group(1)) or FUTURE_TIME.search(s[: m.start()]):
            yield "plan", _with_time(re.sub(r"^off\s+to\s+", "go to ", m.group(1)), s[: m.start()]), m.start()


_APPOINTMENT = (r"\bI(?:\s+have|'ve\s+got|\s+have\s+got|\s+got)\s+(?:a|an)\s+((?:[\w-]+\s+){0,2}"
                r"(?:appointment|interview|exam|meeting|flight|surgery|operation|check-?up|wedding|"
                r"test)\b.*)")  # fmt: skip


def _appointment(s: str) -> Emit:
    """ "I've got a job interview on Thursday"."""
    for m in each(_APPOINTMENT, s):
        if FUTURE_TIME.search(m.group(1)) or FUTURE_TIME.search(s[: m.start()]):
            yield "plan", _with_time(m.group(1), s[: m.start()]), m.start()


_OCCASION = (r"(?:birthday|anniversary|wedding|surgery|operation|interview|exam|exams|flight|move|holiday|vacation|"
             r"trip|due\s+date|graduation|"
             r"appointment|honeymoon|party|procedure|scan|test|driving\s+test|court\s+date|race|marathon|"
             r"gig)")  # fmt: skip
_OCCASION_IS = (rf"(?:^\W*|(?<=,)\s*(?:and\s+)?|\band\s+)(?:(?:my|our|the)\s+)?((?:[\w-]+\s+)?{_OCCASION})"
                rf"(?:'s|\s+is|\s+are)\s+(?:(?:on|in|at)\s+)?(?=\S)")  # fmt: skip


def _occasion(s: str) -> Emit:
    """ "wedding's next june", "My surgery is on Friday": a booked occasion of the user's and its time."""
    for m in () if not re.search(_OCCASION, s, re.I) else each(_OCCASION_IS, s):
        # after a clause ("Engaged to Ana, and the wedding is next summer"): the user's, when no one else was named
        if m.start() and (
            not re.search(r"\b(?:I|I'm|we|we're|my|our)\b", s[: m.start()], re.I)
            or others_named(s[: m.start()])
        ):
            continue
        if when := FUTURE_TIME.match(
            s, m.end() - 3 if s[m.end() - 3 : m.end()].lower() in ("on ", "in ") else m.end()
        ):
            # a yearly day said with its date is that date ("My birthday is on March 3rd"), not a plan
            yearly = re.search(r"(?:birthday|anniversary)$", m.group(1), re.I)
            if not yearly or re.match(r"next|this|tomorrow|tonight|later|in\s", when.group(0), re.I):
                yield "plan", f"{m.group(1)} {when.group(0)}", m.start()


def _booked_in(s: str) -> Emit:
    """ "I'm booked in for laser eye surgery on the 22nd": what is booked, with its time."""
    if "booked" not in s.lower():
        return
    for m in each(
        r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:all\s+)?booked\s+(?:in\s+)?(?:for|on(?:to)?)\s+(.+)", s
    ):
        phrase = m.group(1)
        if FUTURE_TIME.search(phrase) or FUTURE_TIME.search(s[: m.start()]):
            yield "plan", _with_time(phrase, s[: m.start()]), m.start()


def _timetabled(s: str) -> Emit:
    """ "Tomorrow I start my new job": the present for what is timetabled, when the sentence says no habit."""
    if not FUTURE_TIME.search(s) or HABIT.search(s):
        return
    for m in _TIMETABLED.finditer(s):
        if not re.search(
            r"\b(?:will|'ll|to|can|can't|cannot|don't|do|did|didn't|must)\s*$", s[: m.start()], re.I
        ):
            yield "plan", _with_time(s[m.start(1) : m.end()], s[: m.start()]), m.start()


def _chore(s: str) -> Emit:
    """ "I need to renew my passport before March": a chore with a date is a plan."""
    for m in each(r"\bI\s+(?:need|have)\s+to\s+(.+)", s):
        if FUTURE_TIME.search(m.group(1)):
            yield "plan", clean(clause(m.group(1))), m.start()


_SAVING = (r"(?:\b(?:I'm|I\s+am|we're)\s+|(?:^\W*|\bbut\s+|\band\s+)(?:currently\s+|also\s+)?)"
           r"saving\s+(?:up\s+)?(?:for|to)\s+(.+)")  # fmt: skip


def _saving(s: str) -> Emit:
    """ "I'm saving for a deposit", "… but saving to buy somewhere outside London" (the subject left out)."""
    for m in () if "saving" not in s.lower() else each(_SAVING, s):
        yield "plan", clean(clause(m.group(1))), m.start()


def _with_time(phrase: str, before: str) -> str:
    """The plan's words, with a time said before it ("Next week I'm flying to…") put at the end."""
    value = clean(re.sub(r"\s+(?:for\s+sure|hopefully|definitely)$", "", clause(phrase)))
    value = re.sub(r"^(?:finally|actually|definitely|hopefully|probably)\s+", "", value, flags=re.I)
    when = FUTURE_TIME.search(before)
    return f"{value} {when.group(0).lower()}" if when else value
