"""``allergy``, ``health_condition`` and ``medication``: "I'm allergic to peanuts", "I have asthma", "I take
metformin", and the vocabulary of conditions and medicines the "I'm …" frame reads too.
"""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, Rule, each
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
    r"autism|tinnitus|ptsd|ocd|pcos|copd|gerd|acid\s+reflux|lupus|gout|menopause|perimenopause|sciatica|"
    r"vertigo|dementia|schizophrenia|"
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
    """The user's allergies, conditions and medicines, each read by one of ``_STEPS`` in turn."""
    for step in _STEPS:
        yield from step(s)


def _allergic(s: str) -> bool:
    """A cheap test first: the allergy frames need one of these."""
    return "lerg" in s.lower() or "legic" in s.lower()


_OWN_ALLERGY = (rf"\b(?:I{HAVE}\s+(?:a\s+|an\s+)?|my\s+){_ALLERGY_ADJ}(?!(?:severe|mild|slight|bad|serious|"
                rf"an?)\b)([\w-]+(?:\s+[\w-]+)?)\s+{_ALLERGY}\b")  # fmt: skip
_ALLERGY_TO = (rf"(?:\bI(?:{HAVE}(?:\s+had)?|\s+had)\s+(?:a\s+|an\s+)?|"
               rf"\bmy\s+){_ALLERGY_ADJ}{_ALLERGY}\s+to\s+(.+?)(?=\s+(?:is|are|was|gets?|got|makes?)\b|"
               rf"$)")  # fmt: skip


def _allergies(s: str) -> Emit:
    """ "I'm allergic to shellfish", "I have a nut allergy" (not "my son's peanut allergy"), "I have a mild allergy to
    dust mites", "my allergies are …"."""
    for m in each(rf"\b(?:I'm|I\s+am|I'm\s+also|I\s+am\s+also)\s+(?:very\s+|severely\s+|really\s+|"
                  rf"mildly\s+)?{ALLERGIC}\s+to\s+(.+)", s):  # fmt: skip
        for item in items(m.group(1)):
            yield "allergy", item, m.start()
    for m in () if not _allergic(s) else each(_OWN_ALLERGY, s):
        words = m.group(1).lower().split()
        if not any(
            w.endswith("'s") or w in RELATIVES or w in PARTNERS or w in NOT_CONDITION_WORDS for w in words
        ):
            yield "allergy", m.group(1), m.start()
    for m in () if not _allergic(s) else each(_ALLERGY_TO, s):
        for item in items(m.group(1)):
            yield "allergy", item, m.start()
    for m in each(rf"\bmy\s+{_ALLERGY}\s+(?:are|include)\s+(.+)", s):
        for item in items(m.group(1), cut_prepositions=False):
            yield "allergy", item, m.start()


_STRUGGLING = (r"^\W*(?:been\s+(?:dealing|struggling|living|battling|diagnosed)|(?:just\s+|"
               r"recently\s+)?got\s+diagnosed)\s+with\s+(?:(?:a|an|chronic|severe|bad)\s+)*(.+)")  # fmt: skip


def _struggling(s: str) -> Emit:
    """ "Been struggling with insomnia for months" (the subject left out); "I've got asthma and a nut allergy": an
    allergy further down the list."""
    for m in each(_STRUGGLING, s):
        if found := condition(m.group(1)):
            yield "health_condition", found, m.start()
    if re.search(rf"\bI{HAVE}\s", s, re.I):
        for m in each(rf"(?:,|\band)\s+(?:a|an)\s+{_ALLERGY_ADJ}([\w-]+)\s+{_ALLERGY}\b", s):
            yield "allergy", m.group(1), m.start()


# Verbs that only take a condition, so an acronym after one is one ("I've been living with MS").
_LIVING_WITH = (r"\bI(?:(?:'ve|\s+have|'m|\s+am)\s+(?:been\s+)?(?:dealing|struggling|living|diagnosed)\s+with|"
                r"\s+(?:live|struggle|was\s+diagnosed|got\s+diagnosed)\s+with|"
                r"\s+suffer\s+from)\s+(?-i:([A-Z]{2,5}))\b")  # fmt: skip
# "got diagnosed with" before "got": a match is not tried again with another branch
_HAS = (rf"(?:\s+(?:was|got)\s+diagnosed\s+with|(?:'ve|\s+have|'m|\s+am)\s+(?:been\s+)?(?:dealing|struggling|"
        rf"living|diagnosed)\s+with|\s+struggle\s+with|'ve\s+had|"
        rf"\s+have\s+had|{HAVE}|\s+suffer\s+(?:from|with)|\s+live\s+with|\s+battle|"
        rf"\s+(?:often\s+|sometimes\s+|still\s+|regularly\s+)?get|(?:'m|\s+am)\s+(?:being\s+treated\s+for|"
        rf"recovering\s+from|in\s+remission\s+from))")  # fmt: skip
_HAS_CONDITION = (rf"\bI{_HAS}\s+(?:(?:a|an|chronic|severe|mild|bad|terrible|awful|frequent|occasional|serious|"
                  rf"really|pretty)\s+)*(.+)")  # fmt: skip


