"""Who said a message: a thread's participants, and the speaker each message names.

    >>> people = merge_participants([{"name": "Caroline", "user_id": "u_caro"}], [("Melanie", None)])
    >>> [p["name"] for p in people]
    ['Caroline', 'Melanie']
    >>> speaker_of(people, "caroline", None)
    Speaker(name='Caroline', speaker_id=None, user_id='u_caro')
    >>> speaker_of(people, None, None) is None
    True

A message that names no one is the thread's user's (``None``), as before threads had speakers. A named speaker
is matched to a participant by speaker id, else by name (case aside); the participant's ``user_id``, when
known, is whose memory the speaker's facts become. The list is capped (``MAX_PARTICIPANTS``): a transcript
with more voices than that is a mistake or an abuse, refused before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from shared.core.errors import InvalidInput
from shared.domain.requests import MAX_PARTICIPANTS


@dataclass(frozen=True)
class Speaker:
    name: str | None
    speaker_id: str | None = None
    user_id: str | None = None

    @property
    def label(self) -> str:
        """How the speaker reads in a memory: their name ("Melanie likes hiking")."""
        return self.name or self.speaker_id or "User"

    @property
    def key(self) -> str:
        """The fact subject for this speaker: stable across spellings of the name when an id is given."""
        return (self.speaker_id or self.name or "user").casefold()


def _matches(p: dict[str, Any], name: str | None, speaker_id: str | None) -> bool:
    if speaker_id and p.get("speaker_id"):
        return bool(p["speaker_id"] == speaker_id)
    return bool(name) and str(p.get("name", "")).casefold() == (name or "").casefold()


def speaker_of(
    participants: list[dict[str, Any]], name: str | None, speaker_id: str | None
) -> Speaker | None:
    """The speaker a message names (its participant's fields filled in), or None for the thread's user."""
    if not name and not speaker_id:
        return None
    for p in participants:
        if _matches(p, name, speaker_id):
            return Speaker(p.get("name") or name, p.get("speaker_id") or speaker_id, p.get("user_id"))
    return Speaker(name, speaker_id)


def merge_participants(
    participants: list[dict[str, Any]], named: Iterable[tuple[str | None, str | None]]
) -> list[dict[str, Any]]:
    """``participants`` plus each (name, speaker id) not yet among them, in order. Raises ``InvalidInput``
    (``too_many_participants``) past the cap, so the caller writes nothing."""
    out = [dict(p) for p in participants]
    for name, speaker_id in named:
        if not name and not speaker_id:
            continue
        found = next((p for p in out if _matches(p, name, speaker_id)), None)
        if found is None:
            out.append({k: v for k, v in (("name", name or speaker_id), ("speaker_id", speaker_id)) if v})
        elif speaker_id and not found.get("speaker_id"):
            found["speaker_id"] = speaker_id
    if len(out) > MAX_PARTICIPANTS:
        raise InvalidInput(
            f"a thread has at most {MAX_PARTICIPANTS} participants; these messages would make {len(out)}",
            code="too_many_participants",
            limit=MAX_PARTICIPANTS,
        )
    return out
