"""LLM extraction: the model proposes facts as JSON (schema-constrained, pydantic-validated); code decides.

    >>> extractor = LLMExtractor(create_llm(settings))                               # doctest: +SKIP
    >>> extractor.extract(ExtractionInput(messages=[Message("user", "I moved to Berlin")])).candidates  # doctest: +SKIP

The prompt is bounded: the thread's rolling summary, the last few messages for context, the new messages, and
existing memories as small integer handles ([1], [2], …). The model never sees or invents memory ids.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from shared.core.errors import ServiceUnavailable
from shared.core.names import normalize_entity_type
from shared.domain.extraction.base import ExtractionInput, ExtractionOutput, Extractor, Message, Usage
from shared.domain.extraction.candidates import MULTI_VALUED, SINGLE_VALUED, Candidate
from shared.domain.relations.canonical import canonicalize
from shared.domain.requests import EntityRelationInput
from shared.providers.llm.base import LLMClient

SYSTEM = (
    "You extract durable memories about the user from a conversation. Propose only facts stated or clearly "
    "implied by the NEW messages. For single-valued facts use predicate one of: "
    + ", ".join(sorted(SINGLE_VALUED))
    + "; for facts that accumulate use one of: "
    + ", ".join(MULTI_VALUED)
    + "; otherwise use a short "
    "snake_case predicate. Write `content` as one self-contained sentence about the user. A message prefixed "
    "with a name in brackets was said by that person: their facts have `subject` set to that name exactly and "
    '`content` naming them ("I" is the speaker); `subject` is `user` for unnamed messages. Known memories are '
    "listed with handles like [3]; do not repeat a known memory unless its value changed. For each fact, list "
    "the typed relations between named entities it states (relationship such as employed_by, member_of, "
    "located_in, owns, reports_to, founded, part_of, depends_on; entity types person, org, project, place, "
    "artifact, concept), with `quote` copied verbatim from a NEW message; an empty list if none. Also return an "
    "updated one-paragraph summary of the whole conversation."
)


class ProposedRelation(BaseModel):
    source: str = Field(min_length=1, max_length=200)
    source_type: str = Field(min_length=1, max_length=64)
    relationship: str = Field(min_length=1, max_length=64)
    target: str = Field(min_length=1, max_length=200)
    target_type: str = Field(min_length=1, max_length=64)
    quote: str = Field(min_length=1, max_length=500)


class ProposedFact(BaseModel):
    content: str = Field(min_length=1, max_length=1000)
    subject: str = Field(min_length=1, max_length=100)
    predicate: str = Field(min_length=1, max_length=60, pattern=r"^[a-z][a-z0-9_]*$")
    value: str = Field(min_length=1, max_length=500)
    type: Literal["semantic", "episodic", "procedural"]
    importance: float = Field(ge=0, le=1)
    # Required in the strict schema; a reply without it (an older prompt) still validates.
    relations: list[ProposedRelation] = Field(default_factory=list, max_length=10)


class Proposal(BaseModel):
    facts: list[ProposedFact] = Field(max_length=50)
    summary: str = Field(max_length=4000)


def _schema() -> dict:
    """A strict JSON schema (every property required, no extras), as OpenAI's strict mode wants."""
    relation = {
        "type": "object",
        "additionalProperties": False,
        "required": ["source", "source_type", "relationship", "target", "target_type", "quote"],
        "properties": {k: {"type": "string"} for k in ("source", "source_type", "relationship", "target",
                                                        "target_type", "quote")},
    }  # fmt: skip
    fact = {
        "type": "object",
        "additionalProperties": False,
        "required": ["content", "subject", "predicate", "value", "type", "importance", "relations"],
        "properties": {
            "relations": {"type": "array", "items": relation},
            "content": {"type": "string"},
            "subject": {"type": "string"},
            "predicate": {"type": "string"},
            "value": {"type": "string"},
            "type": {"type": "string", "enum": ["semantic", "episodic", "procedural"]},
            "importance": {"type": "number"},
        },
    }
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["facts", "summary"],
        "properties": {"facts": {"type": "array", "items": fact}, "summary": {"type": "string"}},
    }


SCHEMA = _schema()


def _line(m: Message) -> str:
    """``user: text`` for the thread's user (as before speakers), ``user [Melanie, 2023-05-08]: text`` else."""
    tags = [m.speaker.label] if m.speaker is not None else []
    if m.speaker is not None and m.created_at is not None:
        tags.append(m.created_at.date().isoformat())
    return f"{m.role}{' [' + ', '.join(tags) + ']' if tags else ''}: {m.text}"


