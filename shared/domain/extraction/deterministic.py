"""Rule-based extraction with no model: the facts people state about themselves (``shared.domain.extraction.rules``;
predicates in docs/extraction.md), plus an episodic memory per exchange (a user message and the assistant's
reply) and the typed relations it states plainly.

    >>> facts = DeterministicExtractor().facts("My name is Dana and I live in Paris.")
    >>> [(c.predicate, c.value) for c in facts]
    [('name', 'Dana'), ('lives_in', 'Paris')]
"""

from __future__ import annotations

import re

from shared.domain.extraction.base import ExtractionInput, ExtractionOutput, Extractor, Message
from shared.domain.extraction.candidates import Candidate
from shared.domain.extraction.rules import facts_in
from shared.domain.extraction.rules.sentences import MAX_SENTENCE_CHARS, MAX_SENTENCES, MAX_TEXT_CHARS
from shared.domain.extraction.rules.when import resolve
from shared.domain.extraction.speakers import Speaker
from shared.domain.requests import EntityRelationInput

# How each predicate reads as a memory; a predicate not listed reads "User <predicate>: <value>".
TEMPLATES = {
    "name": "User's name is {}", "lives_in": "User lives in {}", "employer": "User works at {}",
    "job_title": "User works as {}", "age": "User is {} years old", "birthday": "User's birthday is {}",
    "partner": "User's partner is {}", "likes": "User likes {}", "dislikes": "User dislikes {}",
    "diet": "User's diet: {}", "avoids": "User avoids {}", "hobby": "User's hobby: {}",
    "allergy": "User is allergic to {}", "health_condition": "User has {}", "medication": "User takes {}",
    "former_employer": "User used to work at {}", "school": "User studied at {}", "studies": "User studies {}",
    "marital_status": "User is {}", "family": "User's family: {}", "pet": "User has a pet: {}",
    "hometown": "User is from {}", "lived_in": "User used to live in {}", "visited": "User has been to {}",
    "event": "User {}", "plan": "User plans to {}",
}  # fmt: skip
PREFERENCES = frozenset({"likes", "dislikes", "diet", "avoids", "hobby"})
SUBTYPES = {"event": "event", "plan": "plan"}
DATED = frozenset({"event", "plan"})  # predicates whose value may say when, relative to the message

EPISODE_MAX_CHARS = 600
# The memory reads in the third person: "User plans to visit my mom" would read as the reader's mother.
_FIRST_PERSON = {"my": "their", "mine": "theirs", "myself": "themselves", "me": "them"}
_FIRST_PERSON_RE = re.compile(r"\b(my|mine|myself|me)\b", re.IGNORECASE)


def third_person(value: str) -> str:
    """``value`` with the speaker's first-person words in the third person.

    >>> third_person("take my dog to see me play")
    'take their dog to see them play'
    """
    return _FIRST_PERSON_RE.sub(lambda m: _FIRST_PERSON[m.group(1).lower()], value)


class DeterministicExtractor(Extractor):
    name = "deterministic"

    def facts(self, text: str, speaker: Speaker | None = None) -> list[Candidate]:
        """The facts ``text`` states about whoever said it (``shared.domain.extraction.rules``; "I" is the
        speaker), as candidates: the thread's user's when ``speaker`` is None, else filed under the speaker."""
        out: list[Candidate] = []
        who = _label(speaker)
        for fact in facts_in(text):
            template = TEMPLATES.get(fact.predicate, "User " + fact.predicate.replace("_", " ") + ": {}")
            subtype = (
                "preference" if fact.predicate in PREFERENCES else SUBTYPES.get(fact.predicate, "profile")
            )
            content = who + template.format(third_person(fact.value))[len("User") :]
            subject = "user" if speaker is None else speaker.key
            out.append(Candidate(content=content, subject=subject, predicate=fact.predicate, value=fact.value,
                                 subtype=subtype, importance=0.7, speaker=speaker))  # fmt: skip
        return out

    def extract(self, data: ExtractionInput) -> ExtractionOutput:
        candidates: list[Candidate] = []
        messages = data.messages
        said = {
            i: self.facts(m.text, m.speaker)
            for i, m in enumerate(messages)
            if m.role == "user" and m.text.strip()
        }
        user_name = _speaker_name(data, [f for facts in said.values() for f in facts if f.speaker is None])
        for i, facts in said.items():
            message = messages[i]
            reply = next((m for m in messages[i + 1 :] if m.role == "assistant"), None)
            sources = [m.message_id for m in (message, reply) if m is not None and m.message_id]
            for fact in facts:
                fact.source_message_ids = sources[:1]
                fact.event_time = message.created_at
                if fact.predicate in DATED:  # "I adopted a puppy yesterday": the day before it was said
                    fact.event_time = resolve(fact.value or "", message.created_at) or message.created_at
                candidates.append(fact)
            episode = _episode(message, reply)
            episode.source_message_ids = sources
            episode.speaker = message.speaker
            if message.speaker is not None:  # a turn among people: recall's neighbouring-turn cue reads it
                episode.sequence_index = message.index
            speaker = user_name if message.speaker is None else message.speaker.name
            prefix = len(_label(message.speaker)) + 2
            episode.relations = _episode_relations(message.text, episode.content, speaker, prefix)
            candidates.append(episode)
        return ExtractionOutput(candidates=candidates, summary=data.summary)


