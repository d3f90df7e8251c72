"""Described route parameters that recur across routers: the ids in paths and paging in queries."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

AssociationIdPath = Annotated[str, Path(description="The association's id.")]
CheckpointIdPath = Annotated[str, Path(description="The checkpoint's id.")]
ContextIdPath = Annotated[str, Path(description="The context's id.")]
EntityIdPath = Annotated[str, Path(description="The entity's id.")]
JobIdPath = Annotated[str, Path(description="The job's id.")]
KeyIdPath = Annotated[str, Path(description="The API key's id.")]
MemoryIdPath = Annotated[str, Path(description="The memory's id.")]
MessageIdPath = Annotated[str, Path(description="The message's id.")]
SessionIdPath = Annotated[str, Path(description="The session's id.")]
ThreadIdPath = Annotated[str, Path(description="The thread's id.")]
WorkspaceIdPath = Annotated[str, Path(description="The workspace's id.")]

Offset = Annotated[int, Query(ge=0, description="How many to skip (paging).")]
