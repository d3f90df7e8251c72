"""The context environment: sandboxes, their variables and runs (/v1/context)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Wire, _absent


class ExecuteResult(Wire):
    """What one run of caller code did. An exception raised by the code is still a 200, with ``error`` set."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "output": "3 incidents\n",
                    "result": "[1, 2, 40]",
                    "error": None,
                    "error_code": None,
                    "variables_changed": ["counts"],
                    "not_persisted": [],
                }
            ]
        }
    )

    output: str = Field(description="What the code printed (stdout), capped by the server's output limit.")
    result: str | None = Field(
        description="`repr` of the last expression, cut at `max_return_chars` (null: none, or an error)."
    )
    error: str | None = Field(description="The exception the code raised, e.g. `ZeroDivisionError: …`.")
    error_code: str | None = Field(description="`execution_error` when the code raised; else null.")
    variables_changed: list[str] = Field(description="Variables the code created or changed, sorted.")
    not_persisted: list[str] = Field(
        description="Variables that could not be kept (functions, classes, modules, open objects)."
    )


class SandboxVariable(Wire):
    type: str = Field(description="The value's Python type name, e.g. `list`.")
    preview: str = Field(description="The start of its `repr`, cut at `preview_chars` (then `...`).")
    size_bytes: int = Field(description="Size of the pickled value in bytes.")


class SandboxState(Wire):
    """Every variable of the sandbox (``/inspect`` without ``variable``); empty when there is no sandbox."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "variable_count": 1,
                    "variables": {"x": {"type": "list", "preview": "[1, 2, 40]", "size_bytes": 21}},
                    "total_size_bytes": 21,
                }
            ]
        }
    )

    variable_count: int = Field(description="How many variables the sandbox holds.")
    variables: dict[str, SandboxVariable] = Field(description="Each variable by name.")
    total_size_bytes: int = Field(description="Sum of the variables' pickled sizes.")


class SandboxVariableDetail(Wire):
    """One variable (``/inspect?variable=…``)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"variable": "x", "type": "list", "preview": "[1, 2, 40]", "size_bytes": 21}]
        }
    )

    variable: str = Field(description="The variable's name.")
    type: str = Field(description="The value's Python type name, e.g. `list`.")
    preview: str = Field(description="The start of its `repr`, cut at `preview_chars` (then `...`).")
    size_bytes: int = Field(description="Size of the pickled value in bytes.")


class LoadResult(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "count": 3,
                    "variable": "mems",
                    "query": "redis incidents",
                    "total_available": 7,
                    "error": None,
                }
            ]
        }
    )

    count: int = Field(description="Memories stored in the variable.")
    variable: str = Field(description="The variable they were stored in, as a list of plain dicts.")
    query: str = Field(description="The query they were recalled for.")
    total_available: int = Field(description="Size of recall's candidate pool before the limit.")
    error: str | None = Field(description="Always null (failures are HTTP errors); kept for the SDK.")


class InjectResult(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"variable": "config", "type": "dict", "preview": "{'debug': True}", "error": None}]
        }
    )

    variable: str = Field(description="The variable that was set.")
    type: str | None = Field(description="Its Python type name.")
    preview: str = Field(description="The start of its `repr` (200 characters, then `...`).")
    error: str | None = Field(description="Always null (failures are HTTP errors); kept for the SDK.")


class QueryResult(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"response": "The sum is 6.", "variables_used": ["x"], "result_var": "answer", "error": None}
            ]
        }
    )

    response: str = Field(description="The LLM's answer.")
    variables_used: list[str] = Field(description="The variables it was shown.")
    result_var: str | None = Field(description="The variable the answer was stored in (null: not stored).")
    error: str | None = Field(description="Always null (failures are HTTP errors); kept for the SDK.")


class RlmResult(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "result": "2 contradictions: tea vs coffee, Lyon vs Paris",
                    "iterations": 2,
                    "trace": [
                        {"iteration": 1, "action": "execute", "code": "n = len(_memories)", "output": "",
                         "verdict": "CONTINUE"},
                        {"iteration": 2, "action": "execute", "code": "_final_result = '…'\n_goal_achieved = True",
                         "output": "", "verdict": "goal_achieved_by_code"},
                    ],
                    "error": None,
                    "goal_achieved": True,
                }
            ]
        }
    )  # fmt: skip

    result: str | None = Field(
        description="`_final_result` (else `result`) from the sandbox, as text or JSON; null if neither is set."
    )
    iterations: int = Field(description="Steps taken.")
    trace: list[dict[str, Any]] = Field(
        description="One entry per step: `iteration`, `action` (execute or stopped), and for executions "
        "`code`, `output`, `error` and the `verdict` (ACHIEVED, CONTINUE, FAILED or goal_achieved_by_code); "
        "only `iteration` and `action` with `detail_level: minimal`."
    )
    error: str | None = Field(description="Always null (failures are HTTP errors); kept for the SDK.")
    goal_achieved: bool = Field(description="True when the code set `_goal_achieved` or the LLM judged so.")


class SandboxStatus(Wire):
    """The session's sandbox, read from its row: never creates one, never runs the executor."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "exists": True,
                    "variable_count": 1,
                    "variables": ["x"],
                    "total_size_bytes": 48,
                    "memory_limit_bytes": 268435456,
                    "state_limit_bytes": 16777216,
                    "metadata": {
                        "created_at": "2026-11-29T14:40:34.508615+00:00",
                        "exec_count": 2,
                        "total_operations": 2,
                        "last_exec_at": "2026-11-29T14:41:02.114320+00:00",
                        "checkpointed_at": None,
                        "restored": True,
                    },
                }
            ]
        }
    )

    exists: bool = Field(description="Whether the session has a sandbox yet (its first write creates it).")
    variable_count: int = Field(description="How many variables it holds.")
    variables: list[str] | None = Field(
        default=None, exclude_if=_absent, description="The variables' names, sorted (left out: no sandbox)."
    )
    total_size_bytes: int = Field(description="Size of the stored state (compressed) in bytes.")
    memory_limit_bytes: int = Field(description="Address-space limit of each execution.")
    state_limit_bytes: int = Field(description="Largest state the sandbox may store (413 `state_too_large`).")
    metadata: dict[str, Any] = Field(
        description="`created_at`, `exec_count`, `total_operations`, `last_exec_at`, `checkpointed_at` and "
        "`restored` (always true: every call starts from the stored state); empty without a sandbox."
    )
