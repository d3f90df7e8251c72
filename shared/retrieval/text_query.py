"""Free text to a Postgres ``tsquery`` that ORs the query's terms, so a turn matching some words still ranks.

    >>> to_tsquery_text("What did Caroline research?")
    "'what' | 'did' | 'caroline' | 'research'"
    >>> to_tsquery_text("!!!")
    ''

Terms are quoted lexemes of ``[a-z0-9]`` only, so user text can never inject tsquery syntax; Postgres applies
the ``english`` configuration (stemming, stop words) when it parses them.
"""

from __future__ import annotations

import re

_TERM = re.compile(r"[a-z0-9]+")
MAX_TERMS = 64


def to_tsquery_text(query: str) -> str:
    terms = list(dict.fromkeys(_TERM.findall(query.lower())))[:MAX_TERMS]
    return " | ".join(f"'{t}'" for t in terms)