def _label(speaker: Speaker | None) -> str:
    return "User" if speaker is None else speaker.label


def _episode(user: Message, reply: Message | None) -> Candidate:
    content = f"{_label(user.speaker)}: {user.text.strip()}"
    if reply is not None and reply.text.strip():
        content += f"\nAssistant: {reply.text.strip()}"
    if len(content) > EPISODE_MAX_CHARS:
        content = content[: EPISODE_MAX_CHARS - 1] + "…"
    return Candidate(content=content, type="episodic", subtype="event", importance=0.4,
                     event_time=user.created_at, metadata={"kind": "exchange"})  # fmt: skip


# ---------------------------------------------------------------------------------------------- relations
# Precision over recall: present-tense statements only, both ends capitalised names, the canonical relationship
# and the kinds it joins. "works at" and friends never match "no longer works", "doesn't work", "used to work".
_ORG = r"(?:the\s+)?([A-Z][\w&'.-]*(?:[ \t]+[A-Z][\w&'.-]*){0,3})"
_SUBJ = r"([A-Z][\w'-]*(?:[ \t]+[A-Z][\w'-]*){0,3})"
_ME = r"\b(I)"
# (relationship, source kind, target kind, third-person verb phrase, first-person verb phrase)
RELATION_RULES: list[tuple[str, str, str, str, str]] = [
    ("employed_by", "person", "org", r"(?:works|is\s+employed)\s+(?:at|for|by)", r"(?:work|am\s+employed|'m\s+employed)\s+(?:at|for|by)"),
    ("located_in", "person", "place", r"(?:lives|resides|is\s+based)\s+in", r"(?:live|reside|am\s+based|'m\s+based)\s+in"),
    ("member_of", "person", "org", r"is\s+(?:a\s+)?member\s+of", r"(?:am|'m)\s+(?:a\s+)?member\s+of"),
    ("founded", "person", "org", r"founded", r"founded"),
]  # fmt: skip
_COMPILED = [
    (rel, src, dst, re.compile(rf"{who}\s+{verb}\s+{_ORG}"))
    for rel, src, dst, third, first in RELATION_RULES
    for who, verb in ((_SUBJ, third), (_ME, first))
]
# A line that ends with no full stop states no sentence (only the text's last line may). Matched here as ``cut``
# and skipped: the pattern without that branch backtracked over the whole line from each of its characters.
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$|(?P<cut>(?=\n)))")
# A sentence with one of these words before the relation is a hedge, a condition or a negation: skipped.
_HEDGES = frozenset({
    "if", "unless", "whether", "suppose", "supposing", "imagine", "maybe", "perhaps", "probably", "possibly",
    "might", "may", "could", "would", "should", "not", "never", "no", "nor", "n't", "don't", "doesn't", "didn't",
    "isn't", "wasn't", "won't", "wouldn't", "hope", "hopes", "wish", "wishes", "want", "wants", "plan", "plans",
    "planning",
})  # fmt: skip
_AFTER_NEGATION = re.compile(r"\W*(?:no\s+more|no\s+longer|any\s*more)\b", re.I)
_QUESTION_START = frozenset({
    "who", "what", "where", "which", "when", "why", "how", "does", "did", "do", "is", "are", "was", "were", "can",
    "could",
})  # fmt: skip
# Capitalised words at a sentence's start that are not names ("Today Bob works at Acme" is about Bob).
_LEADING = re.compile(
    r"(?:(?:today|yesterday|now|currently|also|and|but|so|then|still|actually|well|oh|yes|the|a|an)"
    r"(?:[ \t]+|$))+",
    re.I,
)
_PRONOUNS = frozenset({
    "he", "she", "they", "it", "we", "you", "i", "this", "that", "there",
})  # fmt: skip
RELATION_CONFIDENCE = 0.85


