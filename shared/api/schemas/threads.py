"""Threads, their messages, and background jobs (/v1/threads, /v1/jobs)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire


class Thread(Wire):
    id: str
    workspace_id: str
    tenant_id: str
    user_id: str | None
    context_id: str | None
    observer_id: str | None
    subject_id: str | None
    title: str | None
    metadata: dict[str, Any]
    scope: str | None
    ownership: str | None
    parent_thread: str | None
    message_count: int
    last_decomposed_index: int | None
    idle_action: str | None
    summary: str | None
    last_decomposed_at: Timestamp | None
    expires_at: Timestamp | None
    hidden_at: Timestamp | None
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Thread:
        return cls.pick(row)


class ThreadEnvelope(Wire):
    thread: Thread


class ThreadList(Wire):
    threads: list[Thread]
    total_count: int


class Message(Wire):
    id: str
    thread_id: str
    message_index: int = Field(description="0-based position in the thread.")
    role: str
    content: Any = Field(description="A string, or a list of content parts `{type, text?, data?}`.")
    metadata: dict[str, Any]
    client_message_id: str | None = Field(description="The `id` the client gave the message, if any.")
    created_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Message:
        return cls.pick(row)


class ThreadFull(Wire):
    thread: Thread
    messages: list[Message]
    total_messages: int


class MessagesAppended(Wire):
    messages: list[Message]
    thread_id: str
    new_message_count: int = Field(description="Messages the extraction job will read.")
    job_id: str | None = Field(
        description="The extraction job to poll at /v1/jobs/{job_id}, if one was queued."
    )


class MessagePage(Wire):
    messages: list[Message]
    thread_id: str
    total_count: int


class Job(Wire):
    id: str
    job_id: str = Field(description="Same as `id` (the SDK reads `job_id`).")
    workspace_id: str
    thread_id: str | None
    from_index: int | None
    to_index: int | None
    status: str = Field(description="queued, running, succeeded or failed.")
    attempts: int
    error: str | None
    result: dict[str, Any] | None
    created_at: Timestamp
    started_at: Timestamp | None
    finished_at: Timestamp | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Job:
        return cls.pick(row, job_id=row["id"])


class JobEnvelope(Job):
    job: Job
