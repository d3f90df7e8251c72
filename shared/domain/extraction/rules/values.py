"""What a rule keeps of the words after its frame: up to the end of the clause, without fillers, split into a list."""

from __future__ import annotations

import re

_FILLER = re.compile(r"\s+(?:these\s+days|nowadays|now|at\s+the\s+moment|right\s+now|lately|originally|too|"
                     r"as\s+well|though|tho|myself|personally|currently|anymore|any\s+more|honestly|actually|"
                     r"tbh|lol|lmao|haha+|imo|btw|fyi|ngl|all\s+my\s+life|my\s+whole\s+life|"
                     r"here)$", re.I)  # fmt: skip


# Where a clause ends: a value never runs past one of these.
_CLAUSE_END = re.compile(r"\s*(?:[,.;:!?()]|\s-\s|\b(?:but|because|since|so|though|although|while|whereas|"
                         r"especially|which|who|when|unless|except|and\s+(?:I|we|i)\b|I'm|I\s+am)\b|$)")  # fmt: skip


_LIST = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*)\s*", re.I)  # "X AND Y" too


PREPOSITION = re.compile(
    r"\s+(?:on|in|at|for|with|over|than|from|instead\s+of|rather\s+than|to|during|every|each|twice|once|after|"
    r"before|until|"
    r"as\s+(?:a|an|my)\b)\b.*$",
    re.I,
)


def clause(text: str) -> str:
    """``text`` up to where its clause ends."""
    end = _CLAUSE_END.search(text)
    return text[: end.start()] if end else text


def unfill(value: str) -> str:
    """``value`` without trailing fillers ("keto these days" -> "keto")."""
    value = value.strip(" \t'\"")
    while True:
        shorter = _FILLER.sub("", value)
        if shorter == value:
            return value
        value = shorter


def clean(value: str) -> str:
    value = unfill(value)
    return re.sub(r"^(?:a|an|some|really|very|also|just|both|either)\s+", "", value, flags=re.I).strip()


_ACTIVITY = re.compile(
    r"[a-z]{3,}ing\s+(?:on|in|at|to|with|about|for)\s+(?!(?:the\s+)?(?:morning|mornings|evening|evenings|night|"
    r"weekends?|week|summer|winter|spring|autumn|holidays?|\w+days?|\d)\b)(?:the\s+|a\s+)?[a-z]+", re.I)  # fmt: skip


# Fixed pairs that are one thing, not two: "old black and white films", "fish and chips".
_BINOMIAL = re.compile(
    r"\b(?:black\s+and\s+white|salt\s+and\s+(?:vinegar|pepper)|fish\s+(?:and|n|'n')\s+chips|rock\s+(?:and|n|"
    r"'n')\s+roll|"
    r"drum\s+(?:and|n|'n')\s+bass|mac\s+(?:and|n|'n')\s+cheese|sweet\s+and\s+sour|peanut\s+butter\s+and\s+jelly|"
    r"arts\s+and\s+crafts|dungeons\s+(?:and|&)\s+dragons|rhythm\s+and\s+blues|r\s*(?:and|&|n)\s*b|"
    r"cheese\s+and\s+onion|"
    r"bangers\s+and\s+mash|pie\s+and\s+mash|surf\s+and\s+turf|hide\s+and\s+seek|bed\s+and\s+breakfast|"
    r"fast\s+and\s+furious|sci-fi\s+and\s+fantasy|hot\s+and\s+sour|bubble\s+and\s+squeak)\b", re.I)  # fmt: skip


def items(text: str, *, cut_prepositions: bool = True) -> list[str]:
    """A list of things ("hiking and photography", "shellfish, penicillin"), each cleaned."""
    out = []
    text = clause(text)
    if re.search(r"\s(?:and|n|'n'|&)\s", text):  # cheap test first: most lists have no fixed pair
        text = _BINOMIAL.sub(lambda m: m.group(0).replace(" ", "\x01"), text)
    for item in _LIST.split(text):
        item = item.replace("\x01", " ")
        # "talking on the phone" is one activity; "running before work" and "baking bread on Sundays" are a thing
        # and when.
        if cut_prepositions and not _ACTIVITY.fullmatch(item.strip()):
            item = PREPOSITION.sub("", item)
        item = clean(item)
        if (
            item
            and not re.match(r"(?:is|are|was|were)\b", item, re.I)
            and item.lower()
            not in (
                "it",
                "that",
                "this",
                "them",
                "anything",
                "nothing",
                "everything",
                "stuff",
            )
        ):
            out.append(item)
    return out
