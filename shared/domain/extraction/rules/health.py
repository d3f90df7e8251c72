"""``allergy``, ``health_condition`` and ``medication``: "I'm allergic to peanuts", "I have asthma", "I take
metformin", and the vocabulary of conditions and medicines the "I'm …" frame reads too.
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each
from shared.domain.extraction.rules.phrases import HAVE
from shared.domain.extraction.rules.values import items
from shared.domain.extraction.rules.words import NOT_CONDITION_WORDS, PARTNERS, RELATIVES

# A condition is a named one, a noun phrase with a medical head ("hay fever", "a heart condition", "back pain") or
# a word with a medical ending (tendonitis, endometriosis, fibromyalgia, neuropathy, hypothyroidism, melanoma).
CONDITIONS = re.compile(
    r"(?:(?:rheumatoid|psoriatic|juvenile|post-?natal|post-?partum|clinical|seasonal|atopic|exercise-induced|"
    r"generali[sz]ed|social)\s+(?=(?:arthritis|depression|anxiety|eczema|asthma|migraines?)\b))?"
    r"(?:(?:type\s+[12]\s+)?diabetes|asthma|migraines?|celiac\s+disease|coeliac\s+disease|adhd|anxiety|depression|"
    r"arthritis|eczema|epilepsy|hypertension|high\s+blood\s+pressure|low\s+blood\s+pressure|high\s+cholesterol|ibs|"
    r"ibd|crohn'?s(?:\s+disease)?|insomnia|psoriasis|sleep\s+apnea|sleep\s+apnoea|long\s+covid|dyslexia|dyspraxia|"
    r"autism|tinnitus|ptsd|ocd|pcos|copd|gerd|acid\s+reflux|lupus|gout|menopause|perimenopause|sciatica|vertigo|dementia|schizophrenia|"
    r"bipolar(?:\s+disorder)?|cancer|acne|rosacea|glaucoma|cataracts|shingles|anorexia|bulimia|hiv|covid(?:-19)?|"
    r"(?:[\w'-]+\s+){1,2}(?:disease|syndrome|disorder|cancer|fever|deficiency|intolerance|condition|infection|"
    r"pain|injury)|"
    r"(?!diploma\b|aroma\b)[a-z]{3,}(?:itis|osis|a?emia|pathy|algia|oma|plegia|philia|trophy|phobia)|"
    r"hyp(?:o|er)[a-z]+ism|(?:under|over)active\s+(?:thyroid|bladder))\b", re.I)  # fmt: skip


# The trigger words, with their common misspellings ("alergic", "alergy", "allergys").
ALLERGIC = r"(?:allergic|alergic|allergick|alergick|allegic|allergc)"


_ALLERGY = r"(?:allerg(?:y|ies|ys)|alerg(?:y|ies|ys)|allergey|alergey)"


_ALLERGY_ADJ = r"(?:(?:severe|mild|slight|bad|serious|terrible|life-threatening|minor)\s+)?"


def condition(text: str) -> str | None:
    """The condition ``text`` starts with, lower case: "hay fever so spring is rough" -> "hay fever"; None if none.

    >>> condition("hay fever so spring is rough"), condition("tendonitis in my knee"), condition("lot of pain")
    ('hay fever', 'tendonitis', None)
    """
    match = CONDITIONS.match(text)
    if not match:
        return None
    words = [w.lower().removesuffix("'s") for w in match.group(0).split()]
    if any(w in NOT_CONDITION_WORDS or w in RELATIVES or w in PARTNERS for w in words):
        return None
    return re.sub(r"\s+", " ", match.group(0).lower())


def _my_condition(text: str) -> str | None:
    """A condition at the start of ``text`` that is not the first word of something else ("cancer research")."""
    found = condition(text)
    if found and not re.match(r"\s+(?:research|charity|lab|awareness|ward|unit|clinic|foundation|centre|center|"
                              r"society|project|class|course|paper|essay|talk|doctor|nurse|specialist)\b",
                              text[len(found) :], re.I):  # fmt: skip
        return found
    return None


MEDICINES = (r"(?:medication|meds|pills|insulin|antidepressants|antibiotics|statins|steroids|blood\s+thinners|"
              r"beta\s+blockers|birth\s+control|the\s+pill|chemo|hrt|prep)")  # fmt: skip


# What a medicine comes in, part of its name: "an insulin pump", "a nicotine patch".
DEVICE = r"(?:pump|pen|patch|patches|implant|injections|inhaler)"


# Medicines by their endings ("I'm on levothyroxine", "sertraline", "lisinopril", "atorvastatin", "omeprazole").
DRUG = (r"(?!deadline|online|offline|airline|pipeline|hotline|frontline|helpline|wine|vaccine|medicine|time|line)"
         r"[a-z]{3,}(?:ine|pril|sartan|statin|azole|cillin|mycin|cycline|mab|azepam|olam|done|tidine|prazole|formin|"
         r"afil|triptan|profen|olol|oxetine|amine|pine|xine|zide|semide|thyroxine)")  # fmt: skip


def health(s: str) -> Emit:
    allergic = (
        "lerg" in s.lower() or "legic" in s.lower()
    )  # cheap test first: the allergy frames below need it
    for m in each(rf"\b(?:I'm|I\s+am|I'm\s+also|I\s+am\s+also)\s+(?:very\s+|severely\s+|really\s+|mildly\s+)?{ALLERGIC}\s+to\s+(.+)", s):  # fmt: skip
        for item in items(m.group(1)):
            yield "allergy", item, m.start()
    # "I have a nut allergy", "my tree nut allergy": the user's own, not "my son's peanut allergy".
    for m in () if not allergic else each(rf"\b(?:I{HAVE}\s+(?:a\s+|an\s+)?|my\s+){_ALLERGY_ADJ}(?!(?:severe|mild|slight|bad|serious|an?)\b)([\w-]+(?:\s+[\w-]+)?)\s+{_ALLERGY}\b", s):  # fmt: skip
        words = m.group(1).lower().split()
        if not any(
            w.endswith("'s") or w in RELATIVES or w in PARTNERS or w in NOT_CONDITION_WORDS for w in words
        ):
            yield "allergy", m.group(1), m.start()
    # "I have a mild allergy to dust mites"
    for m in (
        ()
        if not allergic
        else each(
            rf"(?:\bI(?:{HAVE}(?:\s+had)?|\s+had)\s+(?:a\s+|an\s+)?|\bmy\s+){_ALLERGY_ADJ}{_ALLERGY}\s+to\s+(.+?)(?=\s+(?:is|are|was|gets?|got|makes?)\b|$)",
            s,
        )
    ):
        for item in items(m.group(1)):
            yield "allergy", item, m.start()
    for m in each(rf"\bmy\s+{_ALLERGY}\s+(?:are|include)\s+(.+)", s):
        for item in items(m.group(1), cut_prepositions=False):
            yield "allergy", item, m.start()
    # "Been struggling with insomnia for months": the subject left out
    for m in each(
        r"^\W*(?:been\s+(?:dealing|struggling|living|battling|diagnosed)|(?:just\s+|recently\s+)?got\s+diagnosed)\s+with\s+(?:(?:a|an|chronic|severe|bad)\s+)*(.+)",
        s,
    ):
        if found := condition(m.group(1)):
            yield "health_condition", found, m.start()
    # "I've got asthma and a nut allergy": an allergy further down the list
    if re.search(rf"\bI{HAVE}\s", s, re.I):
        for m in each(rf"(?:,|\band)\s+(?:a|an)\s+{_ALLERGY_ADJ}([\w-]+)\s+{_ALLERGY}\b", s):
            yield "allergy", m.group(1), m.start()
    strong = (
        r"\bI(?:(?:'ve|\s+have|'m|\s+am)\s+(?:been\s+)?(?:dealing|struggling|living|diagnosed)\s+with|"
        r"\s+(?:live|struggle|was\s+diagnosed|got\s+diagnosed)\s+with|\s+suffer\s+from)\s+(?-i:([A-Z]{2,5}))\b"
    )
    for m in each(
        strong, s
    ):  # "I've been living with MS": an acronym after a verb that only takes conditions
        yield "health_condition", m.group(1), m.start()
    # "got diagnosed with" before "got": a match is not tried again with another branch
    verbs = (rf"(?:\s+(?:was|got)\s+diagnosed\s+with|(?:'ve|\s+have|'m|\s+am)\s+(?:been\s+)?(?:dealing|struggling|living|diagnosed)\s+with|\s+struggle\s+with|'ve\s+had|"
             rf"\s+have\s+had|{HAVE}|\s+suffer\s+(?:from|with)|\s+live\s+with|\s+battle|"
             rf"\s+(?:often\s+|sometimes\s+|still\s+|regularly\s+)?get|(?:'m|\s+am)\s+(?:being\s+treated\s+for|recovering\s+from|in\s+remission\s+from))")  # fmt: skip
    for m in each(rf"\bI{verbs}\s+(?:(?:a|an|chronic|severe|mild|bad|terrible|awful|frequent|occasional|serious|really|pretty)\s+)*(.+)", s):  # fmt: skip
        found = condition(m.group(1))
        if found and not re.match(r"\s*all?erg", m.group(1)[len(found) :], re.I):
            yield "health_condition", found, m.start()
    # "I started HRT a couple of months ago", "I went on statins": starting a medicine is taking it
    for m in each(rf"\bI\s+(?:(?:just|recently|finally)\s+)?(?:started|began|went\s+on|got\s+put\s+on)\s+(?:on\s+|taking\s+)?((?:[\w-]+\s+)?{MEDICINES}|{DRUG})\b", s):  # fmt: skip
        yield "medication", m.group(1), m.start()
    # "I use an inhaler for my asthma", "I'm taking sertraline for anxiety": a treatment and what it treats.
    treat = (r"\bI(?:\s+(?:also\s+)?(?:use|take|need)|'m\s+(?:on|taking|using)|\s+am\s+(?:on|taking|using)|"
             r"'ve\s+been\s+(?:on|taking|using))\s+(?:an?\s+|my\s+|some\s+)?(?!the\b|it\b|this\b|that\b|time\b)"
             r"([\w-]+(?:\s+[\w-]+)?)\s+(?:(?:every\s+\w+|daily|twice\s+a\s+day|once\s+a\s+day)\s+)?"
             r"(?:for\s+(?:years|ages|months|a\s+while|a\s+long\s+time|\w+\s+(?:years|months|weeks))\s+)?"
             r"(?:for|because\s+of|due\s+to|to\s+(?:manage|control|treat|help\s+with))\s+(?:my\s+)?(.+)")  # fmt: skip
    for m in each(treat, s):
        if (found := _my_condition(m.group(2))) and m.group(1).lower() not in NOT_CONDITION_WORDS:
            yield "medication", m.group(1), m.start()
            yield "health_condition", found, m.start()
        elif (
            re.match(r"(?:it|them|that|this)\b", m.group(2), re.I)
            and m.group(1).lower() not in NOT_CONDITION_WORDS
            and any(condition(s[w.start() :]) for w in re.finditer(r"\b\w", s[: m.start()]))
        ):
            yield "medication", m.group(1), m.start()  # "diagnosed with ADHD … I'm on Ritalin for it"
    # "I take iron tablets", "I use steroid cream": a medicine named by its form
    form = r"(?:tablets|pills|capsules|supplements|drops|injections|jabs|patches|cream|spray|inhaler|shots|gummies)"
    for m in () if not re.search(form, s, re.I) else each(rf"\bI(?:\s+(?:also\s+)?(?:take|use)|'m\s+(?:on|taking|using)|\s+am\s+(?:on|taking|using)|'ve\s+been\s+(?:on|taking|using))\s+(?:an?\s+|my\s+|some\s+)?([a-z][\w-]*(?:\s+[a-z0-9][\w-]*)?\s+{form})\b", s):  # fmt: skip
        if m.group(1).split()[0].lower() not in NOT_CONDITION_WORDS | {"the", "those", "these"}:
            yield "medication", m.group(1), m.start()
    # "My doctor put me on statins"
    for m in each(rf"\b(?:put|started|switched)\s+me\s+on\s+((?:[\w-]+\s+){{0,2}}{MEDICINES}|{DRUG})\b", s):
        yield "medication", m.group(1), m.start()
    # "the pain from my tendonitis": a condition the user calls theirs.
    for m in each(r"\bmy\s+(?:(?:chronic|severe|mild|bad)\s+)?(.+)", s):
        if found := _my_condition(m.group(1)):
            yield "health_condition", found, m.start()
    for m in each(r"\bI(?:\s+take|\s+am\s+taking|'m\s+taking)\s+(?!the\b|a\b|an\b|my\b|care\b|it\b|time\b|part\b|notes\b|turns\b|over\b)([a-z][\w-]*(?:\s+[A-Z0-9][\w-]*)?)\s*(?:every|each|daily|twice|once|for|in\s+the|at\s+night|[,.;]|$)", s):  # fmt: skip
        yield "medication", m.group(1), m.start()
