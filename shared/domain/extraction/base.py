"""The extractor interface: messages (plus bounded context) in, candidate memories out.

>>> from shared.domain.extraction.deterministic import DeterministicExtractor
>>> out = DeterministicExtractor().extract(ExtractionInput(messages=[Message("user", "I live in Paris")]))
>>> [c.content for c in out.candidates if c.is_fact]
['User lives in Paris']
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime

from shared.domain.extraction.candidates import Candidate
from shared.domain.extraction.speakers import Speaker


@dataclass(frozen=True)
class Message:
    role: str
    text: str
    message_id: str | None = None
    created_at: datetime | None = None  # when it was said (the client's time, else when it was stored)
    speaker: Speaker | None = None  # who said it; None: the thread's user
    index: int | None = (
        None  # its position in the thread (an episode keeps it: a thread is an ordered stream)
    )


@dataclass
class ExtractionInput:
    messages: list[Message]  # the new messages to extract from
    recent: list[Message] = field(default_factory=list)  # earlier messages, for context only
    summary: str | None = None  # the thread's rolling summary
    known_facts: list[str] = field(default_factory=list)  # existing memories, shown as [1], [2], … never ids


@dataclass
class Usage:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass
class ExtractionOutput:
    candidates: list[Candidate]
    summary: str | None = None
    usage: Usage = field(default_factory=Usage)


class Extractor(ABC):
    name: str

    @abstractmethod
    def extract(self, data: ExtractionInput) -> ExtractionOutput:
        """Propose candidates; never writes anything."""
