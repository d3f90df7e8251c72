"""``job_title``, ``employer``, ``former_employer``, ``school`` and ``studies``: "I work as a nurse", "I work at
Stripe", "I left Deloitte", "I'm studying biology at UCLA", and what a job title is.
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each, others_named
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
    shifts = r"(?:\s+(?:nights|days|evenings|weekends|shifts|nights\s+and\s+weekends|part[-\s]time|full[-\s]time|freelance|remotely))?"
    for m in each(rf"\b(?:I|we)(?:\s+work|\s+am\s+working|'m\s+working){shifts}\s+as\s+(?:an?\s+)?(.+)", s):
        if job := job_title(m.group(1)) or clause(m.group(1)).strip():
            yield "job_title", clean(job), m.start()
    for m in each(r"\bI\s+teach\s+([a-z]+)", s):  # "I teach maths" is a maths teacher
        subject = m.group(1).lower()
        plain = subject in NOT_SUBJECTS
        yield "job_title", "teacher" if plain else f"{subject} teacher", m.start()
    for m in each(r"\bI(?:'ve|’ve|\s+have)\s+been\s+an?\s+(.+)", s):  # "I've been a lawyer for ten years"
        if been := job_title(m.group(1)):
            yield "job_title", been, m.start()
    degree = r"(?:master'?s|masters|bachelor'?s|degree|phd|doctorate|mba|msc|bsc|ba|ma)(?:\s+degree)?"
    for m in each(rf"\b{degree}\s+in\s+([a-z][\w -]*?)(?:\s+at\s+{PROPER})?\s*(?:[,.;!]|$|\band\b|\bat\b)", s):  # fmt: skip
        if re.search(
            r"\b(?:apply(?:ing)?|applied|application)\s+(?:for|to)\s+(?:a|an|my|the)\s+$",
            s[: m.start()],
            re.I,
        ):
            continue  # "I'm applying for a master's in data science": not studying it yet (the plan rule has it)
        yield "studies", m.group(1), m.start()
        if m.group(2):
            yield "school", m.group(2), m.start()
    # "Final year of my law degree at Durham": the field before the degree, and where
    for m in () if not re.search(r"degree|phd|master|diploma|apprenticeship", s, re.I) else each(rf"\b(?:my|a|an)\s+((?:[a-z]+\s+){{1,2}}?)(?:degree|phd|masters|master's|diploma|apprenticeship)\b(?:\s+at\s+{PROPER})?", s):  # fmt: skip
        field = m.group(1).strip()
        if (
            field.split()[0].lower() in NOT_FIELDS
            or others_named(s[: m.start()])
            or re.search(
                r"\b(?:apply(?:ing)?|applied|application|want|wanted|hoping|hope|thinking|decided|going|gonna|plan\w*|will|'ll)\b",
                s[: m.start()],
                re.I,
            )
            or FUTURE_TIME.search(s)
        ):
            continue
        yield "studies", field, m.start()
        if m.group(2):
            yield "school", m.group(2).rstrip(",."), m.start()
    for m in each(rf"\b(?:my|a|an)\s+{degree}\s+at\s+{PROPER}", s):  # "I'm doing my PhD at Edinburgh"
        yield "school", m.group(1).rstrip(",."), m.start()
    for m in each(r"\bmy\s+(?:job|job\s+title|role|title|position|occupation)\s+is\s+(?:an?\s+)?(.+)", s):
        if value := clean(clause(m.group(1))):
            yield "job_title", value, m.start()
    for m in each(r"\b(?:as|promoted\s+to)\s+(?:an?\s+|the\s+)?([\w-]+(?:\s+[\w-]+){0,3})", s):
        promoted = job_title(m.group(1))
        # "Been at Accenture six years, mostly as a consultant": the subject left out
        if promoted and re.search(r"\b(?:I|I'm|we)\b|^\W*(?:been|working|worked)\b", s[: m.start()], re.I):
            yield "job_title", promoted, m.start()
            # "hired as a data analyst at Monzo": where, too
            at = re.match(rf"\s*(?:an?\s+|the\s+)?{re.escape(promoted)}\s+(?:at|for|with)\s+{CALLED}{PROPER}", s[m.end() - len(m.group(1)) - 3 :], re.I)  # fmt: skip
            if at and not job_title(at.group(1)):
                yield "employer", at.group(1).rstrip(",."), m.start()
    employed = (r"\bI(?:\s+work|\s+am\s+working|'m\s+working|\s+currently\s+work)(?:\s+(?:remotely|from\s+home|full[-\s]time|part[-\s]time))?\s+(?:at|for)|\bI'm\s+employed\s+(?:at|by)|"
                r"\bI\s+am\s+employed\s+(?:at|by)|\bI\s+(?:just\s+|recently\s+)?joined|"
                r"\bI\s+(?:just\s+|recently\s+)?(?:started|got|landed|have|took)\s+(?:a\s+)?(?:new\s+)?job\s+(?:at|with)|"
                r"\bI\s+(?:just\s+|recently\s+)?started\s+(?:working\s+)?(?:at|for)|\band\s+(?:started\s+working|work)\s+(?:at|for)|"
                r"\bI\s+work\s+in\s+[\w -]{1,30}?\s+(?:at|for)")  # fmt: skip
    for m in each(rf"(?:{employed})\s+{CALLED}{PROPER}", s):
        yield "employer", m.group(1).rstrip(",."), m.start()
    former = (r"\bI\s+(?:used\s+to\s+work|no\s+longer\s+work|worked|don't\s+work|do\s+not\s+work)\s+(?:at|for)|"
              r"\bI\s+(?:left|quit)(?:\s+my\s+job\s+at)?|\bI\s+(?:got|was)\s+(?:laid\s+off|fired|let\s+go|made\s+redundant)\s+(?:from|by)|"
              r"\bI\s+resigned\s+from")  # fmt: skip
    for m in each(rf"\bI(?:'ve|’ve|\s+have)\s+(?:been\s+)?work(?:ed|ing)\s+(?:at|for)\s+{PROPER}(?=\s+(?:for|since)\b)", s):  # fmt: skip
        yield "employer", m.group(1).rstrip(",."), m.start()
    # "Been at Accenture about six years now": where the user has been for years is where they work.
    tenure = (rf"(?=\s+(?:now\s+)?(?:for\s+)?(?:about\s+|almost\s+|nearly\s+|over\s+|around\s+|just\s+over\s+)?{HOW_MANY}\s+"
              rf"(?:years?|months?)\b|\s+since\s+(?:\d{{4}}|{MONTH}|last\s+year|uni|university|college|graduating)\b)")  # fmt: skip
    for m in each(
        rf"(?:\bI(?:'ve|\s+have)\s+been|^\W*been)\s+(?:working\s+)?(?:at|with)\s+{PROPER}{tenure}", s
    ):
        yield "employer", m.group(1).rstrip(",."), m.start()
    for m in each(r"\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|officially\s+)?retired\b(?!\s+(?:my|the|a|an|it|that|this|his|her)\b)", s):  # fmt: skip
        yield "job_title", "retired", m.start()  # "I retired in 2020"
    for m in each(rf"\bI\s+(?:just\s+|recently\s+|finally\s+)?(?:got|was)\s+hired\s+(?:at|by)\s+{CALLED}{PROPER}", s):  # fmt: skip
        yield "employer", m.group(1).rstrip(",."), m.start()
    for m in each(
        r"\bI\s+(?:run|own)\s+(?:my\s+own|a|an)\s+(?:small\s+)?([a-z][\w-]*)", s
    ):  # "I run my own bakery"
        if m.group(1).lower() not in ("business", "company", "car", "house", "home", "dog", "cat", "bike"):
            yield "job_title", f"{m.group(1).lower()} owner", m.start()
    # "Quit Barclays last spring": the subject left out
    former += r"|^\W*(?:just\s+|finally\s+|recently\s+)?(?:quit(?:\s+my\s+job\s+at)?|left\s+my\s+job\s+at)"
    for m in re.finditer(rf"(?:{former})\s+{PROPER}", s, re.I):
        negated = "don't" in m.group(0).lower() or "do not" in m.group(0).lower()
        if negated and not re.search(r"\b(?:anymore|any\s+more|no\s+more)\b", s[m.end() :], re.I):
            continue
        yield "former_employer", m.group(1).rstrip(",."), m.start()
    for m in each(
        rf"\b(?:graduated\s+from|student\s+at|I\s+study\s+at|I\s+go\s+to\s+school\s+at)\s+{PROPER}", s
    ):
        yield "school", m.group(1).rstrip(",."), m.start()
    for m in each(r"\b(?:I\s+(?:study|am\s+studying|'m\s+studying|major\s+in|'m\s+majoring\s+in)|studying)\s+(?!at\b|for\b|hard\b|every\b|a\s+lot\b)([a-z][\w ]*)", s):  # fmt: skip
        if studied := items(m.group(1)):
            yield "studies", studied[0], m.start()
            # "I'm studying computer science at Stanford"
            # (read from the sentence: the value stopped at "King's College London"'s apostrophe)
            if school := re.match(
                rf"\s*{re.escape(studied[0])}\s+at\s+{CALLED}{PROPER}", s[m.start(1) :], re.I
            ):
                yield "school", school.group(1).rstrip(",."), m.start()