def render_prompt(data: ExtractionInput) -> str:
    known = "\n".join(f"[{i}] {fact}" for i, fact in enumerate(data.known_facts, start=1)) or "(none)"
    recent = "\n".join(_line(m) for m in data.recent) or "(none)"
    new = "\n".join(_line(m) for m in data.messages)
    return (
        f"Conversation summary so far:\n{data.summary or '(none)'}\n\n"
        f"Earlier messages (context only):\n{recent}\n\n"
        f"Known memories:\n{known}\n\n"
        f"NEW messages:\n{new}\n"
    )


class LLMExtractor(Extractor):
    name = "llm"

    def __init__(self, llm: LLMClient) -> None:
        self.llm = llm

    def extract(self, data: ExtractionInput, *, max_tokens: int | None = None) -> ExtractionOutput:
        kwargs = {"max_tokens": max_tokens} if max_tokens else {}
        raw, usage = self.llm.complete_json(
            SYSTEM, render_prompt(data), SCHEMA, name="memory_extraction", **kwargs
        )
        try:
            proposal = Proposal.model_validate(raw)
        except ValidationError as exc:
            # A malformed answer is a failed attempt (retried by the queue), never a partial write.
            raise ServiceUnavailable(
                f"LLM returned output outside the schema: {json.dumps(exc.errors()[:3], default=str)[:500]}",
                code="llm_invalid_output",
            ) from exc
        candidates = []
        for f in proposal.facts:
            said = attributed(f.subject, data)
            speaker = said.speaker if said is not None else None
            candidates.append(
                Candidate(
                    content=f.content,
                    subject=f.subject.lower() if speaker is None else speaker.key,
                    predicate=f.predicate,
                    value=f.value,
                    type=f.type,
                    subtype="fact",
                    importance=f.importance,
                    relations=grounded_relations(f.relations, data),
                    speaker=speaker,
                    event_time=said.created_at if said is not None else None,
                    # A named speaker's fact cites their message; the thread user's, the whole batch (as before).
                    source_message_ids=[said.message_id]
                    if speaker is not None and said and said.message_id
                    else [],
                )
            )
        return ExtractionOutput(
            candidates=candidates,
            summary=proposal.summary or data.summary,
            usage=Usage(calls=1, input_tokens=usage.input_tokens, output_tokens=usage.output_tokens),
        )


def attributed(subject: str, data: ExtractionInput) -> Message | None:
    """The latest new message whose speaker the model named as the fact's ``subject``; for "user" (or a name
    no one in the new messages has) the latest unnamed message, when there is one. None: no message to date it by.

    >>> from shared.domain.extraction.speakers import Speaker
    >>> msgs = [Message("user", "I paint", "m1", speaker=Speaker("Melanie")), Message("user", "I hike", "m2")]
    >>> [attributed(s, ExtractionInput(messages=msgs)).message_id for s in ("melanie", "user")]
    ['m1', 'm2']
    """
    wanted = subject.strip().casefold()
    named = [m for m in data.messages if m.speaker is not None and m.speaker.label.casefold() == wanted]
    unnamed = [m for m in data.messages if m.speaker is None]
    found = named or unnamed
    return found[-1] if found else None


def grounded_relations(proposed: list[ProposedRelation], data: ExtractionInput) -> list[EntityRelationInput]:
    """The model's relations that are grounded: a known relationship name, kinds that are kinds, and a quote
    found verbatim (whitespace and case aside) in the new messages. Anything else is dropped, not guessed at.

    >>> from shared.domain.extraction.base import Message
    >>> msg = ExtractionInput(messages=[Message("user", "I joined Acme  Corp as an engineer")])
    >>> r = ProposedRelation(source="user", source_type="person", relationship="employed by", target="Acme Corp",
    ...                      target_type="org", quote="joined acme corp")
    >>> [x.relationship for x in grounded_relations([r], msg)], grounded_relations([r.model_copy(update={"quote": "Beta"})], msg)
    (['employed by'], [])
    """
    said = " ".join(" ".join(m.text.split()).casefold() for m in data.messages)
    out = []
    for rel in proposed:
        kinds = [normalize_entity_type(rel.source_type), normalize_entity_type(rel.target_type)]
        if (
            canonicalize(rel.relationship) is None
            or None in kinds
            or " ".join(rel.quote.split()).casefold() not in said
        ):
            continue
        out.append(
            EntityRelationInput(
                source_entity_name=rel.source,
                source_entity_type=kinds[0],
                target_entity_name=rel.target,
                target_entity_type=kinds[1],
                relationship=rel.relationship,
                evidence_kind="generated",
                extraction_method="llm_extraction",
                confidence=0.8,
            )  # fmt: skip
        )
    return out
