"""``job_title``, ``employer``, ``former_employer``, ``school`` and ``studies``: "I work as a nurse", "I work at
Stripe", "I left Deloitte", "I'm studying biology at UCLA", and what a job title is.
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, Rule, each, others_named
from shared.domain.extraction.rules.phrases import CALLED, PROPER
from shared.domain.extraction.rules.times import FUTURE_TIME, HOW_MANY, MONTH
from shared.domain.extraction.rules.values import clause, clean, items
from shared.domain.extraction.rules.words import JOB_HEADS, NOT_FIELDS, NOT_SUBJECTS

_JOB_SUFFIX = re.compile(r"(?:ologist|ician|ographer)$")


def job_title(words: str) -> str | None:
    """The job in a phrase: "software engineer at Stripe" -> "software engineer"; None if there is none.

    >>> job_title("senior data engineer at Acme"), job_title("huge fan of jazz"), job_title("bit tired today")
    ('senior data engineer', None, None)
    """
    tokens = clause(words).split()
    head = None
    for i, token in enumerate(tokens):
        word = token.lower().strip(",.")
        if word in ("at", "in", "for", "with", "and", "of", "from", "on", "studying", "who", "working", "by"):
            break
        # "-ist" is a job only where one works: "a phlebotomist at the Royal Infirmary" (not "a realist at heart")
        works_at = re.fullmatch(r"[a-z]{5,}ist", word) and re.match(
            r"(?:at|for|with)\s+(?:the\s+)?(?-i:[A-Z])", " ".join(tokens[i + 1 : i + 4])
        )
        if word in JOB_HEADS or (_JOB_SUFFIX.search(word) and len(word) > 6) or works_at:
            head = i
    if head is None or head > 3:
        return None
    return " ".join(tokens[: head + 1]).strip(",.")


def work(s: str) -> Emit:
    """The user's job, employer, former employers, schools and studies, each read by one of ``_STEPS`` in turn."""
    for step in _STEPS:
        yield from step(s)


_SHIFTS = (r"(?:\s+(?:nights|days|evenings|weekends|shifts|nights\s+and\s+weekends|part[-\s]time|full[-\s]time|"
           r"freelance|remotely))?")  # fmt: skip


def _works_as(s: str) -> Emit:
    """ "I work nights as a nurse", "I teach maths" (a maths teacher), "I've been a lawyer for ten years"."""
    for m in each(rf"\b(?:I|we)(?:\s+work|\s+am\s+working|'m\s+working){_SHIFTS}\s+as\s+(?:an?\s+)?(.+)", s):
        if job := job_title(m.group(1)) or clause(m.group(1)).strip():
            yield "job_title", clean(job), m.start()
    for m in each(r"\bI\s+teach\s+([a-z]+)", s):
        subject = m.group(1).lower()
        plain = subject in NOT_SUBJECTS
        yield "job_title", "teacher" if plain else f"{subject} teacher", m.start()
    for m in each(r"\bI(?:'ve|’ve|\s+have)\s+been\s+an?\s+(.+)", s):
        if been := job_title(m.group(1)):
            yield "job_title", been, m.start()


_DEGREE = r"(?:master'?s|masters|bachelor'?s|degree|phd|doctorate|mba|msc|bsc|ba|ma)(?:\s+degree)?"
_APPLYING = r"\b(?:apply(?:ing)?|applied|application)\s+(?:for|to)\s+(?:a|an|my|the)\s+$"


def _degree_in(s: str) -> Emit:
    """ "a master's in data science at Leeds"; "I'm applying for a master's in …" is not studying it yet (the plan
    rule has it)."""
    for m in each(
        rf"\b{_DEGREE}\s+in\s+([a-z][\w -]*?)(?:\s+at\s+{PROPER})?\s*(?:[,.;!]|$|\band\b|\bat\b)", s
    ):
        if re.search(_APPLYING, s[: m.start()], re.I):
            continue
        yield "studies", m.group(1), m.start()
        if m.group(2):
            yield "school", m.group(2), m.start()


_FIELD_DEGREE = (rf"\b(?:my|a|an)\s+((?:[a-z]+\s+){{1,2}}?)(?:degree|phd|masters|master's|diploma|"
                 rf"apprenticeship)\b(?:\s+at\s+{PROPER})?")  # fmt: skip
