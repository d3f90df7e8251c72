"""Facts go to the person who said them: a labelled two-person transcript through the deterministic extractor
(tests/fixtures/extraction/two_person.json), the LLM extractor's subject mapping, and relative dates."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from shared.domain.extraction.base import ExtractionInput, Message
from shared.domain.extraction.deterministic import DeterministicExtractor
from shared.domain.extraction.llm import LLMExtractor
from shared.domain.extraction.speakers import Speaker
from shared.providers.llm.base import LLMUsage

TRANSCRIPT = Path(__file__).resolve().parents[1] / "fixtures" / "extraction" / "two_person.json"
SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def _extract() -> tuple[dict, list]:
    data = json.loads(TRANSCRIPT.read_text())
    messages = [
        Message("user", t["text"], f"m{i}", SAID, Speaker(t["speaker"]), i)
        for i, t in enumerate(data["turns"])
    ]
    out = DeterministicExtractor().extract(ExtractionInput(messages=messages))
    return data, [c for c in out.candidates if c.is_fact]


def attribution_precision() -> tuple[float, int]:
    """(share of facts filed under the person the turn is about, how many facts)."""
    data, facts = _extract()
    turns = {f"m{i}": t for i, t in enumerate(data["turns"])}
    right = sum(1 for f in facts if turns[f.source_message_ids[0]].get("about") == f.speaker.name)
    return right / len(facts), len(facts)


def test_facts_about_one_speaker_never_name_the_other() -> None:
    data, facts = _extract()
    a, b = data["speakers"]
    assert len(facts) >= 15
    for fact in facts:
        other = b if fact.speaker.name == a else a
        assert other.lower() not in fact.content.lower(), fact.content
        assert fact.content.startswith(fact.speaker.name) and fact.subject == fact.speaker.name.lower()
    precision, _ = attribution_precision()
    assert precision == 1.0


def test_unnamed_messages_stay_the_thread_users() -> None:
    out = DeterministicExtractor().extract(ExtractionInput(messages=[Message("user", "I live in Paris")]))
    assert [(c.content, c.subject, c.speaker) for c in out.candidates if c.is_fact] == [
        ("User lives in Paris", "user", None)
    ]
    assert out.candidates[-1].content == "User: I live in Paris"


def test_relative_dates_resolve_against_when_it_was_said() -> None:
    message = Message("user", "I adopted a puppy yesterday.", "m1", SAID, Speaker("Melanie"), 3)
    out = DeterministicExtractor().extract(ExtractionInput(messages=[message]))
    event = next(c for c in out.candidates if c.predicate == "event")
    episode = next(c for c in out.candidates if not c.is_fact)
    assert event.event_time is not None and event.event_time.date().isoformat() == "2023-05-07"
    assert episode.event_time == SAID and episode.sequence_index == 3
    assert episode.content == "Melanie: I adopted a puppy yesterday."


class _Scripted:
    """An LLM client that answers with one fixed proposal."""

    def __init__(self, answer: dict) -> None:
        self.answer = answer
        self.prompts: list[str] = []

    def complete_json(self, system: str, user: str, schema: dict, *, name: str) -> tuple[dict, LLMUsage]:
        self.prompts.append(user)
        return self.answer, LLMUsage(input_tokens=10, output_tokens=10)


def test_llm_facts_go_to_the_speaker_the_model_names() -> None:
    fact = {"predicate": "hobby", "value": "hiking", "type": "semantic", "importance": 0.6, "relations": []}
    llm = _Scripted(
        {
            "facts": [
                {**fact, "content": "Melanie loves hiking", "subject": "Melanie"},
                {**fact, "content": "User lives in Boston", "subject": "user", "predicate": "lives_in"},
            ],
            "summary": "",
        }
    )
    messages = [
        Message("user", "I love hiking", "m1", SAID, Speaker("Melanie")),
        Message("user", "I live in Boston", "m2", SAID),
    ]
    out = LLMExtractor(llm).extract(ExtractionInput(messages=messages))  # type: ignore[arg-type]
    melanie, user = out.candidates
    assert melanie.speaker == Speaker("Melanie") and melanie.subject == "melanie"
    assert melanie.source_message_ids == ["m1"] and melanie.event_time == SAID
    assert user.speaker is None and user.subject == "user" and user.source_message_ids == []
    assert (
        "user [Melanie, 2023-05-08]: I love hiking" in llm.prompts[0]
        and "\nuser: I live in Boston" in llm.prompts[0]
    )
