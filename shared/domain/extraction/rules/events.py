"""``event``: a past statement with a date, "I broke my leg last winter", "Yesterday I adopted a puppy"."""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from shared.domain.extraction.rules.matching import Emit, each
from shared.domain.extraction.rules.phrases import same_subject, word_char
from shared.domain.extraction.rules.times import PAST_TIME
from shared.domain.extraction.rules.values import clause, clean
from shared.domain.extraction.rules.words import ACTIVE_VERBS, NOT_EVENTS

_PAST_VERB = re.compile(
    r"(?:got|ran|broke|bought|had|went|took|began|won|lost|met|left|made|turned|became|saw|flew|gave|sold|wrote|"
    r"quit|found|built|drove|fell|hurt|spent|sat|passed|did|paid|sold|told|kept|felt|heard|held|brought|caught|"
    r"taught|fought|swam|sang|drank|ate|wore|threw|grew|knew|forgot|hit|cut|put|won|came|moved|"
    r"\w{2,}ed)$", re.I)  # fmt: skip


_WAS = re.compile(r"\b(?:was|were)$", re.I)


_TOLD_YOU = re.compile(
    r"(?:told|asked|said|mentioned|showed|sent|gave|explained|wrote)\s+(?:you|u|to\s+you)\b", re.I
)


def _after_was(s: str, at: int) -> bool:
    """``s[:at]`` ends "was " or "were " ("I was married" is a state): read backwards from ``at``, not searched
    for from the sentence's start (that cost O(n) a match)."""
    space = at
    while space > 0 and s[space - 1].isspace():
        space -= 1
    return space < at and bool(_WAS.search(s, max(0, space - 4), space))


def _past_time_before(s: str, end: int) -> re.Match[str] | None:
    """``PAST_TIME.search(s[:end])`` for ``end`` the start of "I", "we" or "and" (no part of a time), without
    scanning the sentence's head again for every match: the first time in the whole sentence is the first in its
    head when it ends by ``end``, and none starting at or after ``end`` is. A time ``end`` cuts, or a word cut in
    two, is searched for exactly."""
    times, _ = _past_times(s)
    first = times[0] if times else None
    cut_word = 0 < end < len(s) and word_char(s[end - 1]) and word_char(s[end])
    if first is None or first.start() >= end:
        return PAST_TIME.search(s, 0, end) if cut_word else None
    if first.end() <= end and not cut_word:
        return first
    return PAST_TIME.search(s, 0, end)


def _past_time_from(s: str, start: int) -> re.Match[str] | None:
    """``PAST_TIME.search(s, start)``, from the sentence's times found once: the first that starts at or after
    ``start``, unless one found runs across ``start`` (another may start inside it: searched for exactly)."""
    times, ends = _past_times(s)
    at = bisect.bisect_right(ends, start)  # the first time ending after ``start``
    if at == len(times):
        return None
    if times[at].start() < start:
        return PAST_TIME.search(s, start)
    return times[at]


@lru_cache(maxsize=32)
def _past_times(s: str) -> tuple[tuple[re.Match[str], ...], tuple[int, ...]]:
    """The sentence's times (``PAST_TIME``, left to right), and where each ends."""
    times = tuple(PAST_TIME.finditer(s))
    return times, tuple(t.end() for t in times)


def event(s: str) -> Emit:
    """A past statement with a date: "I broke my leg last winter", "Yesterday I adopted a puppy"."""
    subject = r"\b(?:I|we)\s+(?:(?:just|finally|recently|also|officially|actually)\s+)?(?:was\s+|were\s+)?"
    # "… and had my first kid in 2017" (the same subject), "Just got back from Japan yesterday" (none said)
    elided = r"\band\s+(?:then\s+|later\s+|also\s+)?(?!(?:I|we)\b)|^\W*(?:just\s+|finally\s+|recently\s+)?"
    for m in each(rf"(?:{subject}|{elided})(\w+)\b", s):
        said = m.group(0).lower().lstrip(" \t\"'(")
        if said.startswith("and") and not same_subject(s, m.start()):
            continue
        verb = m.group(1)
        # "I retired in 2020" and "we married in June" are events; "I was retired" and "I was married" are states.
        active = verb.lower() in ACTIVE_VERBS and not _after_was(s, m.start(1))
        if (verb.lower() in NOT_EVENTS and not active) or not _PAST_VERB.match(verb):
            continue
        if _TOLD_YOU.match(s, m.start(1)):
            continue  # "I told you that yesterday": talk about the conversation
        when = _past_time_from(s, m.start(1))
        if when:
            yield "event", clean(s[m.start(1) : when.end()]), m.start()
            continue
        when = _past_time_before(s, m.start())
        if when and not said.startswith(
            "and"
        ):  # "… in 2020 and started working at Intel": that time was the first's
            yield "event", f"{clean(clause(s[m.start(1) :]))} {when.group(0).lower()}", m.start()
