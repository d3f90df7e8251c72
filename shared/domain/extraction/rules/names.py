"""``name``: "my name is Jo", "call me Jo", and a greeting that introduces the user ("Hi, I'm Jo")."""

from __future__ import annotations

import re

from shared.domain.extraction.rules.matching import Emit, each
from shared.domain.extraction.rules.phrases import NAME


def name(s: str) -> Emit:
    """ "My name is Jo", "call me Jo"."""
    for m in each(rf"\b(?:my\s+name\s+is|my\s+name's|call\s+me)\s+{NAME}", s):
        yield "name", m.group(1), m.start()


def greeting(text: str) -> re.Match[str] | None:
    """ "Hi, I'm Jo": the name a greeting introduces the user by (group 1), read over the whole text."""
    return re.search(rf"\b(?:hi|hello|hey)\b[\s!,.]+(?:I'm|I\s+am|this\s+is)\s+{NAME}", text, re.I)
