"""Deterministic type classification for memories stored without a type (no LLM).

>>> classify("Always run the migrations before deploying")
('procedural', 'directive')
>>> classify("I prefer dark roast coffee")
('semantic', 'preference')
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
