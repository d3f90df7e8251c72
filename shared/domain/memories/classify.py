"""Deterministic type classification for memories stored without a type (no LLM).

>>> classify("Always run the migrations before deploying")
('procedural', 'directive')
>>> classify("I prefer dark roast coffee")
('semantic', 'preference')
>>> classify("Dana lives in Paris"), classify("I work at Acme"), classify("We met for lunch")
(('semantic', 'fact'), ('semantic', 'fact'), ('episodic', 'event'))
"""

from __future__ import annotations

import re

_RULES: list[tuple[re.Pattern[str], str, str | None]] = [
    (re.compile(r"\b(always|never|must|should|do not|don't)\b", re.I), "procedural", "directive"),
    (re.compile(r"\b(step \d|first,|then|how to|run |install|deploy)\b", re.I), "procedural", "workflow"),
    (re.compile(r"\b(prefer|prefers|like|likes|love|loves|favou?rite|hate|hates|dislike)\b", re.I),
     "semantic", "preference"),
    (re.compile(r"\b(error|exception|traceback|failed|failure|bug)\b", re.I), "episodic", "error"),
    (re.compile(r"\b(fixed|resolved|solution|workaround)\b", re.I), "procedural", "solution"),
    (re.compile(r"\b(decided|decision|chose|agreed)\b", re.I), "semantic", "decision"),
    # Lasting facts about someone (where they live, work, come from, what they are called): semantic, so
    # recall's types=["semantic"] finds them; checked before events ("moved to" is both, and lasts).
    (re.compile(r"\b((lives?|lived|living|grew up|born) in|(works?|worked|working) (at|for|as)|moved to|"
                r"name is|is called|married to|speaks)\b", re.I), "semantic", "fact"),
    (re.compile(r"\b(yesterday|today|last (week|month|year)|on (monday|tuesday|wednesday|thursday|friday|"
                r"saturday|sunday)|went|met|visited|happened)\b", re.I), "episodic", "event"),
    (re.compile(r"\b(is|are|was|has|have)\b", re.I), "semantic", "fact"),
]  # fmt: skip


def classify(content: str) -> tuple[str, str | None]:
    """Return (type, subtype) by the first rule that matches; plain statements are episodic."""
    for pattern, type_, subtype in _RULES:
        if pattern.search(content):
            return type_, subtype
    return "episodic", None
