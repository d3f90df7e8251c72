"""Context packs and deltas: what a model should know now, and what changed (/v1/sessions/{id}/context-…)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Wire, _absent
from shared.api.schemas.fields import (
    EventTimeOut,
)
from shared.api.schemas.recall import BudgetSummary
from shared.core.fields import (
    Content,
    Importance,
)


class ContextItem(Wire):
    id: str = Field(description="The memory id, or `working:<key>` for working memory.")
    kind: str = Field(description="The section: directives, working_memory, topic_matches, memory_changes, …")
    content: Content
    importance: Importance
    event_time: EventTimeOut
    match_signals: list[str] = Field(
        description="How it was found: vector, keyword, context, association, recency…"
    )
    source_references: list[str] = Field(description="Ids it came from (e.g. a checkpoint's raw memory).")
    tombstone: bool = Field(
        description="True for something deleted or superseded since (rendered `[deleted]`)."
    )
    sequence: int | None = Field(
        default=None, exclude_if=_absent, description="The change's event sequence (deltas only)."
    )


class ContextGeneration(Wire):
    model_config = ConfigDict(extra="allow")

    policy: str = Field(description="`deterministic`: no LLM is called.")
    calls: int = Field(description="LLM calls made (0: deterministic).")
    input_tokens: int = Field(description="LLM input tokens.")
    output_tokens: int = Field(description="LLM output tokens.")


class _ContextBase(Wire):
    # Open to new keys: other parts of the server add sections (e.g. the context environment's summary).
    model_config = ConfigDict(extra="allow")

    rendered: str = Field(
        description="Markdown: `## Section` headings and `- item` bullets, within the budget."
    )
    items: list[ContextItem] = Field(
        description="What was rendered, item by item (`kind` names the section)."
    )
    budget_summary: BudgetSummary = Field(description="What the token budget did.")
    generation_summary: ContextGeneration = Field(
        description="LLM calls and tokens spent (null or zeros without an LLM)."
    )
    cursor: str = Field(description="Pass to /context-delta to get what changed after this.")
    degradation_notices: list[str] = Field(
        description="Sections that could not be built, e.g. topic retrieval."
    )


class ContextPack(_ContextBase):
    """What a model should know now, within a token budget."""

    open_threads: list[Any] = Field(
        description="Open items echoed from working memory (open_threads, next_steps…)."
    )
    unresolved_contradictions: list[Any] = Field(description="Contradicting memories not yet resolved.")


class ContextDelta(_ContextBase):
    """What changed since the cursor, in order (at least once)."""

    memory_changes: list[ContextItem] = Field(description="Memories added or changed since the cursor.")
    working_memory_changes: list[ContextItem] = Field(description="Working-memory keys set since the cursor.")
    checkpoint_changes: list[ContextItem] = Field(description="Checkpoints captured since the cursor.")
    sandbox_changes: list[ContextItem] = Field(
        default_factory=list,
        description="Context-environment checkpoints since the cursor: the sandbox's variables as /inspect "
        "shows "
        "them (a freed sandbox is a tombstone instead).",
    )
    tombstones: list[ContextItem] = Field(description="What was deleted or superseded since the cursor.")
    has_more: bool = Field(description="More changes are waiting: ask again with the new cursor.")
