"""Request bodies of threads and their messages: who speaks, and when it was said."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from shared.core.fields import (
    ContextId,
    IdleAction,
    Metadata,
    MetadataPatch,
    ObserverId,
    ParentThread,
    Role,
    SubjectId,
    ThreadScope,
    Title,
    UserId,
    WorkspaceId,
)
from shared.domain.requests.base import _Request

# Who may speak in a thread, and when a message may say it was said (shared/domain/extraction/speakers.py).
MAX_SPEAKER_NAME = 128
MAX_PARTICIPANTS = 50
FUTURE_SKEW = timedelta(minutes=5)  # clocks disagree a little; a time further ahead is a mistake
SPEAKER_ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,127}$"


def _speaker_name(value: str | None) -> str | None:
    if value is None:
        return None
    name = " ".join(value.split())
    if not name:
        raise PydanticCustomError("speaker_name_empty", "a speaker name must not be empty or blank")
    return name


def _said_at(value: datetime | None) -> datetime | None:
    """A message's time: naive means UTC; later than now (plus a small skew) is refused."""
    if value is None:
        return None
    when = value if value.tzinfo else value.replace(tzinfo=UTC)
    if when > datetime.now(UTC) + FUTURE_SKEW:
        raise PydanticCustomError(
            "time_in_future",
            "a message cannot have been said after now (+{skew_s} s): {when}",
            {"skew_s": int(FUTURE_SKEW.total_seconds()), "when": when.isoformat()},
        )
    return when


SpeakerName = Annotated[
    str | None,
    Field(
        default=None,
        max_length=MAX_SPEAKER_NAME,
        description="Who said it, as OpenAI's message `name` (1–128 characters; none: the thread's user).",
    ),
]
SpeakerId = Annotated[
    str | None,
    Field(
        default=None,
        pattern=SPEAKER_ID_PATTERN,
        description="A stable id for the speaker (names change; the id keeps their facts together).",
    ),
]


class Participant(_Request):
    name: str = Field(min_length=1, max_length=MAX_SPEAKER_NAME, description="The person's name.")
    speaker_id: SpeakerId = None
    user_id: UserId = None

    _name = field_validator("name")(classmethod(lambda cls, v: _speaker_name(v)))


class ThreadCreate(_Request):
    id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$",
        description="The thread's id (generated when left out).",
    )
    workspace_id: WorkspaceId = None
    user_id: UserId = None
    context_id: ContextId = None
    observer_id: ObserverId = None
    subject_id: SubjectId = None
    title: Title = Field(default=None, max_length=1000)
    metadata: Metadata = Field(default_factory=dict)
    expires_at: datetime | None = Field(default=None, description="When it expires (ISO-8601 UTC).")
    idle_action: IdleAction = None
    scope: ThreadScope = None
    ownership: str = Field(
        default="user", description="Who owns the thread: `user` (default) or `workspace`."
    )
    parent_thread: ParentThread = None
    participants: list[Participant] = Field(
        default_factory=list,
        max_length=MAX_PARTICIPANTS,
        description="Who takes part: `{name, speaker_id?, user_id?}`; a message naming one of them is theirs.",
    )


class ThreadUpdate(_Request):
    title: Title = Field(default=None, max_length=1000)
    metadata: MetadataPatch = None
    idle_action: IdleAction = None


class ContentPart(_Request):
    type: str = Field(min_length=1, description="The part's kind, e.g. `text` or `image`.")
    text: str | None = Field(default=None, description="The part's text.")
    data: dict[str, Any] | None = Field(default=None, description="The part's structured data.")


class MessageCreate(_Request):
    id: str | None = Field(
        default=None,
        min_length=1,
        max_length=255,
        description="Your id for the message: appending it again is a no-op.",
    )
    role: Role = Field(min_length=1, max_length=64)
    content: str | list[ContentPart] = Field(
        description="A string, or a list of content parts `{type, text?, data?}`."
    )
    metadata: Metadata = Field(default_factory=dict)
    name: SpeakerName = None
    speaker_id: SpeakerId = None
    created_at: datetime | None = Field(
        default=None,
        description="When it was said (ISO-8601; naive is UTC; at most 5 minutes ahead). Default: now.",
    )
    occurred_at: datetime | None = Field(
        default=None, description="Same as `created_at` (either may be sent)."
    )

    _name = field_validator("name")(classmethod(lambda cls, v: _speaker_name(v)))
    _times = field_validator("created_at", "occurred_at")(classmethod(lambda cls, v: _said_at(v)))

    @model_validator(mode="after")
    def _one_time(self) -> MessageCreate:
        if self.created_at and self.occurred_at and self.created_at != self.occurred_at:
            raise PydanticCustomError("conflicting_times", "created_at and occurred_at name different times")
        return self

    @property
    def said_at(self) -> datetime | None:
        return self.occurred_at or self.created_at


class MessagesAppend(_Request):
    messages: list[MessageCreate] = Field(min_length=1, max_length=500, description="The messages, by index.")

    @model_validator(mode="after")
    def _speakers_capped(self) -> MessagesAppend:
        speakers = {
            (m.speaker_id or "", (m.name or "").casefold()) for m in self.messages if m.name or m.speaker_id
        }
        if len(speakers) > MAX_PARTICIPANTS:
            raise PydanticCustomError(
                "too_many_participants",
                "{n} speakers in one append; a thread has at most {cap} participants",
                {"n": len(speakers), "cap": MAX_PARTICIPANTS},
            )
        return self
