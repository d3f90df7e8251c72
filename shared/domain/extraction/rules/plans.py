"""``plan``: an intention ("I'm planning to visit Japan"), or the present with a future time ("we fly to Rome on
Friday", "my surgery is on Friday").
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each, others_named
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


def plans(s: str) -> Emit:
    intent = (r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:planning|hoping|aiming|intending)\s+(?:on\s+|to\s+)|"
              r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:going\s+to|gonna)\s+|"
              r"\b(?:I|we)\s+(?:plan|want|hope|intend|aim|mean)\s+to\s+|\b(?:I|we)\s+wanna\s+|\bmy\s+(?:goal|plan|dream|aim|resolution)(?:\s+for\s+(?:the\s+)?(?:next|this|the\s+coming)\s+\w+)?\s+is\s+to\s+|"
              r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:finally\s+)?(?:decided|resolved|committed)\s+to\s+|"
              r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:determined|looking|preparing|getting\s+ready|about)\s+to\s+|"
              r"\b(?:I|we)(?:\s+will|'ll|’ll)\s+(?!be\s+(?:honest|brief|quick|back)\b)|"
              r"^\W*(?:gonna|planning\s+(?:to|on)|hoping\s+to|going\s+to)\s+")  # fmt: skip
    found = False
    for m in each(rf"(?:{intent})(.+)", s):
        phrase = m.group(1)
        first = phrase.split()[0].lower() if phrase.split() else ""
        talk = first in TALK and not (first == "be" and re.match(r"be\s+(?:in|at|on|\w+ing|\d+)\b", phrase))
        if talk and first in TALK_PLANNABLE and FUTURE_TIME.search(phrase) and not _TALK_OBJECT.match(phrase):
            talk = False
        if first == "start" and not re.match(
            r"start(?:\s+(?:by|with|off|again|over|from|here|there|now)\b|\W*$)", phrase, re.I
        ):
            talk = False  # "start a new job at Meta" is a plan; "start by asking" is talk
        if talk:
            continue
        if PAST_TIME.search(phrase) and not FUTURE_TIME.search(phrase):
            continue  # "I decided to quit my job last week" was a plan; the event rule has it
        if re.match(
            r"\w+(?:\s+(?:up|out|off|down))?\s+(?:it|that|this|whatever\S*|anything|everything)\s*(?:[,.!;]|$)|"
            r"\w+\s+(?:whatever|anything|everything)\b",
            clause(phrase),
            re.I,
        ):
            continue  # "I'm going to lose it", "I'll eat whatever's put in front of me": an idiom or a habit, no plan
        found = True
        yield "plan", _with_time(phrase, s[: m.start(1)]), m.start()  # "My plan for next year is to …"
    for m in each(rf"\b(?:I'm|I\s+am|{WE_ARE})\s+(?!going\s+(?!on\b|away\b|abroad\b|home\b|back\b|out\b|\w+ing\b)|planning\b|hoping\b|thinking\b|living\b|looking\b|trying\b|feeling\b|doing\b(?!\s+(?:the|a|an|my|our)\s+(?!(?:lot|bit|little|much|good|great|fine|better|ok|okay|job|best)\b))|working\b|studying\b|taking\b(?!\s+(?:my|our|the|his|her)\s+(?:[\w-]+\s+){{0,2}}to\b))(\w+ing)\b", s):  # fmt: skip
        phrase = s[m.start(1) :]
        # a time said before counts only in the same clause ("Broke my wrist in February so I'm typing …")
        before = re.split(r"\b(?:so|but|and|because|since)\b|;", s[: m.start()])[-1]
        if not found and (FUTURE_TIME.search(phrase) or FUTURE_TIME.search(before)):
            yield "plan", _with_time(phrase, before), m.start()
    # "I've booked a trip to Morocco for April", "Going to Japan in the autumn!" (the subject left out): a plan when
    # a future time is said.
    for m in each(r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|already\s+)?(?:booked|scheduled|arranged|organi[sz]ed)\s+(.+)"
                   r"|^\W*(?!(?:looking|thinking|wondering|hoping|trying|feeling|being|getting\s+back|loving|liking|enjoying|hating|"
                   r"working|doing|having|struggling|dealing|waiting)\b)([a-z]+ing\s+.+)", s):  # fmt: skip
        phrase = m.group(1) or m.group(2)
        when = FUTURE_TIME.search(phrase)
        if not found and when and not re.match(r"this\s+(?!coming\b)", when.group(0), re.I):
            yield "plan", clean(phrase[: when.end()]), m.start()
    for m in each(
        r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:planning|organi[sz]ing|booking)\s+(?:a|an|our|my)\s+(.+)", s
    ):
        if not found:  # "I'm planning a trip to Vietnam"
            yield "plan", _with_time(m.group(1), s[: m.start()]), m.start()
    for m in each(rf"\b(?:I'm|I\s+am|{WE_ARE})\s+(off\s+to\s+.+)", s):  # "I'm off to Spain next week"
        if not found and (FUTURE_TIME.search(m.group(1)) or FUTURE_TIME.search(s[: m.start()])):
            yield "plan", _with_time(re.sub(r"^off\s+to\s+", "go to ", m.group(1)), s[: m.start()]), m.start()
    for m in each(r"\bI(?:\s+have|'ve\s+got|\s+have\s+got|\s+got)\s+(?:a|an)\s+((?:[\w-]+\s+){0,2}(?:appointment|interview|exam|meeting|flight|surgery|operation|check-?up|wedding|test)\b.*)", s):  # fmt: skip
        if FUTURE_TIME.search(m.group(1)) or FUTURE_TIME.search(s[: m.start()]):
            yield "plan", _with_time(m.group(1), s[: m.start()]), m.start()
    # "wedding's next june", "My surgery is on Friday": a booked occasion of the user's and its time
    occasion = (r"(?:birthday|anniversary|wedding|surgery|operation|interview|exam|exams|flight|move|holiday|vacation|trip|due\s+date|graduation|"
                r"appointment|honeymoon|party|procedure|scan|test|driving\s+test|court\s+date|race|marathon|gig)")  # fmt: skip
    for m in (
        ()
        if not re.search(occasion, s, re.I)
        else each(
            rf"(?:^\W*|(?<=,)\s*(?:and\s+)?|\band\s+)(?:(?:my|our|the)\s+)?((?:[\w-]+\s+)?{occasion})(?:'s|\s+is|\s+are)\s+(?:(?:on|in|at)\s+)?(?=\S)",
            s,
        )
    ):
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
    # "I'm booked in for laser eye surgery on the 22nd": what is booked, with its time
    for m in (
        ()
        if "booked" not in s.lower()
        else each(
            r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:all\s+)?booked\s+(?:in\s+)?(?:for|on(?:to)?)\s+(.+)", s
        )
    ):
        phrase = m.group(1)
        if not found and (FUTURE_TIME.search(phrase) or FUTURE_TIME.search(s[: m.start()])):
            yield "plan", _with_time(phrase, s[: m.start()]), m.start()
    if not found and FUTURE_TIME.search(s) and not HABIT.search(s):
        for m in _TIMETABLED.finditer(s):
            if not re.search(
                r"\b(?:will|'ll|to|can|can't|cannot|don't|do|did|didn't|must)\s*$", s[: m.start()], re.I
            ):
                yield "plan", _with_time(s[m.start(1) : m.end()], s[: m.start()]), m.start()
    for m in each(r"\bI\s+(?:need|have)\s+to\s+(.+)", s):  # a chore with a date is a plan
        if FUTURE_TIME.search(m.group(1)):
            yield "plan", clean(clause(m.group(1))), m.start()
    # "I'm saving for a deposit", "… but saving to buy somewhere outside London" (the subject left out)
    for m in (
        ()
        if "saving" not in s.lower()
        else each(
            r"(?:\b(?:I'm|I\s+am|we're)\s+|(?:^\W*|\bbut\s+|\band\s+)(?:currently\s+|also\s+)?)saving\s+(?:up\s+)?(?:for|to)\s+(.+)",
            s,
        )
    ):
        yield "plan", clean(clause(m.group(1))), m.start()


def _with_time(phrase: str, before: str) -> str:
    """The plan's words, with a time said before it ("Next week I'm flying to…") put at the end."""
    value = clean(re.sub(r"\s+(?:for\s+sure|hopefully|definitely)$", "", clause(phrase)))
    value = re.sub(r"^(?:finally|actually|definitely|hopefully|probably)\s+", "", value, flags=re.I)
    when = FUTURE_TIME.search(before)
    return f"{value} {when.group(0).lower()}" if when else value