def _conditions(s: str) -> Emit:
    """ "I've been living with MS", "I have asthma", "I get migraines", "I'm recovering from long covid"."""
    for m in each(_LIVING_WITH, s):
        yield "health_condition", m.group(1), m.start()
    for m in each(_HAS_CONDITION, s):
        found = condition(m.group(1))
        if found and not re.match(r"\s*all?erg", m.group(1)[len(found) :], re.I):
            yield "health_condition", found, m.start()


_STARTED = (rf"\bI\s+(?:(?:just|recently|finally)\s+)?(?:started|began|went\s+on|got\s+put\s+on)\s+(?:on\s+|"
            rf"taking\s+)?((?:[\w-]+\s+)?{MEDICINES}|{DRUG})\b")  # fmt: skip


def _started(s: str) -> Emit:
    """ "I started HRT a couple of months ago", "I went on statins": starting a medicine is taking it."""
    for m in each(_STARTED, s):
        yield "medication", m.group(1), m.start()


_TREAT = (r"\bI(?:\s+(?:also\s+)?(?:use|take|need)|'m\s+(?:on|taking|using)|\s+am\s+(?:on|taking|using)|"
          r"'ve\s+been\s+(?:on|taking|using))\s+(?:an?\s+|my\s+|some\s+)?(?!the\b|it\b|this\b|that\b|time\b)"
          r"([\w-]+(?:\s+[\w-]+)?)\s+(?:(?:every\s+\w+|daily|twice\s+a\s+day|once\s+a\s+day)\s+)?"
          r"(?:for\s+(?:years|ages|months|a\s+while|a\s+long\s+time|\w+\s+(?:years|months|weeks))\s+)?"
          r"(?:for|because\s+of|due\s+to|to\s+(?:manage|control|treat|help\s+with))\s+(?:my\s+)?(.+)")  # fmt: skip


def _treatments(s: str) -> Emit:
    """ "I use an inhaler for my asthma", "I'm taking sertraline for anxiety": a treatment and what it treats;
    "diagnosed with ADHD … I'm on Ritalin for it": the treatment of a condition said before."""
    for m in each(_TREAT, s):
        if (found := _my_condition(m.group(2))) and m.group(1).lower() not in NOT_CONDITION_WORDS:
            yield "medication", m.group(1), m.start()
            yield "health_condition", found, m.start()
        elif (
            re.match(r"(?:it|them|that|this)\b", m.group(2), re.I)
            and m.group(1).lower() not in NOT_CONDITION_WORDS
            and any(condition(s[w.start() :]) for w in re.finditer(r"\b\w", s[: m.start()]))
        ):
            yield "medication", m.group(1), m.start()


_FORM = (
    r"(?:tablets|pills|capsules|supplements|drops|injections|jabs|patches|cream|spray|inhaler|shots|gummies)"
)
_TAKE_FORM = (rf"\bI(?:\s+(?:also\s+)?(?:take|use)|'m\s+(?:on|taking|using)|\s+am\s+(?:on|taking|using)|"
              rf"'ve\s+been\s+(?:on|taking|using))\s+(?:an?\s+|my\s+|"
              rf"some\s+)?([a-z][\w-]*(?:\s+[a-z0-9][\w-]*)?\s+{_FORM})\b")  # fmt: skip


def _by_form(s: str) -> Emit:
    """ "I take iron tablets", "I use steroid cream": a medicine named by its form; "My doctor put me on statins"."""
    for m in () if not re.search(_FORM, s, re.I) else each(_TAKE_FORM, s):
        if m.group(1).split()[0].lower() not in NOT_CONDITION_WORDS | {"the", "those", "these"}:
            yield "medication", m.group(1), m.start()
    for m in each(rf"\b(?:put|started|switched)\s+me\s+on\s+((?:[\w-]+\s+){{0,2}}{MEDICINES}|{DRUG})\b", s):
        yield "medication", m.group(1), m.start()


_TAKE = (r"\bI(?:\s+take|\s+am\s+taking|'m\s+taking)\s+(?!the\b|a\b|an\b|my\b|care\b|it\b|time\b|part\b|"
         r"notes\b|turns\b|over\b)([a-z][\w-]*(?:\s+[A-Z0-9][\w-]*)?)\s*(?:every|each|daily|twice|once|for|"
         r"in\s+the|at\s+night|[,.;]|$)")  # fmt: skip


def _mine(s: str) -> Emit:
    """ "the pain from my tendonitis": a condition the user calls theirs; "I take metformin every morning"."""
    for m in each(r"\bmy\s+(?:(?:chronic|severe|mild|bad)\s+)?(.+)", s):
        if found := _my_condition(m.group(1)):
            yield "health_condition", found, m.start()
    for m in each(_TAKE, s):
        yield "medication", m.group(1), m.start()


# In this order: the first to say a (predicate, value) keeps its offset.
_STEPS: tuple[Rule, ...] = (_allergies, _struggling, _conditions, _started, _treatments, _by_form, _mine)