def _episode_relations(
    text: str, content: str, speaker: str | None, prefix: int = len("User: ")
) -> list[EntityRelationInput]:
    """The relations of a user message, as inputs whose spans point into its episode's ``content``; a span
    the episode's truncation cut is dropped, so the writer's span check never sees a bad one."""
    shift = prefix - (len(text) - len(text.lstrip()))
    out = []
    for relationship, source, src_kind, target, dst_kind, start, end in relations_in(text, speaker):
        start, end = start + shift, end + shift
        if content[start:end] != text[start - shift : end - shift]:
            continue
        out.append(
            EntityRelationInput(
                source_entity_name=source,
                source_entity_type=src_kind,
                target_entity_name=target,
                target_entity_type=dst_kind,
                relationship=relationship,
                confidence=RELATION_CONFIDENCE,
                source_span_start=start,
                source_span_end=end,
                evidence_kind="pattern",
                extraction_method="deterministic_extraction",
            )  # fmt: skip
        )
    return out


def _speaker_name(data: ExtractionInput, new_facts: list[Candidate]) -> str | None:
    """The user's name when the conversation or a known memory states it; a first-person relation needs it.
    ``new_facts``: those of the new messages, in order (already extracted: the rules do not run twice)."""
    name = None
    for fact in data.known_facts:
        match = re.match(r"User's name is (.+)$", fact.strip())
        if match:
            name = match.group(1).strip(" .")
    said = [
        f.value for m in data.recent if m.role == "user" for f in facts_in(m.text) if f.predicate == "name"
    ]
    said += [c.value for c in new_facts if c.predicate == "name" and c.value]
    return said[-1] if said else name


_WORD = re.compile(r"[\w']+")


def _hedged_at(body: str, start: int, source: str) -> bool:
    """A hedge in the source's words, or in the part before ``start`` of a word ``start`` cuts (the words wholly
    before ``start`` are the caller's test)."""
    if _HEDGES.intersection(_WORD.findall(source.lower())):
        return True
    begin = start
    while begin > 0 and _WORD.match(body[begin - 1]):
        begin -= 1
    return begin < start and body[begin:start].lower() in _HEDGES


def relations_in(text: str, speaker: str | None = None) -> list[tuple[str, str, str, str, str, int, int]]:
    """The relations ``text`` states plainly: (relationship, source, source kind, target, target kind, start,
    end), the span covering source to target. A first-person statement is the ``speaker``'s, if named.

    >>> [r[:5] for r in relations_in("Today Bob Stone works at Acme Corp. Ann lives in Paris.")]
    [('employed_by', 'Bob Stone', 'person', 'Acme Corp', 'org'), ('located_in', 'Ann', 'person', 'Paris', 'place')]
    >>> relations_in("Does Bob work at Acme?"), relations_in("Bob no longer works at Acme."), relations_in("If Bob works at Acme, fine.")
    ([], [], [])
    """
    found: list[tuple[str, str, str, str, str, int, int]] = []
    for n, sentence in enumerate(_SENTENCE.finditer(text)):
        # the rules' bounds (rules.sentences): spans index into ``text``, so its whitespace is read as it is
        if n >= MAX_SENTENCES or sentence.start() >= MAX_TEXT_CHARS:
            break
        body = sentence.group(0)
        if len(body) > MAX_SENTENCE_CHARS or sentence.group("cut") is not None:
            continue
        words = [(w.group(0).lower(), w.end()) for w in _WORD.finditer(body)]
        if not words or body.rstrip().endswith("?") or words[0][0] in _QUESTION_START:
            continue
        # where the first hedge ends: a relation after it is hedged (found once, not per match)
        hedged_from = next((end for word, end in words if word in _HEDGES), len(body) + 1)
        for relationship, src_kind, dst_kind, pattern in _COMPILED:
            for match in pattern.finditer(body):
                # "and lives in Paris" continues the sentence's subject: "Bob works at Acme and lives in Paris".
                source, start = match.group(1), match.start(1)
                if source == "I":
                    if speaker is None:
                        continue
                    source = speaker
                else:
                    skip = m.end() if (m := _LEADING.match(source)) else 0
                    source, start = source[skip:], start + skip
                    if not source or source.lower() in _PRONOUNS:
                        continue
                hedged = hedged_from <= match.start() or _hedged_at(body, match.start(), source)
                if hedged or _AFTER_NEGATION.match(body, match.end()):
                    continue
                target = match.group(2).rstrip(".'")
                if not target or target.lower() == source.lower():
                    continue
                offset = sentence.start()
                found.append((relationship, source, src_kind, target, dst_kind, offset + start,
                              offset + match.start(2) + len(target)))  # fmt: skip
    return found
