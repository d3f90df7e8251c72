"""``event``: a past statement with a date, "I broke my leg last winter", "Yesterday I adopted a puppy"."""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each
from shared.domain.extraction.rules.phrases import SAME_SUBJECT
from shared.domain.extraction.rules.times import PAST_TIME
from shared.domain.extraction.rules.values import clause, clean
from shared.domain.extraction.rules.words import ACTIVE_VERBS, NOT_EVENTS

_PAST_VERB = re.compile(
    r"(?:got|ran|broke|bought|had|went|took|began|won|lost|met|left|made|turned|became|saw|flew|gave|sold|wrote|"
    r"quit|found|built|drove|fell|hurt|spent|sat|passed|did|paid|sold|told|kept|felt|heard|held|brought|caught|"
    r"taught|fought|swam|sang|drank|ate|wore|threw|grew|knew|forgot|hit|cut|put|won|came|moved|"
    r"\w{2,}ed)$", re.I)  # fmt: skip


def event(s: str) -> Emit:
    """A past statement with a date: "I broke my leg last winter", "Yesterday I adopted a puppy"."""
    subject = r"\b(?:I|we)\s+(?:(?:just|finally|recently|also|officially|actually)\s+)?(?:was\s+|were\s+)?"
    # "… and had my first kid in 2017" (the same subject), "Just got back from Japan yesterday" (none said)
    elided = r"\band\s+(?:then\s+|later\s+|also\s+)?(?!(?:I|we)\b)|^\W*(?:just\s+|finally\s+|recently\s+)?"
    for m in each(rf"(?:{subject}|{elided})(\w+)\b", s):
        said = m.group(0).lower().lstrip(" \t\"'(")
        if said.startswith("and") and not re.match(SAME_SUBJECT + r"$", s[: m.start()], re.I):
            continue
        verb = m.group(1)
        # "I retired in 2020" and "we married in June" are events; "I was retired" and "I was married" are states.
        active = verb.lower() in ACTIVE_VERBS and not re.search(r"\b(?:was|were)\s+$", s[: m.start(1)], re.I)
        if (verb.lower() in NOT_EVENTS and not active) or not _PAST_VERB.match(verb):
            continue
        phrase = s[m.start(1) :]
        if re.match(
            r"(?:told|asked|said|mentioned|showed|sent|gave|explained|wrote)\s+(?:you|u|to\s+you)\b",
            phrase,
            re.I,
        ):
            continue  # "I told you that yesterday": talk about the conversation
        when = PAST_TIME.search(phrase)
        if when:
            yield "event", clean(phrase[: when.end()]), m.start()
            continue
        when = PAST_TIME.search(s[: m.start()])
        if when and not said.startswith(
            "and"
        ):  # "… in 2020 and started working at Intel": that time was the first's
            yield "event", f"{clean(clause(phrase))} {when.group(0).lower()}", m.start()