_NOT_YET = (r"\b(?:apply(?:ing)?|applied|application|want|wanted|hoping|hope|thinking|decided|going|gonna|"
            r"plan\w*|will|'ll)\b")  # fmt: skip


def _degree_field(s: str) -> Emit:
    """ "Final year of my law degree at Durham": the field before the degree, and where."""
    for m in (
        () if not re.search(r"degree|phd|master|diploma|apprenticeship", s, re.I) else each(_FIELD_DEGREE, s)
    ):
        field = m.group(1).strip()
        if (
            field.split()[0].lower() in NOT_FIELDS
            or others_named(s[: m.start()])
            or re.search(_NOT_YET, s[: m.start()], re.I)
            or FUTURE_TIME.search(s)
        ):
            continue
        yield "studies", field, m.start()
        if m.group(2):
            yield "school", m.group(2).rstrip(",."), m.start()


def _degree_at(s: str) -> Emit:
    """ "I'm doing my PhD at Edinburgh"."""
    for m in each(rf"\b(?:my|a|an)\s+{_DEGREE}\s+at\s+{PROPER}", s):
        yield "school", m.group(1).rstrip(",."), m.start()


def _my_job_is(s: str) -> Emit:
    """ "My job title is Senior Analyst"."""
    for m in each(r"\bmy\s+(?:job|job\s+title|role|title|position|occupation)\s+is\s+(?:an?\s+)?(.+)", s):
        if value := clean(clause(m.group(1))):
            yield "job_title", value, m.start()


def _as_a(s: str) -> Emit:
    """ "promoted to team lead", "hired as a data analyst at Monzo" (where, too); "Been at Accenture six years,
    mostly as a consultant" (the subject left out)."""
    for m in each(r"\b(?:as|promoted\s+to)\s+(?:an?\s+|the\s+)?([\w-]+(?:\s+[\w-]+){0,3})", s):
        promoted = job_title(m.group(1))
        if promoted and re.search(r"\b(?:I|I'm|we)\b|^\W*(?:been|working|worked)\b", s[: m.start()], re.I):
            yield "job_title", promoted, m.start()
            at = re.match(
                rf"\s*(?:an?\s+|the\s+)?{re.escape(promoted)}\s+(?:at|for|with)\s+{CALLED}{PROPER}",
                s[m.end() - len(m.group(1)) - 3 :],
                re.I,
            )
            if at and not job_title(at.group(1)):
                yield "employer", at.group(1).rstrip(",."), m.start()


_EMPLOYED = (r"\bI(?:\s+work|\s+am\s+working|'m\s+working|\s+currently\s+work)(?:\s+(?:remotely|from\s+home|"
             r"full[-\s]time|part[-\s]time))?\s+(?:at|for)|\bI'm\s+employed\s+(?:at|by)|"
             r"\bI\s+am\s+employed\s+(?:at|by)|\bI\s+(?:just\s+|recently\s+)?joined|"
             r"\bI\s+(?:just\s+|recently\s+)?(?:started|got|landed|have|"
             r"took)\s+(?:a\s+)?(?:new\s+)?job\s+(?:at|with)|"
             r"\bI\s+(?:just\s+|recently\s+)?started\s+(?:working\s+)?(?:at|for)|\band\s+(?:started\s+working|"
             r"work)\s+(?:at|for)|"
             r"\bI\s+work\s+in\s+[\w -]{1,30}?\s+(?:at|for)")  # fmt: skip
_WORKED_FOR = (
    rf"\bI(?:'ve|’ve|\s+have)\s+(?:been\s+)?work(?:ed|ing)\s+(?:at|for)\s+{PROPER}(?=\s+(?:for|since)\b)"
)
_TENURE = (rf"(?=\s+(?:now\s+)?(?:for\s+)?(?:about\s+|almost\s+|nearly\s+|over\s+|around\s+|"
           rf"just\s+over\s+)?{HOW_MANY}\s+"
           rf"(?:years?|months?)\b|\s+since\s+(?:\d{{4}}|{MONTH}|last\s+year|uni|university|college|"
           rf"graduating)\b)")  # fmt: skip


