"""The users of a workspace and erasing one (/v1/users)."""

from __future__ import annotations

from pydantic import Field

from shared.api.schemas.base import Wire


class UserCounts(Wire):
    user_id: str = Field(description="The `user_id` the workspace's rows carry.")
    memories: int = Field(description="Live memories carrying this user_id.")
    threads: int = Field(description="Threads of this user.")
    sessions: int = Field(description="Sessions of this user (live or not yet expired).")


class UserList(Wire):
    workspace_id: str = Field(description="The workspace listed.")
    users: list[UserCounts] = Field(description="Its users, by id.")
    next_after: str | None = Field(description="Pass as `after` for the next page (null: the last page).")


class EraseResult(Wire):
    user_id: str = Field(description="The user erased.")
    dry_run: bool = Field(description="True: nothing was deleted, the counts say what would be.")
    workspaces: int = Field(description="How many of the caller's workspaces (in its tenant) were searched.")
    counts: dict[str, int] = Field(
        description="Rows erased (or, in a dry run, that would be), by kind: memories, derived_memories, "
        "revisions, associations, evidence, relations, entities, threads, messages, sessions, working_memory, sandboxes."
    )
