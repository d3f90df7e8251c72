"""Request bodies of /v1/documents that are JSON (an upload itself is multipart form fields)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from shared.domain.requests import RequestModel


class PageSearch(RequestModel):
    query: str = Field(min_length=1, max_length=10_000, description="What to look for, in words.")
    limit: int = Field(10, ge=1, le=100, description="How many pages at most.")
    doc_ids: list[str] | None = Field(None, description="Only these documents' pages.")


# The one body outside the unknown-field policy (docs/ARCHITECTURE.md): its unknown keys are not ignored but read,
# as options, so none is refused as a near miss or reported as ignored.
class Reprocess(BaseModel):
    """The reference's body (``extraction_options``), or the options at the top level as SDK 0.2.1 sends them."""

    model_config = ConfigDict(extra="allow")
    extraction_options: dict[str, Any] | None = Field(None, description="Extraction options to change.")

    def options(self) -> dict[str, Any]:
        return {**(self.model_extra or {}), **(self.extraction_options or {})}


class UploadRequest(RequestModel):
    filename: str = Field(
        min_length=1, max_length=1024, description="The file's name (its type is read from it)."
    )
    content_type: str | None = Field(None, max_length=255, description="The file's content type.")
    extraction_options: dict[str, Any] | None = Field(None, description="As upload's form fields.")
