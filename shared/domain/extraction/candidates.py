"""What an extractor proposes. The writer alone decides ADD / NOOP / SUPERSEDE.

>>> Candidate(content="User lives in Paris", subject="user", predicate="lives_in", value="Paris").fact_key("u1")
'u1|user|lives_in'
>>> Candidate(content="User likes tea", subject="user", predicate="likes", value="tea").fact_key("u1")
'u1|user|likes|tea'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# One value at a time: a new value supersedes the old. Other predicates (likes, allergy, family, plan, event, …)
# accumulate. hometown and marital_status are single-valued too (docs/extraction.md).
SINGLE_VALUED = frozenset(
    {"name", "lives_in", "employer", "job_title", "age", "birthday", "partner", "email", "phone", "timezone",
     "hometown", "marital_status"}
)  # fmt: skip
# Accumulating predicates (a new value joins the old ones): the vocabulary the rules write and the LLM is asked
# to use (docs/extraction.md), so facts from either extractor meet in the writer's dedup keys.
MULTI_VALUED = ("likes", "dislikes", "diet", "avoids", "hobby", "allergy", "health_condition", "medication",
                "former_employer", "school", "studies", "family", "pet", "lived_in", "visited", "event", "plan")  # fmt: skip


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", "", text.lower())).strip()


@dataclass
class Candidate:
    content: str
    subject: str | None = None
    predicate: str | None = None
    value: str | None = None
    type: str = "semantic"
    subtype: str | None = "fact"
    importance: float = 0.5
    tags: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    event_time: datetime | None = None
    source_message_ids: list[str] = field(default_factory=list)  # the messages this came from, when known
    single_valued: bool | None = None  # None: decided by the predicate (SINGLE_VALUED)
    # Typed relations the extractor proposes (shared.domain.requests.EntityRelationInput, evidence_kind
    # "generated"; spans into ``content``): written with evidence, spans checked, by the writer.
    relations: list[Any] = field(default_factory=list)
    # Whose fact or episode this is (``speakers.Speaker``); None: the thread's user, as before speakers.
    speaker: Any = None
    # A named speaker's episode's place in its thread's stream (the message index): recall lends a matching
    # turn's score to its neighbours. An unnamed user's episode holds the assistant's reply already: none.
    sequence_index: int | None = None

    @property
    def is_fact(self) -> bool:
        return bool(self.subject and self.predicate)

    def fact_key(self, user_id: str | None) -> str | None:
        """(user, subject, predicate) for single-valued facts; plus the value for accumulating ones."""
        if not self.is_fact:
            return None
        key = f"{user_id or ''}|{normalise(self.subject or '')}|{self.predicate}"
        single = self.predicate in SINGLE_VALUED if self.single_valued is None else self.single_valued
        if not single:
            key += f"|{normalise(self.value or self.content)}"
        return key


@dataclass
class Provenance:
    """Where candidates came from: kept on every memory they produce."""

    thread_id: str | None = None
    message_ids: list[str] = field(default_factory=list)
    session_id: str | None = None
    source: str = "extraction"
    context_id: str | None = (
        None  # None: the default context (a document's memories go to its target context)
    )


@dataclass
class WriteReport:
    added: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    superseded: list[tuple[str, str]] = field(default_factory=list)  # (old id, new id)

    @property
    def counts(self) -> dict[str, int]:
        return {"added": len(self.added), "noop": len(self.unchanged), "superseded": len(self.superseded)}
