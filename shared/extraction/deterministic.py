"""Rule-based extraction with no model: common single-value facts about the user, plus an episodic memory
per exchange (a user message and the assistant's reply).

    >>> facts = DeterministicExtractor().facts("My name is Dana and I live in Paris.")
    >>> [(c.predicate, c.value) for c in facts]
    [('name', 'Dana'), ('lives_in', 'Paris')]
"""

from __future__ import annotations

import re

from shared.extraction.base import ExtractionInput, ExtractionOutput, Extractor, Message
from shared.extraction.candidates import Candidate

_NAME = r"([A-Z][\w'-]+(?: [A-Z][\w'-]+){0,3})"
_PLACE = r"([A-Z][\w.'-]+(?:[ ,]+[A-Z][\w.'-]+){0,3})"
_THING = r"([\w][\w '&/+-]{1,60}?)"
_END = r"(?=\s*(?:[.,;!?]|\band\b|\bbut\b|\bso\b|$))"

# (predicate, pattern, content template); the first group is the value.
RULES: list[tuple[str, re.Pattern[str], str]] = [
    ("name", re.compile(rf"\b(?i:my name is|call me|my name's)\s+{_NAME}"), "User's name is {}"),
    ("lives_in", re.compile(rf"\b(?i:I live in|I'm living in|I am living in|I moved to|I've moved to|I have moved to|"
                            rf"I'm based in|I am based in|I relocated to)\s+{_PLACE}"), "User lives in {}"),
    ("employer", re.compile(rf"\b(?i:I work (?:at|for)|I'm employed (?:at|by)|I am employed (?:at|by)|"
                            rf"I joined)\s+{_PLACE}"), "User works at {}"),
    ("job_title", re.compile(rf"\b(?:I work as an?|I'm employed as an?|my job title is|my job is|my role is)\s+"
                             rf"{_THING}{_END}", re.I), "User works as {}"),
    ("age", re.compile(r"\b(?:I am|I'm)\s+(\d{1,3})\s+years? old\b", re.I), "User is {} years old"),
    ("birthday", re.compile(rf"\b(?:my birthday is(?: on)?|I was born on)\s+{_THING}{_END}", re.I),
     "User's birthday is {}"),
    ("partner", re.compile(rf"\b(?i:my (?:wife|husband|partner|girlfriend|boyfriend|spouse)(?:'s name)? is|"
                           rf"I'm married to|I am married to)\s+{_NAME}"), "User's partner is {}"),
    ("likes", re.compile(rf"\b(?:I (?:really )?(?:like|love|enjoy|prefer)|my favou?rite \w+ is)\s+{_THING}{_END}",
                         re.I), "User likes {}"),
]  # fmt: skip

EPISODE_MAX_CHARS = 600


class DeterministicExtractor(Extractor):
    name = "deterministic"

    def facts(self, text: str) -> list[Candidate]:
        out: list[Candidate] = []
        for predicate, pattern, template in RULES:
            for match in pattern.finditer(text):
                value = match.group(1).strip(" .,'")
                if not value:
                    continue
                subtype = "preference" if predicate == "likes" else "profile"
                out.append(Candidate(content=template.format(value), subject="user", predicate=predicate,
                                     value=value, subtype=subtype, importance=0.7))  # fmt: skip
        return out

    def extract(self, data: ExtractionInput) -> ExtractionOutput:
        candidates: list[Candidate] = []
        messages = data.messages
        for i, message in enumerate(messages):
            if message.role != "user" or not message.text.strip():
                continue
            reply = next((m for m in messages[i + 1 :] if m.role == "assistant"), None)
            sources = [m.message_id for m in (message, reply) if m is not None and m.message_id]
            for fact in self.facts(message.text):
                fact.source_message_ids = sources[:1]
                fact.event_time = message.created_at
                candidates.append(fact)
            episode = _episode(message, reply)
            episode.source_message_ids = sources
            candidates.append(episode)
        return ExtractionOutput(candidates=candidates, summary=data.summary)


def _episode(user: Message, reply: Message | None) -> Candidate:
    content = f"User: {user.text.strip()}"
    if reply is not None and reply.text.strip():
        content += f"\nAssistant: {reply.text.strip()}"
    if len(content) > EPISODE_MAX_CHARS:
        content = content[: EPISODE_MAX_CHARS - 1] + "…"
    return Candidate(content=content, type="episodic", subtype="event", importance=0.4,
                     event_time=user.created_at, metadata={"kind": "exchange"})  # fmt: skip
