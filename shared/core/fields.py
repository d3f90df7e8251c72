"""Described field types that request models (shared/domain) and response models (shared/api/schemas) share:
one meaning, one text, on every route that carries the field. ``…Patch`` is the same field in an update body,
where null (or absent) leaves the value unchanged.

    >>> from pydantic import BaseModel
    >>> class Example(BaseModel):
    ...     tags: Tags = []
    >>> Example.model_json_schema()["properties"]["tags"]["description"].startswith("Labels for filtering")
    True
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

WorkspaceId = Annotated[
    str | None,
    Field(
        description="The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the "
        "`X-Session-ID` session's workspace, the key's only workspace, then `_default`."
    ),
]
UserId = Annotated[
    str | None,
    Field(
        description="The end user this belongs to; with `scope: user` the memory goes to the `_global_user` "
        "space."
    ),
]
ContextId = Annotated[
    str | None,
    Field(
        description="A named sub-space of the workspace (`_default`); reserved by the reference, not a "
        "filter."
    ),
]
ObserverId = Annotated[
    str | None, Field(description="Who observed it (e.g. the agent), for multi-agent memories.")
]
SubjectId = Annotated[str | None, Field(description="Whom it is about.")]
Tags = Annotated[
    list[str],
    Field(
        description="Labels for filtering (matched case-insensitively); stored stripped, case kept, exact "
        "duplicates removed."
    ),
]
TagsPatch = Annotated[
    list[str] | None,
    Field(
        description="Labels for filtering (matched case-insensitively); stored stripped, case kept, exact "
        "duplicates removed."
    ),
]
Metadata = Annotated[
    dict[str, Any],
    Field(description="Any JSON object, stored as given (the server adds a few keys of its own)."),
]
MetadataPatch = Annotated[
    dict[str, Any] | None,
    Field(description="Any JSON object, stored as given (the server adds a few keys of its own)."),
]
Content = Annotated[
    str, Field(description="The text. Leading and trailing whitespace is stripped; empty text is refused.")
]
ContentPatch = Annotated[
    str | None,
    Field(description="The text. Leading and trailing whitespace is stripped; empty text is refused."),
]
Subtype = Annotated[
    str | None, Field(description="A finer kind: preference, decision, fact, directive, profile, event, …")
]
Importance = Annotated[float, Field(description="0–1 (default 0.5): weighs ranking; decay lowers it.")]
ImportancePatch = Annotated[
    float | None, Field(description="0–1 (default 0.5): weighs ranking; decay lowers it.")
]
Pinned = Annotated[bool, Field(description="Exempt from decay and archival.")]
PinnedPatch = Annotated[bool | None, Field(description="Exempt from decay and archival.")]
RefinementMetadata = Annotated[
    dict[str, Any],
    Field(description="Any JSON object about how the memory was refined; covered by the ETag."),
]
RefinementMetadataPatch = Annotated[
    dict[str, Any] | None,
    Field(description="Any JSON object about how the memory was refined; covered by the ETag."),
]
SequenceKey = Annotated[
    str | None,
    Field(description="An ordered stream (e.g. one chat); the server numbers its memories atomically."),
]
LogicalKey = Annotated[
    str | None,
    Field(
        description="A stable key of yours, unique in the workspace (needs Idempotency-Key and "
        "If-None-Match)."
    ),
]
AssociationType = Annotated[
    str,
    Field(
        description="One of the reference's 85 lowercase association types, e.g. related_to, causes, "
        "supersedes."
    ),
]
Strength = Annotated[
    float, Field(description="0–1 (default 0.5): how strong the link is; expansion scores follow it.")
]
StrengthPatch = Annotated[
    float | None, Field(description="0–1 (default 0.5): how strong the link is; expansion scores follow it.")
]
TargetMemoryId = Annotated[str, Field(description="The memory to link to.")]
Title = Annotated[str | None, Field(description="A title.")]
IdleAction = Annotated[
    str | None, Field(description="What to do when the thread goes idle (e.g. `decompose`).")
]
ParentThread = Annotated[str | None, Field(description="The thread this one continues.")]
DisplayName = Annotated[str, Field(description="A display name.")]
SettingsObject = Annotated[dict[str, Any], Field(description="Any JSON object of settings.")]
ContentHash = Annotated[str, Field(description="sha256 hex of the UTF-8 content (or segment).")]
Role = Annotated[str, Field(description="Who spoke: user, assistant, system, tool…")]
AutoCommit = Annotated[
    bool, Field(description="Commit the session's working memory when it ends or expires (default true).")
]
WorkingMemoryKey = Annotated[str, Field(description="A working-memory key (1–256 characters).")]
EntryTtlSeconds = Annotated[
    int | None,
    Field(
        description="Seconds to live (sessions: 60–86400, default 3600; working memory: stored, not "
        "enforced)."
    ),
]
SourceSessionId = Annotated[str | None, Field(description="The session it came from.")]
Description = Annotated[str | None, Field(description="A free-text description.")]
ThreadScope = Annotated[
    str | None,
    Field(description="`workspace` (default) or `user` (the user's space shared across workspaces)."),
]
