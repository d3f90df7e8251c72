"""A sentence in the words the rules know, before any rule reads it: no emoji or filler, casual spellings and
contractions spelled out. One change here reaches every rule at once (docs/extraction.md, "Normalising before
matching").
"""

from __future__ import annotations

import re

# The rules read a sentence as a person types it only after putting it in the words they know: one change
# here reaches every rule at once (docs/extraction.md, "Normalising before matching").
_EMOJI = re.compile(r"[\u2600-\u27bf\ufe0f\u200d\U0001f000-\U0001faff]+")


# Discourse fillers that carry nothing: at the start ("ok so", "tbh", "reckon", "sorry,") and anywhere ("lol").
_LEADING_FILLER = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|well|honestly|tbh|tbf|lol|lmao|haha+|ha|um+|uh+|erm+|anyway|anyways|fwiw|ngl|"
    r"i\s+mean|(?:i\s+)?reckon|(?:i\s+)?guess\s+what|to\s+be\s+honest|fun\s+fact|sorry|btw|fyi|ps|update|"
    r"edit)\b[\s,:;-]*)+",
    re.I,
)  # fmt: skip


_INLINE_FILLER = re.compile(
    r",?\s+(?:lol|lmao|rofl|haha+|hehe+|tbh|tbf|ngl|imo|imho|fwiw|honestly)\b(?=\s*(?:[,.!?;]|$)|\s+\w)", re.I
)


# Casual spellings and contractions typed without their apostrophe: "im", "ive", "dont", "cant", "u", "yrs", "34yo".
_CASUAL = {
    "im": "I'm", "ive": "I've", "dont": "don't", "cant": "can't", "didnt": "didn't", "doesnt": "doesn't",
    "isnt": "isn't", "wasnt": "wasn't", "havent": "haven't", "hasnt": "hasn't", "wont": "won't", "arent": "aren't",
    "u": "you", "ur": "your", "bc": "because", "cuz": "because", "coz": "because", "cos": "because",
    "yrs": "years", "yr": "year", "mths": "months", "mos": "months", "wks": "weeks", "w/": "with", "b/c": "because",
    "bday": "birthday", "hubby": "husband", "bf": "boyfriend", "gf": "girlfriend",
}  # fmt: skip


_CASUAL_WORD = re.compile(r"(?<![\w'/-])(" + "|".join(re.escape(w) for w in _CASUAL) + r")(?![\w'/-])", re.I)


_YEARS_OLD = re.compile(r"\b(\d{1,3})\s*(?:yo|y/o|y\.o\.?|yrs?\s+old|years?[\s-]old)\b", re.I)


# "I'm the only Aussie who can't stand X": what the relative clause says, it says of the user.
_FIRST_PERSON = {
    "doesn't": "don't",
    "does": "do",
    "has": "have",
    "hasn't": "haven't",
    "is": "am",
    "isn't": "am not",
}


_THE_ONE_WHO = re.compile(
    r"\bI'm\s+(?:probably\s+)?the\s+(?:only|one)\s+(?:[\w-]+\s+){0,3}?(?:who|that)\s+([\w']+)", re.I
)


def _first_person(verb: str) -> str:
    """The verb of "… who hates X" as the user says it: "hates" -> "hate", "doesn't" -> "don't", "can't" stays."""
    low = verb.lower()
    if low in _FIRST_PERSON:
        return _FIRST_PERSON[low]
    if re.search(r"(?:ch|sh|ss|x|z|o)es$", low):
        return verb[:-2]
    if re.search(r"[^su]s$", low):
        return verb[:-1]
    return verb


def _casual(match: re.Match[str]) -> str:
    word = match.group(1)
    said = _CASUAL[word.lower()]
    if word.lower() in ("im", "ive") and word[0] == "i":
        return said.lower() if said.startswith("I") else said  # "im" in a lower-case message stays lower case
    return said


def normalise(sentence: str) -> str:
    """``sentence`` in the words the rules know: no emoji or filler, casual spellings and contractions spelled out.

    >>> normalise("ok so im a 34 yo mechanic lol 🔧"), normalise("reckon I'm the only Aussie who cant stand Vegemite")
    ("i'm a 34 year old mechanic", "I can't stand Vegemite")
    """
    s = _EMOJI.sub(" ", sentence) if not sentence.isascii() else sentence
    s = _LEADING_FILLER.sub("", s)
    if _ELIDED_STATE.match(s):  # "allergic to mustard, pls check", "Engaged to my sweetheart": "I'm" left out
        s = ("i'm " if s == s.lower() else "I'm ") + s
    s = _INLINE_FILLER.sub("", s)
    s = _CASUAL_WORD.sub(_casual, s)
    s = _YEARS_OLD.sub(r"\1 year old", s)
    if "the only" in s or "the one" in s:
        s = _THE_ONE_WHO.sub(lambda m: "I " + _first_person(m.group(1)), s)
    return re.sub(r"[ \t]{2,}", " ", s).strip()


# A state said with its subject and verb left out, at the start: "allergic to mustard", "married, no kids".
_ELIDED_STATE = re.compile(
    r"(?:allergic|alergic|engaged|married)\s+to\b|(?:married|engaged|divorced|widowed|retired|vegan|vegetarian|"
    r"pescatarian|pregnant)\s*(?:[,.!;]|$|\s+(?:and|with|since|for|now)\b)",
    re.I,
)  # fmt: skip
