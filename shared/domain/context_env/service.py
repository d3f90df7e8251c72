"""The context environment: per-session sandboxes behind /v1/context/* (docs/context-environment.md).

    >>> svc = SandboxService(db, sessions, recaller, llm, settings)        # doctest: +SKIP
    >>> svc.execute(caller, ExecuteRequest(code="x = 1 + 1\\nx"))["result"]  # doctest: +SKIP
    '2'

It finds the caller's session, reads the sandbox row (the state's JSON, compressed, plus a summary), has
caller code run in the guest (executors.py), checks what comes back (host.py) and stores it by
compare-and-set. /status and /inspect read the summary only, and never create a sandbox.
"""

from __future__ import annotations

import ast
import json
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from shared.core.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    MemoryLayerError,
    NotFound,
    Overloaded,
    PayloadTooLarge,
    ServiceUnavailable,
    Unprocessable,
)
from shared.core.settings import Settings
from shared.core.wire import iso
from shared.db import sandboxes as repo
from shared.db.pool import Database
from shared.domain.context_env import host
from shared.domain.context_env import requests as m
from shared.domain.context_env.executors import Executor, create_executor
from shared.domain.context_env.summary import may_view, viewer_of
from shared.domain.requests import RecallRequest
from shared.providers.llm.budget import OperationBudget

PREVIEW_MAX = host.PREVIEW_CHARS


class NotEnabled(MemoryLayerError):
    status = 501
    code = "context_environment_disabled"


# Executor failures as HTTP errors: the request's code is at fault (422), the state is too big (413), or the
# sandbox itself failed (502). An exception raised by caller code is not one of these: that execution
# succeeded in reporting it, and answers 200 with ``error`` set, as the reference does.
FAILURES: dict[str, type[MemoryLayerError]] = {
    "code_rejected": Unprocessable,
    "syntax_error": Unprocessable,
    "execution_timeout": Unprocessable,
    "memory_limit": Unprocessable,
    "output_too_large": Unprocessable,
    "sandbox_crashed": Unprocessable,
    "state_too_large": PayloadTooLarge,
    "too_many_variables": PayloadTooLarge,
    "bad_state": Unprocessable,
    "state_too_complex": Unprocessable,
    "sandbox_answer_invalid": Unprocessable,
    "bad_variable": InvalidInput,
    "interpreter_missing": ServiceUnavailable,
    "sandbox_throttled": Overloaded,
}


class SandboxUnavailable(MemoryLayerError):
    status = 502
    code = "sandbox_unavailable"


@dataclass(frozen=True)
class Target:
    """The sandbox a request addresses: its session's workspace, the session, and the caller's key."""

    workspace_id: str
    session_id: str
    key_id: str
    tenant_id: str | None = None


