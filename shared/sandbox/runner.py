"""Run one executor request in a confined child process: the local executor, and the sandbox Lambda's core.

    >>> ProcessRunner().run({"op": "execute", "code": "1 + 1", "limits": {"seconds": 2}})["result"]  # doctest: +SKIP
    '2'

The child is ``python -I -S shared/sandbox/executor.py`` with an empty environment, a fresh working
directory that is deleted afterwards, address-space and CPU rlimits, its own session (so the whole group
can be killed), and a wall-clock kill. Where the OS permits (root, or user namespaces), it starts inside
``unshare --net --pid --fork --kill-child``: no network interface but a downed loopback, and every process
it might have started dies with it. ``isolation()`` says which of these hold on this machine.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

EXECUTOR = Path(__file__).with_name("executor.py")
STARTUP_GRACE_S = 0.5  # interpreter start and state load: not the caller's seconds
NOBODY = 65534


@functools.cache
def namespace_wrapper() -> tuple[str, ...]:
    """``unshare`` arguments when this machine lets us make a network + pid namespace, else ()."""
    unshare = shutil.which("unshare")
    if not unshare:
        return ()
    args = (unshare, "--net", "--pid", "--fork", "--kill-child")
    try:
        done = subprocess.run([*args, "true"], capture_output=True, timeout=5, env={})
    except (OSError, subprocess.SubprocessError):
        return ()
    return args if done.returncode == 0 else ()


def isolation() -> dict[str, bool]:
    """What the local executor can enforce here (docs/context-environment.md; each answer lists what held)."""
    return {
        "process": True,
        "rlimits": True,
        "empty_env": True,
        "network_namespace": bool(namespace_wrapper()),
        "chroot_and_nobody": os.geteuid() == 0,
    }


class ProcessRunner:
    """One child process per request; nothing survives it but the JSON answer (the state is in it)."""

    def __init__(self, *, python: str | None = None, max_concurrent: int = 4, queue_s: float = 5.0) -> None:
        self.python = python or sys.executable
        # At most this many children at once (each may hold its whole address-space cap): a burst of calls
        # waits ``queue_s`` for a slot, then gets ``sandbox_slots_full`` instead of exhausting the machine.
        self._slots = threading.BoundedSemaphore(max_concurrent)
        self.queue_s = queue_s

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        if not self._slots.acquire(timeout=self.queue_s):
            return failure("sandbox_slots_full", "every sandbox slot is in use; retry shortly", self.queue_s)
        try:
            return self._run_one(request)
        finally:
            self._slots.release()

    def _run_one(self, request: dict[str, Any]) -> dict[str, Any]:
        limits = request.setdefault("limits", {})
        seconds = float(limits.get("seconds", 30))
        memory = int(limits.get("memory_bytes", 256 << 20))
        # The answer holds the state (base64) and the capped output: anything much larger is an attack.
        max_answer = (
            int(limits.get("state_bytes", 16 << 20)) * 2 + int(limits.get("output_chars", 50_000)) * 4
        )
        max_answer += 1 << 20
        workdir = tempfile.mkdtemp(prefix="memorylayer-sandbox-")
        try:
            if os.geteuid() == 0:
                os.chown(workdir, NOBODY, NOBODY)  # the child drops to nobody and writes only here
            return self._run(request, workdir, seconds, memory, max_answer)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    def _run(self, request: dict, workdir: str, seconds: float, memory: int, max_answer: int) -> dict:
        cpu = int(seconds) + 1

        def limit() -> None:  # in the child, before exec: hold from the first instruction
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

        command = [*namespace_wrapper(), self.python, "-I", "-S", str(EXECUTOR)]
        started = time.monotonic()
        proc = subprocess.Popen(  # noqa: S603 - fixed argv; the caller's code travels on stdin
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={},
            cwd=workdir,
            preexec_fn=limit,  # noqa: PLW1509 - single-threaded child side; only rlimits
            start_new_session=True,
        )
        deadline = started + seconds + STARTUP_GRACE_S
        try:
            data, problem = self._exchange(proc, json.dumps(request).encode(), deadline, max_answer)
        finally:
            self._kill(proc)
        elapsed = time.monotonic() - started
        if problem == "timeout":
            return failure("execution_timeout", f"execution exceeded {seconds:g} s and was stopped", elapsed)
        if problem == "too_large":
            return failure("output_too_large", "the sandbox answer exceeded its size limit", elapsed)
        try:
            answer = json.loads(data)
        except ValueError:
            signalled = -proc.returncode if proc.returncode and proc.returncode < 0 else None
            if signalled == signal.SIGXCPU:
                return failure("execution_timeout", f"execution used more than {cpu} s of CPU", elapsed)
            return failure(
                "sandbox_crashed",
                "the sandbox process ended without an answer (memory or resource limit)",
                elapsed,
            )
        if not isinstance(answer, dict):
            return failure("sandbox_crashed", "the sandbox answered nonsense", elapsed)
        answer["elapsed_ms"] = round(elapsed * 1000, 1)
        return answer

    @staticmethod
    def _exchange(
        proc: subprocess.Popen, payload: bytes, deadline: float, cap: int
    ) -> tuple[bytes, str | None]:
        """Write the request, read the answer until EOF, the deadline or the cap (whichever comes first)."""
        assert proc.stdin and proc.stdout
        try:
            proc.stdin.write(payload)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        chunks: list[bytes] = []
        size = 0
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return b"", "timeout"
                if not selector.select(timeout=left):
                    continue
                chunk = os.read(proc.stdout.fileno(), 1 << 16)
                if not chunk:
                    return b"".join(chunks), None
                size += len(chunk)
                if size > cap:
                    return b"", "too_large"
                chunks.append(chunk)

    @staticmethod
    def _kill(proc: subprocess.Popen) -> None:
        """The whole group (and, with unshare, the whole pid namespace) dies with the answer."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)
        if proc.stdout:
            proc.stdout.close()


def failure(code: str, message: str, elapsed: float) -> dict[str, Any]:
    return {"ok": False, "code": code, "error": message, "elapsed_ms": round(elapsed * 1000, 1)}
