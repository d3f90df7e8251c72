"""Threads, their messages, and background jobs (/v1/threads, /v1/jobs)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.fields import (
    CreatedAt,
    ErrorText,
    ExpiresAt,
    InWorkspace,
    ObjectId,
    TenantId,
    UpdatedAt,
)
from shared.core.fields import (
    ContextId,
    IdleAction,
    Metadata,
    ObserverId,
    ParentThread,
    Role,
    SubjectId,
    ThreadScope,
    Title,
    UserId,
)


class Thread(Wire):
    id: ObjectId
    workspace_id: InWorkspace
    tenant_id: TenantId
    user_id: UserId
    context_id: ContextId
    observer_id: ObserverId
    subject_id: SubjectId
    title: Title
    metadata: Metadata
    scope: ThreadScope
    ownership: str | None = Field(description="Who owns the thread: `user` (default) or `workspace`.")
    parent_thread: ParentThread
    message_count: int = Field(description="Messages in the thread.")
    last_decomposed_index: int | None = Field(description="The last message index extraction has read.")
    idle_action: IdleAction
    summary: str | None = Field(description="A summary of the thread (null: none yet).")
    last_decomposed_at: Timestamp | None = Field(description="When extraction last ran.")
    expires_at: ExpiresAt
    hidden_at: Timestamp | None = Field(description="When the thread was hidden (null: visible).")
    participants: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Who takes part: `{name, speaker_id?, user_id?}`, as created and as messages named them.",
    )
    created_at: CreatedAt
    updated_at: UpdatedAt

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Thread:
        return cls.pick(row)


class ThreadEnvelope(Thread):
    """The thread wrapped, as the reference, and flat too: SDK 0.2.1 builds ``ChatThread(**data)``."""

    thread: Thread = Field(description="The thread.")

    @classmethod
    def of(cls, row: dict[str, Any]) -> ThreadEnvelope:
        thread = Thread.from_row(row)
        return cls.model_construct(thread=thread, **dict(thread))


class ThreadList(Wire):
    threads: list[Thread] = Field(description="The threads.")
    total_count: int = Field(description="The number of threads on this page.")


class Message(Wire):
    id: ObjectId
    thread_id: str = Field(description="The thread.")
    message_index: int = Field(description="0-based position in the thread.")
    role: Role
    content: Any = Field(description="A string, or a list of content parts `{type, text?, data?}`.")
    metadata: Metadata
    client_message_id: str | None = Field(description="The `id` the client gave the message, if any.")
    name: str | None = Field(default=None, description="Who said it (absent: the thread's user).")
    speaker_id: str | None = Field(default=None, description="The speaker's stable id, if given.")
    occurred_at: Timestamp | None = Field(
        default=None, description="When it was said, if the client said so (absent: when it was stored)."
    )
    created_at: CreatedAt = Field(description="When it was said: `occurred_at` when given, else when stored.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Message:
        said = row.get("occurred_at")
        return cls.pick(row, name=row.get("speaker_name"), created_at=said or row["created_at"])


class ThreadFull(Wire):
    thread: Thread = Field(description="The thread.")
    messages: list[Message] = Field(description="The messages, by index.")
    total_messages: int = Field(description="Messages in the thread.")


class MessagesAppended(Wire):
    messages: list[Message] = Field(description="The messages, by index.")
    thread_id: str = Field(description="The thread.")
    new_message_count: int = Field(description="Messages the extraction job will read.")
    job_id: str | None = Field(
        description="The extraction job to poll at /v1/jobs/{job_id}, if one was queued."
    )


class MessagePage(Wire):
    messages: list[Message] = Field(description="The messages, by index.")
    thread_id: str = Field(description="The thread.")
    total_count: int = Field(description="How many messages the thread has.")


class Decomposed(Wire):
    thread_id: str = Field(description="The thread.")
    workspace_id: InWorkspace
    messages_processed: int = Field(description="Messages extraction read now.")
    memories_created: int = Field(description="Memories added or superseding older ones.")
    from_index: int = Field(description="First message index read.")
    to_index: int = Field(description="One past the last message index read (`from_index` when none was).")
    job_id: str | None = Field(
        description="The extraction job that ran (null when nothing was left to read)."
    )


class Job(Wire):
    id: ObjectId
    job_id: str = Field(description="Same as `id` (the SDK reads `job_id`).")
    workspace_id: InWorkspace
    thread_id: str | None = Field(description="The thread.")
    from_index: int | None = Field(description="First message index the job reads.")
    to_index: int | None = Field(description="Last message index the job reads.")
    status: str = Field(description="queued, running, succeeded or failed.")
    attempts: int = Field(description="How many times the job ran.")
    error: ErrorText
    result: dict[str, Any] | None = Field(description="What the job produced (null until it finishes).")
    created_at: CreatedAt
    started_at: Timestamp | None = Field(description="When the job started.")
    finished_at: Timestamp | None = Field(description="When the job finished.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Job:
        return cls.pick(row, job_id=row["id"])


class JobEnvelope(Job):
    job: Job = Field(description="The job.")