class SandboxService:
    def __init__(
        self,
        db: Database,
        sessions: Any,
        recaller: Any,
        llm: Any,
        settings: Settings,
        *,
        executor: Executor | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.db = db
        self.sessions = sessions
        self.recaller = recaller
        self.llm = llm
        self.settings = settings
        self.executor = executor if executor is not None else create_executor(settings)
        self.clock = clock

    # ------------------------------------------------------------------ addressing

    def target(self, caller: Any) -> Target:
        """The caller's session (``X-Session-ID``) within the workspaces the caller may use, else 400/404."""
        if self.executor is None:
            raise NotEnabled("the context environment is switched off (MEMORYLAYER_CONTEXT_EXECUTOR=off)")
        if not caller.session_id:
            raise InvalidInput("X-Session-ID header is required", code="missing_session_id")
        session = self.sessions.get(caller.lookup_scope(), caller.session_id)
        principal = caller.principal
        return Target(session["workspace_id"], session["id"], viewer_of(principal), principal.tenant_id)

    def _row(self, target: Target, *, with_state: bool) -> dict | None:
        with self.db.connection() as conn:
            row = repo.find(conn, target.workspace_id, target.session_id, with_state=with_state)
        if row is not None and not may_view(row, target.key_id):
            raise Forbidden("this session's sandbox belongs to another API key", code="sandbox_key_mismatch")
        return row

    def limits(self) -> dict[str, Any]:
        s = self.settings
        return {
            "seconds": s.context_max_exec_seconds,
            "memory_bytes": s.context_max_memory_bytes,
            "state_bytes": s.context_max_state_bytes,
            "output_chars": s.context_max_output_chars,
            "max_variables": s.context_max_variables,
            "state_elements": s.context_max_state_elements,
        }

    # ------------------------------------------------------------------ the executor round trip

    def _run(self, target: Target, request: dict[str, Any], *, executed: bool = False) -> dict[str, Any]:
        """One operation on the stored state: ``execute`` in the guest, the others here (they run no caller
        code); the new state is stored by compare-and-set: two concurrent calls of one session cannot both
        win, the loser gets 409 ``sandbox_busy``."""
        row = self._row(target, with_state=True)
        previous = stored_text(row)
        limits = self.limits()
        try:
            if request["op"] == "execute":
                sent = {**request, "state": previous, "limits": {**limits, **_return_limits(request)}}
                answer = host.check(self.executor.run(sent, tenant_id=target.tenant_id), previous, limits)  # type: ignore[union-attr]
            elif request["op"] == "inject":
                answer = host.inject(previous, request["values"], limits)
            elif request["op"] == "render":
                return {
                    "ok": True,
                    "context": host.render(previous, request["variables"], request["max_chars"], limits),
                }
            else:
                found, value = host.get(previous, request["variable"], limits)
                return {"ok": True, "found": found, "value": value}
        except host.Rejected as exc:
            answer = {"ok": False, "code": exc.code, "error": str(exc)}
        if not answer.get("ok"):
            code = str(answer.get("code") or "sandbox_error")
            if code in ("execution_error", "llm_query"):
                return answer
            # elapsed_ms: the executor's own clock, from the guest's start to its answer or stop.
            timing = (
                {"elapsed_ms": answer["elapsed_ms"]}
                if isinstance(answer.get("elapsed_ms"), int | float)
                else {}
            )
            retry = {"retry_after_s": 1} if code == "sandbox_throttled" else {}
            raise FAILURES.get(code, SandboxUnavailable)(
                str(answer.get("error") or code), code=code, **timing, **retry
            )
        blob = zlib.compress(answer.pop("state").encode(), 6)
        summary = clean_summary(answer.get("summary"))
        with self.db.transaction() as conn:
            current = repo.lock(conn, target.workspace_id, target.session_id)
            if (current is None) != (row is None) or (
                current is not None and row is not None and current["updated_at"] != row["updated_at"]
            ):
                raise Conflict("another call changed this sandbox meanwhile; retry", code="sandbox_busy")
            answer["row"] = repo.save(
                conn,
                target.workspace_id,
                target.session_id,
                target.key_id,
                state=blob,
                variables=summary,
                executed=executed,
                now=self.clock(),
            )
        return answer

    # ------------------------------------------------------------------ routes

    def execute(
        self, caller: Any, body: m.ExecuteRequest, budget: OperationBudget | None = None
    ) -> dict[str, Any]:
        target = self.target(caller)
        too_complex = self._complexity_refusal(body.code)
        if too_complex is not None:
            return too_complex
        request: dict[str, Any] = {
            "op": "execute",
            "code": body.code,
            "result_var": body.result_var,
            "return_result": body.return_result,
            "max_return_chars": body.max_return_chars,
            "llm_answers": {},
        }
        answer = self._run(target, request, executed=True)
        # llm_query() in caller code: the orchestrator asks the LLM (under the generation policy and the
        # per-operation call ceiling) and runs the code again with every answer so far (guest.py).
        calls = 0
        while not answer.get("ok") and answer.get("code") == "llm_query":
            llm = self._generation()
            budget = budget or self._budget(llm)
            if calls >= self.settings.llm_max_calls_per_operation:
                raise Unprocessable(
                    f"the code asked llm_query more than {calls} times", code="llm_call_ceiling", calls=calls
                )
            prompt = str(answer.get("prompt", ""))
            data = self._complete(
                llm,
                budget,
                "Answer the request from code running in an analysis sandbox. Be concise.",
                prompt,
                {"type": "object", "properties": {"response": {"type": "string"}}, "required": ["response"]},
                "llm_query",
            )
            calls += 1
            request["llm_answers"][prompt] = str(data.get("response", ""))
            answer = self._run(target, request, executed=True)
        return {
            "output": answer.get("output", ""),
            "result": answer.get("result") if answer.get("ok") else None,
            "error": None if answer.get("ok") else answer.get("error"),
            "error_code": None if answer.get("ok") else answer.get("code"),
            "variables_changed": answer.get("variables_changed", []),
            "not_persisted": answer.get("not_persisted", []),
        }

    def inspect(self, caller: Any, variable: str | None, preview_chars: int) -> dict[str, Any]:
        row = self._row(self.target(caller), with_state=False)
        variables: dict[str, dict] = dict(row["variables"]) if row else {}

        def cut(entry: dict) -> dict:
            text = str(entry.get("preview", ""))
            return {**entry, "preview": text if len(text) <= preview_chars else text[:preview_chars] + "..."}

        if variable is not None:
            if variable not in variables:
                raise NotFound(f"Variable '{variable}' not found", code="variable_not_found")
            return {"variable": variable, **cut(variables[variable])}
        return {
            "variable_count": len(variables),
            "variables": {name: cut(entry) for name, entry in variables.items()},
            "total_size_bytes": sum(int(e.get("size_bytes", 0)) for e in variables.values()),
        }

    def load(self, caller: Any, body: m.LoadRequest) -> dict[str, Any]:
        target = self.target(caller)
        found = self.recaller.recall(
            [target.workspace_id],
            RecallRequest(
                query=body.query,
                limit=body.limit,
                types=body.types or [],
                tags=body.tags or [],
                min_relevance=body.min_relevance,
                include_embeddings=body.include_embeddings,
                user_id=body.user_id,
            ),
        )
        items = [memory_data(mem, body.include_embeddings) for mem in found["memories"]]
        self._run(target, {"op": "inject", "values": {body.var: items}})
        return {
            "count": len(items),
            "variable": body.var,
            "query": body.query,
            "total_available": found.get("total_count", len(items)),
            "error": None,
        }

    def inject(self, caller: Any, body: m.InjectRequest) -> dict[str, Any]:
        target = self.target(caller)
        value = body.value
        if body.parse_json and isinstance(value, str):
            try:
                value = json.loads(value)
            except (ValueError, RecursionError) as exc:  # RecursionError: nested past the parser's stack
                raise InvalidInput(f"value is not JSON: {exc!s:.200}", code="invalid_json") from exc
        answer = self._run(target, {"op": "inject", "values": {body.key: value}})
        entry = answer.get("summary", {}).get(body.key, {})
        preview = str(entry.get("preview", ""))
        return {
            "variable": body.key,
            "type": entry.get("type"),
            "preview": preview if len(preview) <= 200 else preview[:200] + "...",
            "error": None,
        }

    def status(self, caller: Any) -> dict[str, Any]:
        row = self._row(self.target(caller), with_state=False)
        if row is None:
            return {
                "exists": False,
                "variable_count": 0,
                "total_size_bytes": 0,
                "memory_limit_bytes": self.settings.context_max_memory_bytes,
                "state_limit_bytes": self.settings.context_max_state_bytes,
                "metadata": {},
            }
        return {
            "exists": True,
            "variable_count": len(row["variables"]),
            "variables": sorted(row["variables"]),
            "total_size_bytes": row["state_bytes"],
            "memory_limit_bytes": self.settings.context_max_memory_bytes,
            "state_limit_bytes": self.settings.context_max_state_bytes,
            "metadata": {
                "created_at": row["created_at"].isoformat(),
                "exec_count": row["exec_count"],
                "total_operations": row["exec_count"],
                "last_exec_at": row["last_exec_at"].isoformat() if row["last_exec_at"] else None,
                "checkpointed_at": row["checkpointed_at"].isoformat() if row["checkpointed_at"] else None,
                "restored": True,  # the state lives in Postgres: every call starts from the stored copy
            },
        }

    def checkpoint(self, caller: Any) -> None:
        target = self.target(caller)
        self._row(target, with_state=False)  # the key check
        with self.db.transaction() as conn:
            if repo.find(conn, target.workspace_id, target.session_id) is not None:
                repo.checkpoint(conn, target.workspace_id, target.session_id, self.clock())

    def cleanup(self, caller: Any) -> None:
        target = self.target(caller)
        self._row(target, with_state=False)
        with self.db.transaction() as conn:
            repo.delete(conn, target.workspace_id, target.session_id)

    # ------------------------------------------------------------------ LLM helpers

    def _generation(self) -> Any:
        # The reference's activity for the context environment's LLM calls is synthesis.
        if self.llm is None or not self.settings.generation_allowed("synthesis"):
            raise Forbidden(
                "this needs an LLM, and generation is not allowed here (none configured, or the enrichment "
                "policy does not allow synthesis)",
                code="generation_not_allowed",
            )
        return self.llm

    def _budget(self, llm: Any) -> OperationBudget:
        return OperationBudget(self.settings, profile_max_tokens=getattr(llm, "max_tokens", None))

    def _complete(
        self, llm: Any, budget: OperationBudget, system: str, prompt: str, schema: dict[str, Any], name: str
    ) -> dict[str, Any]:
        """One LLM call inside the operation's ceilings (calls, input and output tokens), else a 422."""
        refused = budget.refusal(system, prompt)
        if refused is not None:
            raise Unprocessable(f"generation budget exceeded: {refused}", code="generation_budget_exceeded")
        data, usage = llm.complete_json(
            system, prompt, schema, name=name, max_tokens=budget.admit(system, prompt)
        )
        budget.record(usage)
        return dict(data)

    def _complexity_refusal(self, code: str) -> dict[str, Any] | None:
        """The reference's operation cap (its restricted executor's): code of more AST nodes is not run."""
        try:
            nodes = sum(1 for _ in ast.walk(ast.parse(code)))
        except (SyntaxError, ValueError, RecursionError):
            return None  # the guest reports it, as before
        if nodes <= self.settings.context_max_operations:
            return None
        return {
            "output": "",
            "result": None,
            "error": f"Code complexity exceeds limit: {nodes} nodes > {self.settings.context_max_operations} max",
            "error_code": "code_too_complex",
            "variables_changed": [],
            "not_persisted": [],
        }

    def query(self, caller: Any, body: m.QueryRequest) -> dict[str, Any]:
        target = self.target(caller)
        llm = self._generation()
        rendered = self._run(
            target,
            {
                "op": "render",
                "variables": body.variables,
                "max_chars": body.max_context_chars or self.settings.context_max_output_chars,
            },
        )
        data = self._complete(
            llm,
            self._budget(llm),
            "Answer the user's request using only the variables below.\n\n" + rendered.get("context", ""),
            body.prompt,
            {"type": "object", "properties": {"response": {"type": "string"}}, "required": ["response"]},
            "context_query",
        )
        response = str(data.get("response", ""))
        if body.result_var:
            self._run(target, {"op": "inject", "values": {body.result_var: response}})
        return {
            "response": response,
            "variables_used": body.variables,
            "result_var": body.result_var,
            "error": None,
        }

    def rlm(self, caller: Any, body: m.RlmRequest) -> dict[str, Any]:
        """Plan code with the LLM, run it in the sandbox, judge; the LLM's code is caller code like any other."""
        target = self.target(caller)
        llm = self._generation()
        started = time.monotonic()
        budget = self._budget(llm)
        trace: list[dict[str, Any]] = []
        if body.memory_query:
            self.load(
                caller, m.LoadRequest(var="_memories", query=body.memory_query, limit=body.memory_limit)
            )
        # A new goal: the previous run's flags must not end this one at its first step.
        self._run(target, {"op": "inject", "values": {"_goal_achieved": False, "_final_result": None}})
        last = ""
        achieved = False
        iterations = min(body.max_iterations, self.settings.context_rlm_max_iterations)
        done = 0
        for done in range(1, iterations + 1):
            if time.monotonic() - started > self.settings.context_rlm_max_exec_seconds:
                trace.append({"iteration": done, "action": "stopped", "reason": "time or LLM call ceiling"})
                break
            summary = self.inspect(caller, None, 500)["variables"]
            system = RLM_PLAN.format(goal=body.goal, state=json.dumps(summary)[:5000])
            refused = budget.refusal(system, last[:500] or "Begin.")
            if refused:
                trace.append(
                    {"iteration": done, "action": "stopped", "reason": f"time or LLM call ceiling: {refused}"}
                )
                break
            plan = self._complete(
                llm,
                budget,
                system,
                last[:500] or "Begin.",
                {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]},
                "rlm_plan",
            )
            code = strip_fences(str(plan.get("code", "")))
            try:
                result = self.execute(caller, m.ExecuteRequest(code=code or "None"), budget)
            except Unprocessable as exc:
                result = {"output": "", "error": exc.message}
            step = {
                "iteration": done,
                "action": "execute",
                "code": code,
                "output": result.get("output", "")[:500],
            }
            if result.get("error"):
                step["error"] = result["error"]
                trace.append(step)
                last = f"error: {result['error']}"
                continue
            last = result.get("output") or str(result.get("result") or "")
            flag = self._run(target, {"op": "get", "variable": "_goal_achieved"})
            if flag.get("found") and flag.get("value"):
                achieved = True
                step["verdict"] = "goal_achieved_by_code"
                trace.append(step)
                break
            judge = (
                "Decide whether the goal is achieved. Goal: " + body.goal,
                "Latest output:\n" + last[:2000],
            )
            if budget.refusal(*judge):
                trace.append(step)
                continue
            verdict = self._complete(
                llm,
                budget,
                *judge,
                {
                    "type": "object",
                    "properties": {
                        "verdict": {"type": "string", "enum": ["ACHIEVED", "CONTINUE", "FAILED"]},
                        "reason": {"type": "string"},
                    },
                    "required": ["verdict"],
                },
                "rlm_evaluate",
            )
            step["verdict"] = verdict.get("verdict")
            trace.append(step)
            if verdict.get("verdict") in ("ACHIEVED", "FAILED"):
                achieved = verdict.get("verdict") == "ACHIEVED"
                break
        final = None
        for name in ("_final_result", "result"):
            got = self._run(target, {"op": "get", "variable": name})
            if got.get("found") and got.get("value") is not None:
                final = got["value"] if isinstance(got["value"], str) else json.dumps(got["value"])[:10_000]
                break
        if body.result_var and final is not None:
            self._run(target, {"op": "inject", "values": {body.result_var: final}})
        if body.detail_level == "minimal":
            trace = [{"iteration": t["iteration"], "action": t["action"]} for t in trace]
        return {"result": final, "iterations": done, "trace": trace, "error": None, "goal_achieved": achieved}


