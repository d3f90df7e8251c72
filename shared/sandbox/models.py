"""Request bodies of /v1/context/* (SDK 0.2.1 ``context_*`` payloads, docs/context-environment.md).

>>> ExecuteRequest(code="1 + 1").max_return_chars
10000
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.models import MemoryType

VARIABLE = r"^[A-Za-z_][A-Za-z0-9_]{0,127}$"  # a Python identifier: what code in the sandbox can name


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")  # as the reference: SDKs send fields we do not use


class ExecuteRequest(_Body):
    code: str = Field(min_length=1, max_length=1_000_000)
    result_var: str | None = Field(default=None, pattern=VARIABLE)
    return_result: bool = True
    max_return_chars: int = Field(default=10_000, ge=100, le=100_000)


class LoadRequest(_Body):
    var: str = Field(pattern=VARIABLE)
    query: str = Field(min_length=1)
    limit: int = Field(default=50, ge=1, le=500)
    types: list[MemoryType] | None = None
    tags: list[str] | None = None
    min_relevance: float | None = Field(default=None, ge=0.0, le=1.0)
    include_embeddings: bool = False


class InjectRequest(_Body):
    key: str = Field(pattern=VARIABLE)
    value: Any
    parse_json: bool = False


class QueryRequest(_Body):
    prompt: str = Field(min_length=1)
    variables: list[str] = Field(default_factory=list, max_length=100)
    max_context_chars: int | None = Field(default=None, ge=100, le=500_000)
    result_var: str | None = Field(default=None, pattern=VARIABLE)


class RlmRequest(_Body):
    goal: str = Field(min_length=1)
    memory_query: str | None = None
    memory_limit: int = Field(default=100, ge=1, le=500)
    max_iterations: int = Field(default=10, ge=1, le=50)
    variables: list[str] | None = None  # accepted for the SDK; the planner sees every variable anyway
    result_var: str | None = Field(default=None, pattern=VARIABLE)
    detail_level: Literal["minimal", "brief", "standard", "detailed"] = "standard"
