"""Sessions, their working memory, checkpoints and commits (/v1/sessions)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire, _wrapped_example
from shared.api.schemas.fields import (
    CreatedAt,
    ExpiresAt,
    InWorkspace,
    ObjectId,
    TenantId,
    UpdatedAt,
)
from shared.core.fields import (
    AutoCommit,
    ContextId,
    EntryTtlSeconds,
    Metadata,
    UserId,
    WorkingMemoryKey,
)


class Session(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "sess_0123456789abcdef0123456789abcdef",
                    "workspace_id": "demo",
                    "tenant_id": "_default",
                    "context_id": "_default",
                    "user_id": None,
                    "metadata": {},
                    "auto_commit": True,
                    "committed_at": None,
                    "expires_at": "2026-11-29T15:40:34.508615Z",
                    "created_at": "2026-11-29T14:40:34.508615Z",
                }
            ]
        }
    )

    id: ObjectId
    workspace_id: InWorkspace
    tenant_id: TenantId
    context_id: ContextId
    user_id: UserId
    metadata: Metadata
    auto_commit: AutoCommit
    committed_at: Timestamp | None = Field(description="When the session was committed (null: not yet).")
    expires_at: ExpiresAt
    created_at: CreatedAt

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Session:
        return cls.pick(row)


class SessionEnvelope(Session):
    """A session, wrapped and flat (the sync SDK 0.2.1 builds `Session(**data)` from the top level)."""

    model_config = _wrapped_example(Session, "session")

    session: Session = Field(description="The session.")


class SessionCreated(SessionEnvelope):
    model_config = _wrapped_example(Session, "session", briefing=None)

    briefing: dict[str, Any] | None = Field(description="The workspace briefing, when `briefing` was asked.")


class SessionList(Wire):
    sessions: list[Session] = Field(description="The sessions.")
    total_count: int = Field(description="The number of sessions sent.")


class Expiry(Wire):
    expires_at: ExpiresAt


class WorkingMemoryEntry(Wire):
    key: WorkingMemoryKey
    value: Any = Field(description="Any JSON value.")
    ttl_seconds: EntryTtlSeconds
    expires_at: ExpiresAt
    created_at: Timestamp | None = Field(description="When it was created (ISO-8601 UTC).")
    updated_at: Timestamp | None = Field(description="When it last changed (ISO-8601 UTC).")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> WorkingMemoryEntry:
        return cls.pick(row)


class WorkingMemoryEntries(Wire):
    items: list[WorkingMemoryEntry] = Field(description="The entries.")
    total_count: int = Field(description="The number of entries sent.")


class WorkingMemorySetResult(Wire):
    """What setting working memory answers: the entry (`{key, value}` was sent) or, for `{items}`, the entries
    with their count. Only the shape that applies is sent (the route leaves the other's fields unset)."""

    key: str | None = Field(default=None, description="The key set (one entry).")
    value: Any = Field(default=None, description="Its value, any JSON value (one entry).")
    ttl_seconds: int | None = Field(default=None, description="Seconds to live, as stored (one entry).")
    expires_at: Timestamp | None = Field(default=None, description="When the entry expires (one entry).")
    created_at: Timestamp | None = Field(default=None, description="When it was created (one entry).")
    updated_at: Timestamp | None = Field(default=None, description="When it last changed (one entry).")
    items: list[WorkingMemoryEntry] | None = Field(
        default=None, description="The entries (`items` was sent)."
    )
    total_count: int | None = Field(default=None, description="The number of entries sent (`items`).")


class Briefing(Wire):
    workspace_summary: dict[str, Any] = Field(
        description="Totals, the last day's activity, live memories by type (`memory_types`) and the lookback's "
        "most used tags (`active_topics`)."
    )
    recent_activity: list[dict[str, Any]] = Field(
        description="What the lookback saw: `{timestamp, summary, memories_created, key_decisions}`."
    )
    open_threads: list[dict[str, Any]] = Field(
        description="Open threads from live sessions' working memory: `{topic, status, last_activity, …}`."
    )
    contradictions_detected: list[dict[str, Any]] = Field(
        description="Unresolved `contradicts` associations: `{memory_a, memory_b, detected_at, id, …}`."
    )
    memories: list[dict[str, Any]] = Field(description="The recent memories, as the memory routes send them.")


class BriefingEnvelope(Wire):
    """The briefing wrapped, as the reference, and flat too: SDK 0.2.1 builds `SessionBriefing(**data)`."""

    briefing: Briefing = Field(description="The briefing.")
    workspace_summary: dict[str, Any] = Field(description="Same as `briefing.workspace_summary`.")
    recent_activity: list[dict[str, Any]] = Field(description="Same as `briefing.recent_activity`.")
    open_threads: list[dict[str, Any]] = Field(description="Same as `briefing.open_threads`.")
    contradictions_detected: list[dict[str, Any]] = Field(
        description="Same as `briefing.contradictions_detected`."
    )
    memories: list[dict[str, Any]] = Field(description="Same as `briefing.memories`.")

    @classmethod
    def of(cls, body: dict[str, Any]) -> BriefingEnvelope:
        return cls.model_construct(briefing=Briefing.model_construct(**body), **body)


class Checkpoint(Wire):
    """A durable transcript segment of a session: stored as memory ``raw_memory_id``, then indexed
    line by line into searchable memories."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "chk_0123456789abcdef0123456789abcdef",
                    "workspace_id": "demo",
                    "session_id": "sess_0123456789abcdef0123456789abcdef",
                    "raw_memory_id": "mem_chk_0123456789abcdef0123456789abcdef",
                    "source_kind": "transcript",
                    "source_sequence": 3,
                    "source_boundary": None,
                    "content_hash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                    "byte_count": 812,
                    "capture_status": "durable",
                    "index_status": "complete",
                    "enrichment_status": "skipped",
                    "idempotency_key": "turn-3",
                    "created_at": "2026-11-29T14:40:34.508615Z",
                    "updated_at": "2026-11-29T14:40:34.908615Z",
                }
            ]
        }
    )

    id: str = Field(description="`chk_` + 32 hex.")
    workspace_id: InWorkspace
    session_id: str = Field(description="The session it came from.")
    raw_memory_id: str = Field(
        description="The memory holding the whole segment (`mem_chk_…`), kept after the session."
    )
    source_kind: str = Field(
        description="Where the segment came from, sanitised to `[a-z0-9_-]` (default `transcript`)."
    )
    source_sequence: int | None = Field(description="The caller's sequence number of the segment, if given.")
    source_boundary: int | None = Field(description="The caller's boundary (e.g. last turn index), if given.")
    content_hash: str = Field(description="sha256 hex of the UTF-8 segment, as sent and checked.")
    byte_count: int = Field(description="Size of the segment in UTF-8 bytes.")
    capture_status: Literal["durable", "failed"] = Field(
        description="`durable` once the raw memory is stored."
    )
    index_status: Literal["pending", "complete", "failed", "skipped"] = Field(
        description="Whether the segment's lines were indexed as memories; a replay retries "
        "`pending`/`failed`."
    )
    enrichment_status: str = Field(description="LLM enrichment of the segment; `skipped` without an LLM.")
    idempotency_key: str = Field(
        description="The caller's key; a replay with it returns this same checkpoint."
    )
    created_at: CreatedAt
    updated_at: UpdatedAt

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Checkpoint:
        return cls.pick(row)


class CommitResult(Wire):
    session_id: str = Field(description="The session it came from.")
    memories_extracted: int = Field(description="Candidate memories read from the session.")
    memories_deduplicated: int = Field(description="Candidates already known (nothing written).")
    memories_created: int = Field(description="Memories added or superseding an older version.")
    breakdown: dict[str, int] = Field(description="Counts per outcome (added, superseded, noop, …).")
    extraction_time_ms: int = Field(description="Time the extraction took, in milliseconds.")
    memory_ids: list[str] = Field(description="Ids of the memories written.")
