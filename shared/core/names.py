"""Entity-name and entity-type normalisation (the reference's ``_normalize.py``), the key for exact and alias
matching.

    >>> normalize_entity_name("  Zoë O'Brien's ")
    'zoe o brien'
    >>> normalize_entity_name("PLAT-77"), normalize_entity_type("Work Item"), normalize_entity_type("9lives")
    ('plat 77', 'work_item', None)
"""

from __future__ import annotations

import re
import unicodedata

_POSSESSIVE = re.compile(r"['\u2019]s$")
_TRAILING_QUOTE = re.compile(r"['\u2019]+$")
_NON_ALNUM = re.compile(r"[^\w\s]|_", re.UNICODE)
_SPACES = re.compile(r"\s+")
_TYPE_CHARS = re.compile(r"[^a-z0-9_]+")
_TYPE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")

ENTITY_TYPES = (
    "person", "org", "project", "place", "event", "artifact", "work_item", "decision", "topic", "concept",
)  # fmt: skip


def normalize_entity_name(name: str) -> str:
    """NFKD without combining marks, casefolded and stripped, one trailing possessive dropped, every other
    non-alphanumeric character a space, whitespace collapsed."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold().strip()
    text = _TRAILING_QUOTE.sub("", _POSSESSIVE.sub("", text))
    return _SPACES.sub(" ", _NON_ALNUM.sub(" ", text)).strip()


def normalize_entity_type(value: str) -> str | None:
    """``[a-z][a-z0-9_]{0,63}`` after casefolding and mapping other runs to ``_``; None when it cannot be."""
    text = _TYPE_CHARS.sub("_", value.casefold()).strip("_")
    return text if _TYPE.match(text) else None