RLM_PLAN = (
    "You write Python for a sandbox that keeps variables between steps. Allowed imports: collections, "
    "datetime, itertools, math, json, re, statistics, functools and a few more; no files, network or os. "
    "`llm_query(prompt)` returns an LLM's answer as a string. "
    "Set `_final_result` to the answer and `_goal_achieved = True` when done.\n"
    "Goal: {goal}\nVariables (name -> type, preview): {state}\n"
    'Answer with {{"code": "<python>"}}.'
)


def strip_fences(code: str) -> str:
    """```python ... ``` around the code, as models like to add.

    >>> strip_fences("```python\\nx = 1\\n```")
    'x = 1'
    """
    text = code.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text.strip()


def stored_text(row: dict | None) -> str | None:
    """The state's JSON text from its row (zlib-compressed at rest); 409 for a state an older version wrote."""
    if row is None or not row.get("state"):
        return None
    try:
        text = zlib.decompress(bytes(row["state"])).decode()
    except (zlib.error, UnicodeDecodeError):
        text = ""
    if not text.startswith("{"):
        raise Conflict(
            "this sandbox's state was written by an older version and cannot be read; "
            "DELETE /v1/context/cleanup starts it afresh",
            code="sandbox_state_outdated",
        )
    return text


def _return_limits(request: dict[str, Any]) -> dict[str, Any]:
    return {"max_return_chars": request["max_return_chars"]} if "max_return_chars" in request else {}


