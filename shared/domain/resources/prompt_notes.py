"""Prompt notes: short named texts an agent folds into its prompt, versioned (/v1/prompt-notes)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.core.fields import WorkspaceId
from shared.domain.resources.fields import Key, NonBlank, ResourceBody, ResourceMetadata, SchemaVersion
from shared.domain.resources.service import Document, Kind

PROMPT_NOTES = Kind("prompt_note", "prompt note", "note")


class PromptNoteReplace(ResourceBody):
    title: NonBlank = Field(
        min_length=1, max_length=200, description="A title (1-200 characters, not blank)."
    )
    content: str = Field(max_length=65536, description="The note's text (up to 64 KiB).")
    enabled: bool = Field(default=True, description="Whether agents should use it (default true).")
    schema_version: SchemaVersion = 1
    metadata: ResourceMetadata = Field(default_factory=dict)
    workspace_id: WorkspaceId = None

    def document(self) -> Document:
        content: dict[str, Any] = {"title": self.title, "content": self.content, "enabled": self.enabled}
        return Document(self.schema_version, content, self.metadata)


class PromptNoteCreate(PromptNoteReplace):
    key: Key
