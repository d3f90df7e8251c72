"""Request field types every resource family shares: its key, its schema version, its metadata.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(Key).validate_python("team/style.v2")
'team/style.v2'
>>> TypeAdapter(NonBlank).validate_python("  ")
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for function-after[_non_blank(), str]
...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import AfterValidator, Field

from shared.domain.requests import RequestModel


def _non_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("value cannot be blank")
    return value


NonBlank = Annotated[str, AfterValidator(_non_blank)]

Key = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$",
        description="A stable key, unique in the workspace for this kind (even after a delete): starts with a "
        "letter or digit, then letters, digits, `.`, `_`, `/`, `-`; at most 200 characters. Fixed once created.",
    ),
]
SchemaVersion = Annotated[
    int, Field(ge=1, description="The version of this document's schema (default 1), chosen by the writer.")
]
ResourceMetadata = Annotated[
    dict[str, Any],
    Field(description="Any JSON object, stored and returned as given (not part of `content`)."),
]


class ResourceBody(RequestModel):
    """A family's write body, as the generic routes read it: ``workspace_id`` (unless the workspace is in the
    path), and for the resource service's own stores ``key`` on a create and ``document()``. No fields of its own,
    so a family's schema stays its own."""

    if TYPE_CHECKING:  # each family's body declares it where its wire has it
        workspace_id: str | None