def clean_summary(summary: Any) -> dict[str, dict[str, Any]]:
    """The executor's summary, treated as untrusted: only names, short types and previews, integer sizes."""
    if not isinstance(summary, dict):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for name, entry in list(summary.items())[:10_000]:
        if not isinstance(name, str) or not isinstance(entry, dict):
            continue
        size = entry.get("size_bytes")
        out[name[:256]] = {
            "type": str(entry.get("type", ""))[:100],
            "preview": str(entry.get("preview", ""))[: PREVIEW_MAX + 3],
            "size_bytes": size if isinstance(size, int) and size >= 0 else 0,
        }
    return out


def memory_data(memory: dict[str, Any], embeddings: bool) -> dict[str, Any]:
    """A recalled memory (its row, with recall's keys) as plain data for the sandbox (the reference's shape:
    the importance and the ISO timestamp as the API sends them)."""
    importance = memory.get("importance")
    item = {
        "id": memory.get("id"),
        "content": memory.get("content"),
        "type": memory.get("type"),
        "importance": None if importance is None else round(float(importance), 6),
        "tags": list(memory.get("tags") or []),
        "created_at": iso(memory["created_at"]) if memory.get("created_at") is not None else None,
    }
    for key in ("metadata", "abstract"):
        if memory.get(key):
            item[key] = memory[key]
    if embeddings and memory.get("embedding") is not None:
        item["embedding"] = memory["embedding"]
    return item


__all__ = ["NotEnabled", "SandboxService"]
