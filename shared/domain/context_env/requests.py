"""Request bodies of /v1/context/* (SDK 0.2.1 ``context_*`` payloads, docs/context-environment.md).

>>> ExecuteRequest(code="1 + 1").max_return_chars
10000

Each field describes itself here, for /openapi.json; the answers are in shared/api/schemas/sandbox.py.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from shared.domain.requests import MemoryType, RequestModel

VARIABLE = r"^[A-Za-z_][A-Za-z0-9_]{0,127}$"  # a Python identifier: what code in the sandbox can name


class _Body(RequestModel):
    """As every body: SDKs send fields we do not use (ignored and reported, a near miss refused)."""


class ExecuteRequest(_Body):
    code: str = Field(
        min_length=1,
        max_length=1_000_000,
        description="Python to run in the session's sandbox; the last expression is the result. Imports "
        "outside an allow-list are refused (422 `code_rejected`).",
    )
    result_var: str | None = Field(
        default=None, pattern=VARIABLE, description="Also store the last expression's value in this variable."
    )
    return_result: bool = Field(default=True, description="Send the last expression's `repr` as `result`.")
    max_return_chars: int = Field(
        default=10_000, ge=100, le=100_000, description="Cut `result` to this many characters (100–100000)."
    )


class LoadRequest(_Body):
    var: str = Field(pattern=VARIABLE, description="The variable to store the recalled memories in.")
    query: str = Field(min_length=1, description="What to recall from the session's workspace.")
    limit: int = Field(default=50, ge=1, le=500, description="How many memories to load at most (1–500).")
    types: list[MemoryType] | None = Field(default=None, description="Only these memory types.")
    tags: list[str] | None = Field(default=None, description="Only memories with these tags.")
    min_relevance: float | None = Field(
        default=None, ge=0.0, le=1.0, description="Drop memories under this relevance (0–1)."
    )
    include_embeddings: bool = Field(default=False, description="Store each memory's embedding vector too.")
    # Not in SDK 0.2.1's payload (which the reference ignores anyway): recall's own user filter. There is no
    # context_id filter, as in recall, where context_id is reserved and filters nothing (in the reference server too).
    user_id: str | None = Field(
        default=None, max_length=256, description="Only memories of this user (recall's `user_id` filter)."
    )


class InjectRequest(_Body):
    key: str = Field(pattern=VARIABLE, description="The variable to set (a Python identifier).")
    value: Any = Field(description="Any JSON value; stored as the matching Python value.")
    parse_json: bool = Field(
        default=False, description="`value` is a string of JSON: parse it first (400 `invalid_json` if not)."
    )


class QueryRequest(_Body):
    prompt: str = Field(min_length=1, description="What to ask the LLM about the variables.")
    variables: list[str] = Field(
        default_factory=list, max_length=100, description="The variables shown to the LLM (at most 100)."
    )
    max_context_chars: int | None = Field(
        default=None,
        ge=100,
        le=500_000,
        description="Cut the rendered variables to this many characters (default: the server's output cap).",
    )
    result_var: str | None = Field(
        default=None, pattern=VARIABLE, description="Also store the LLM's answer in this variable."
    )


class RlmRequest(_Body):
    goal: str = Field(min_length=1, description="What the loop should find out or compute.")
    memory_query: str | None = Field(
        default=None, description="First load the memories recalled for this into `_memories`."
    )
    memory_limit: int = Field(
        default=100, ge=1, le=500, description="How many memories `memory_query` loads at most (1–500)."
    )
    max_iterations: int = Field(
        default=10, ge=1, le=50, description="Plan-run-judge steps at most (also capped by the server)."
    )
    variables: list[str] | None = Field(
        default=None, description="Accepted for the SDK; the planner sees every variable anyway."
    )
    result_var: str | None = Field(
        default=None, pattern=VARIABLE, description="Also store the final result in this variable."
    )
    detail_level: Literal["minimal", "brief", "standard", "detailed"] = Field(
        default="standard", description="`minimal` keeps only each step's iteration and action in `trace`."
    )
