"""What every request body shares: unknown keys reported (a near miss refused), and the described field types
only request bodies use."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

MemoryType = Literal["episodic", "semantic", "procedural", "working"]
Direction = Literal["both", "outgoing", "incoming"]

# Described field types only request bodies use (the ones responses share are in shared/core/fields.py).
QueryText = Annotated[
    str, Field(description="The question or keywords; `*` browses by recency without ranking.")
]
MinRelevance = Annotated[
    float | None,
    Field(description="Drop results under this relevance (≤0 disables the floor; null: the tolerance's)."),
]
TagFilter = Annotated[
    list[str], Field(description="Only memories with every one of these tags (matched case-insensitively).")
]
SubtypeFilter = Annotated[list[str], Field(description="Only these subtypes (any of them).")]
TypeFilter = Annotated[list[MemoryType], Field(description="Only these memory types (any of them).")]
EventTime = Annotated[
    datetime | None,
    Field(description="When the event happened (ISO-8601); temporal filters fall back to created_at."),
]
MemoryKind = Annotated[
    MemoryType | None,
    Field(description="episodic, semantic, procedural or working; classified by rules when left out."),
]
BatchMemoryId = Annotated[str, Field(description="The memory it applies to.")]


# The names of the unknown fields of the request being handled, for the ``X-MemoryLayer-Ignored-Fields`` response
# header (shared/api/app.py sets a fresh list per request; outside a request nothing is recorded).
IGNORED_FIELDS: ContextVar[list[str] | None] = ContextVar("memorylayer_ignored_fields", default=None)

# Fields the reference server declares (and the official SDK 0.2.x sends) that we accept and do not use: never
# refused, only reported. E.g. `max_tokens` on reflect, `context` on recall (`relations` where a model lacks it).
REFERENCE_FIELDS = frozenset(
    {"relations", "max_tokens", "context", "rag_threshold", "context_id", "observer_id", "subject_id",
     "categories", "expires_in_days", "space_id", "archived_at"}
)  # fmt: skip


_HEADER_SAFE = re.compile(r"[A-Za-z0-9_.\-]{1,64}")
_IGNORED_LISTED = 20


class RequestModel(BaseModel):
    """Base of every request body. An unknown key is not stored (so it can never reach SQL as a column name)
    but it is reported: a near-miss of a real field (``"tag"`` for ``tags``) is a 422 ``unknown_field`` — a typo
    that would otherwise silently store nothing — and any other unknown key is named in the
    ``X-MemoryLayer-Ignored-Fields`` response header (SDKs send fields we do not use, so those are not refused).

    >>> from shared.domain.requests import RecallRequest
    >>> RecallRequest.model_validate({"query": "tea", "tag": ["x"]})
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for RecallRequest
    ...
    """

    model_config = ConfigDict(extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _report_unknown(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = cls.model_fields
        unknown = [key for key in data if key not in fields]
        if not unknown:
            return data
        for key in unknown:
            if isinstance(key, str) and key not in REFERENCE_FIELDS:
                near = _near_miss(key, fields)
                if near:
                    raise PydanticCustomError(
                        "unknown_field",
                        "unknown field '{field}': did you mean '{suggestion}'?",
                        {"field": key, "suggestion": near},
                    )
        seen = IGNORED_FIELDS.get()
        if seen is not None:
            for key in unknown:
                # A header carries only plain names, and a few of them: any key at all can arrive here.
                name = key if isinstance(key, str) and _HEADER_SAFE.fullmatch(key) else "(unprintable)"
                if name not in seen and len(seen) < _IGNORED_LISTED:
                    seen.append(name)
        return data


_Request = RequestModel


def _near_miss(key: str, fields: Mapping[str, Any]) -> str | None:
    """The field ``key`` was probably meant to be: the same name in another case (``Tags``), two letters
    swapped (``tgas``), or a close spelling (``tag``).

    >>> fields = {"tags": None, "content": None}
    >>> _near_miss("Tags", fields), _near_miss("tgas", fields), _near_miss("tag", fields), _near_miss("x", fields)
    ('tags', 'tags', 'tags', None)
    """
    folded = key.lower()
    for name in fields:
        if folded == name or _one_swap(folded, name):
            return name
    near = difflib.get_close_matches(folded, list(fields), n=1, cutoff=0.8)
    return near[0] if near else None


def _one_swap(a: str, b: str) -> bool:
    """``a`` is ``b`` with two neighbouring letters swapped."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _strip_content(value: str) -> str:
    stripped = value.strip()
    if not stripped:
        raise ValueError("content must not be empty")
    return stripped