def _employer(s: str) -> Emit:
    """ "I work at Stripe", "I just joined Monzo", "I've worked for the NHS since 2010"; "Been at Accenture about six
    years now": where the user has been for years is where they work."""
    for m in each(rf"(?:{_EMPLOYED})\s+{CALLED}{PROPER}", s):
        yield "employer", m.group(1).rstrip(",."), m.start()
    for m in each(_WORKED_FOR, s):
        yield "employer", m.group(1).rstrip(",."), m.start()
    for m in each(
        rf"(?:\bI(?:'ve|\s+have)\s+been|^\W*been)\s+(?:working\s+)?(?:at|with)\s+{PROPER}{_TENURE}", s
    ):
        yield "employer", m.group(1).rstrip(",."), m.start()


_RETIRED = (r"\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|officially\s+)?retired\b(?!\s+(?:my|the|"
            r"a|an|it|that|this|his|her)\b)")  # fmt: skip


def _retired(s: str) -> Emit:
    """ "I retired in 2020"."""
    for m in each(_RETIRED, s):
        yield "job_title", "retired", m.start()


def _hired(s: str) -> Emit:
    """ "I just got hired at a startup called Kite"."""
    for m in each(
        rf"\bI\s+(?:just\s+|recently\s+|finally\s+)?(?:got|was)\s+hired\s+(?:at|by)\s+{CALLED}{PROPER}", s
    ):
        yield "employer", m.group(1).rstrip(",."), m.start()


def _owner(s: str) -> Emit:
    """ "I run my own bakery"."""
    for m in each(r"\bI\s+(?:run|own)\s+(?:my\s+own|a|an)\s+(?:small\s+)?([a-z][\w-]*)", s):
        if m.group(1).lower() not in ("business", "company", "car", "house", "home", "dog", "cat", "bike"):
            yield "job_title", f"{m.group(1).lower()} owner", m.start()


_FORMER = (r"\bI\s+(?:used\s+to\s+work|no\s+longer\s+work|worked|don't\s+work|do\s+not\s+work)\s+(?:at|for)|"
           r"\bI\s+(?:left|quit)(?:\s+my\s+job\s+at)?|\bI\s+(?:got|was)\s+(?:laid\s+off|fired|let\s+go|"
           r"made\s+redundant)\s+(?:from|by)|"
           r"\bI\s+resigned\s+from"
           # "Quit Barclays last spring": the subject left out
           r"|^\W*(?:just\s+|finally\s+|recently\s+)?(?:quit(?:\s+my\s+job\s+at)?|left\s+my\s+job\s+at)")  # fmt: skip


def _former(s: str) -> Emit:
    """ "I no longer work at Deloitte", "I got laid off from Meta"; "I don't work at X" only with "anymore"."""
    for m in re.finditer(rf"(?:{_FORMER})\s+{PROPER}", s, re.I):
        negated = "don't" in m.group(0).lower() or "do not" in m.group(0).lower()
        if negated and not re.search(r"\b(?:anymore|any\s+more|no\s+more)\b", s[m.end() :], re.I):
            continue
        yield "former_employer", m.group(1).rstrip(",."), m.start()


_STUDYING = (r"\b(?:I\s+(?:study|am\s+studying|'m\s+studying|major\s+in|'m\s+majoring\s+in)|"
             r"studying)\s+(?!at\b|for\b|hard\b|every\b|a\s+lot\b)([a-z][\w ]*)")  # fmt: skip


def _studying(s: str) -> Emit:
    """ "I graduated from MIT", "I'm studying computer science at Stanford"."""
    for m in each(
        rf"\b(?:graduated\s+from|student\s+at|I\s+study\s+at|I\s+go\s+to\s+school\s+at)\s+{PROPER}", s
    ):
        yield "school", m.group(1).rstrip(",."), m.start()
    for m in each(_STUDYING, s):
        if studied := items(m.group(1)):
            yield "studies", studied[0], m.start()
            # where, read from the sentence: the value stopped at "King's College London"'s apostrophe
            if school := re.match(
                rf"\s*{re.escape(studied[0])}\s+at\s+{CALLED}{PROPER}", s[m.start(1) :], re.I
            ):
                yield "school", school.group(1).rstrip(",."), m.start()


# In this order: the first to say a (predicate, value) keeps its offset.
_STEPS: tuple[Rule, ...] = (
    _works_as, _degree_in, _degree_field, _degree_at, _my_job_is, _as_a, _employer, _retired, _hired, _owner,
    _former, _studying,
)  # fmt: skip
