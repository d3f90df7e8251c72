"""Does a recall query ask about a relation, which relationship types, and about which entities?

    >>> intent = classify("Who reviewed PLAT-77?")
    >>> intent.relationships, intent.phrases[:2]
    (('reviewed',), ['plat 77', 'reviewed plat 77'])
    >>> classify("tea preferences").is_relation_query
    False

Deterministic, like the reference's (services/memory/relation_intent.py): regex families add canonical
relationship types; the seed phrases are the query's quoted strings and capitalised runs, then every run of 1-4
of its words (longest first), normalised as entity names. The arm resolves them all in one statement against
names and aliases, so "plat-77", "PLAT 77" and a lower-case "the checkout service" all find their entity,
where the reference only tried capitalised words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared.core.names import normalize_entity_name

_I = re.IGNORECASE
# (pattern, canonical relationship types; empty: every type)
FAMILIES: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (re.compile(r"\bwork(s|ed|ing)?\s+(at|for)\b|\bemploy", _I), ("employed_by",)),
    (re.compile(r"\bfound(ed|er|ers)\b", _I), ("founded",)),
    (re.compile(r"\bown(s|ed|er|ers|ership)?\b|\bbelongs?\s+to\b", _I), ("owns",)),
    (re.compile(r"\breview(s|ed|er|ers|ing)?\b", _I), ("reviewed",)),
    (re.compile(r"\bapprov(e|es|ed|al|er|ers|ing)\b|\bsigned\s+off\b", _I), ("approved",)),
    (re.compile(r"\bdecid(e|es|ed|ing)\b|\bdecision", _I), ("decided",)),
    (re.compile(r"\bauthor(s|ed)?\b|\bwrote\b|\bwritten\b|\bcreat(ed|or)\b|\breport(ed|er)\b|\bopened\b", _I),
     ("authored",)),
    (re.compile(r"\bassign(ed|ee|ees)?\b|\bresponsib|\bworking\s+on\b|\bin\s+charge\b", _I), ("responsible_for",)),
    (re.compile(r"\bcontribut", _I), ("contributed_to",)),
    (re.compile(r"\bblock(s|ed|ing|er|ers)?\b", _I), ("blocks",)),
    (re.compile(r"\bdepend(s|ed|ency|encies|ent|ents)?\b|\brequire[sd]?\b|\bprerequisite", _I),
     ("depends_on", "requires")),
    (re.compile(r"\baffect(s|ed)?\b|\bimpact(s|ed)?\b", _I), ("affects",)),
    (re.compile(r"\bpart\s+of\b|\bwhich\s+(project|program|repo|repository)\b|\bin\s+(the\s+)?project\b", _I),
     ("part_of",)),
    (re.compile(r"\bmembers?\s+of\b|\bwhich\s+team\b", _I), ("member_of", "part_of")),
    (re.compile(r"\bsupersed|\breplac(e|es|ed|ing)\b", _I), ("supersedes",)),
    (re.compile(r"\breferenc|\bcite[sd]?\b", _I), ("references",)),
    (re.compile(r"\bbased\s+on\b", _I), ("based_on",)),
    (re.compile(r"\bsupport(s|ed)?\b|\bevidence\b", _I), ("supports",)),
    (re.compile(r"^\s*(what|which)\b.*\babout\b|\bregarding\b|\bconcerning\b", _I), ("about",)),
    (re.compile(r"\bsen[dt]s?\b|\bemail(ed|s)?\b|\breceived\b|\bmail(ed)?\b", _I), ("sent_to",)),
    (re.compile(r"\blocated\b|\blives?\s+in\b|\bbased\s+in\b", _I), ("located_in",)),
    (re.compile(r"\binvest", _I), ("invested_in",)),
    (re.compile(r"\badvis", _I), ("advises",)),
    (re.compile(r"\battend", _I), ("attended",)),
    (re.compile(r"\b(connected|related|linked)\s+to\b|\brelationship\b", _I), ()),
]  # fmt: skip
_QUOTED = re.compile(r"[\"\u201c\u2018']([^\"\u201d\u2019']{2,80})[\"\u201d\u2019']")
_CAPITALISED = re.compile(r"\b[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*){0,3}")
QUESTION_WORDS = {
    "who",
    "what",
    "where",
    "which",
    "when",
    "why",
    "how",
    "does",
    "did",
    "do",
    "is",
    "are",
    "was",
}
STOPWORDS = QUESTION_WORDS | {
    "a", "an", "the", "of", "to", "in", "on", "for", "at", "by", "with", "and", "or", "that", "this", "it", "its",
    "be", "been", "has", "have", "had", "about", "from", "as", "me", "my", "we", "our", "us", "they", "them",
}  # fmt: skip
MAX_PHRASES = 64


@dataclass(frozen=True)
class RelationIntent:
    is_relation_query: bool
    relationships: tuple[str, ...]  # empty: every type
    phrases: list[str]  # normalised candidate names, most specific first


def _ngrams(words: list[str]) -> list[str]:
    found = []
    for n in range(min(4, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            if gram[0] in STOPWORDS or gram[-1] in STOPWORDS:
                continue  # "the checkout service" is tried as "checkout service"
            found.append(" ".join(gram))
    return found


def classify(query: str) -> RelationIntent:
    types: list[str] = []
    matched = 0
    for pattern, rels in FAMILIES:
        if pattern.search(query):
            matched += 1
            types.extend(r for r in rels if r not in types)
    if not matched:
        return RelationIntent(False, (), [])
    # "related to" asks for any relationship; a typed family next to it does not narrow that.
    any_type = any(not rels and p.search(query) for p, rels in FAMILIES)
    raw = [m.group(1) for m in _QUOTED.finditer(query)]
    raw += [m.group(0) for m in _CAPITALISED.finditer(query)]
    phrases: list[str] = []
    for text in raw:
        words = normalize_entity_name(text).split()
        while words and words[0] in QUESTION_WORDS:
            words = words[1:]
        if words:
            phrases.append(" ".join(words))
    phrases += _ngrams(normalize_entity_name(query).split())
    unique = list(dict.fromkeys(p for p in phrases if p))[:MAX_PHRASES]
    return RelationIntent(True, () if any_type else tuple(types), unique)
