"""Where caller code runs: CPython-in-WebAssembly in this process, or the sandbox Lambda in AWS.

    >>> executor = create_executor(Settings(context_executor="wasm"))   # doctest: +SKIP
    >>> executor.run({"op": "execute", "code": "1 + 1", "limits": {...}})["result"]  # doctest: +SKIP
    '2'

Either way the request and the answer are the same JSON (shared/domain/context_env/guest.py); the answer is untrusted
until shared/domain/context_env/host.py has checked it.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, Protocol

from shared.core import metering, metrics
from shared.core.settings import Settings
from shared.core.tenants import DEFAULT_TENANT
from shared.domain.context_env.host import failure, read_answer

log = logging.getLogger("memorylayer.sandbox")


class Executor(Protocol):
    def run(self, request: dict[str, Any], *, tenant_id: str | None = None) -> dict[str, Any]: ...


Run = Callable[..., dict[str, Any]]


def metered(run: Run) -> Run:
    """Count and time each execution by outcome: ``ok``, ``error`` (the guest's or the runner's answered
    failure) or ``failed`` (it raised); and meter the guest's time, its tenant's to pay whatever it answered
    (here, not in host.py: the sandbox function's asset carries host.py but not ``shared.core``)."""

    @wraps(run)
    def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        started, outcome = time.perf_counter(), "failed"
        try:
            answer = run(*args, **kwargs)
            outcome = "ok" if answer.get("ok") else "error"
            elapsed = answer.get("elapsed_ms")
            if isinstance(elapsed, int | float):
                metering.count(sandbox_ms=round(elapsed))
            return answer
        finally:
            metrics.record(metrics.SANDBOX_EXECUTIONS, outcome=outcome)
            metrics.record(metrics.SANDBOX_LATENCY, time.perf_counter() - started, outcome=outcome)

    return counted


class LocalExecutor:
    """The guest in this process (shared/domain/context_env/wasm.py): make dev, memorylayer serve, tests."""

    def __init__(self, wasm_path: str | None = None) -> None:
        from shared.domain.context_env.interpreter import InterpreterMissing
        from shared.domain.context_env.wasm import WasmExecutor

        self.wasm: WasmExecutor | None = None
        self.missing = ""
        try:
            self.wasm = WasmExecutor(wasm_path)  # load (or compile, once per machine) at start-up
        except InterpreterMissing as exc:  # the rest of the API still serves; /v1/context says why not
            self.missing = str(exc)
            log.warning("context environment unavailable: %s", exc)

    @metered
    def run(self, request: dict[str, Any], *, tenant_id: str | None = None) -> dict[str, Any]:
        if self.wasm is None:
            return failure("interpreter_missing", self.missing)
        return self.wasm.run(request)  # admission (how many at once, per tenant, per key): gate.py


class LambdaExecutor:
    """Invoke the sandbox function (functions/sandbox) synchronously; it runs the same guest.

    Lambda's 6 MB synchronous payload limit bounds the state it can carry (docs/context-environment.md).
    """

    def __init__(self, function_name: str, client: Any = None, *, tenant_isolation: bool = True) -> None:
        self.function_name = function_name
        self.tenant_isolation = tenant_isolation
        self._client = client  # made on first use: a context pack never pays for boto3's Lambda client

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3
            from botocore.config import Config

            # No retries: an execution is not idempotent, and a timeout must not run the code twice.
            self._client = boto3.client("lambda", config=Config(retries={"max_attempts": 0}, read_timeout=60))
        return self._client

    @metered
    def run(self, request: dict[str, Any], *, tenant_id: str | None = None) -> dict[str, Any]:
        from botocore.exceptions import ClientError

        # In tenant isolation mode one tenant's calls never share an execution environment (its memory, its /tmp)
        # with another's; Lambda then requires the id on every invoke, and refuses it on a function without the mode.
        tenancy = {"TenantId": tenant_id or DEFAULT_TENANT} if self.tenant_isolation else {}
        try:
            response = self.client.invoke(
                FunctionName=self.function_name,
                InvocationType="RequestResponse",
                Payload=json.dumps(request).encode(),
                **tenancy,
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "TooManyRequestsException":
                return failure(
                    "sandbox_throttled", "the sandbox function is at its concurrency; retry shortly"
                )
            raise
        payload = response["Payload"].read()
        if response.get("FunctionError"):
            return failure("sandbox_crashed", "the sandbox function failed")
        answer = read_answer(payload)
        if answer is None:
            return failure("sandbox_answer_invalid", "the sandbox function's answer is not a JSON object")
        return answer


def create_executor(settings: Settings) -> Executor | None:
    """None when the context environment is switched off (every route answers 501)."""
    if settings.context_executor == "off":
        return None
    if settings.context_executor == "lambda":
        if not settings.context_sandbox_function:
            raise ValueError("context_executor=lambda needs MEMORYLAYER_CONTEXT_SANDBOX_FUNCTION")
        return LambdaExecutor(
            settings.context_sandbox_function, tenant_isolation=settings.context_sandbox_tenant_isolation
        )
    return LocalExecutor(settings.context_wasm_path)
