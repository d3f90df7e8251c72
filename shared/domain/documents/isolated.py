"""Every document parse runs here: in a child process (``python -m shared.domain.documents.isolated``) with an
address-space limit (RLIMIT_AS), a CPU limit (RLIMIT_CPU) and a wall-clock budget after which it is killed.
A file that needs more is refused with 422 ``document_parse_budget_exceeded``; the process that asked (the API,
``make dev``, the documents Lambda) only waits on pipes, so a hostile file never takes its event loop, its GIL
or its memory.

    >>> IsolatedParser(Limits(), memory_mb=512).parse("text", b"first\\n\\nsecond", seconds=10)  # doctest: +SKIP
    [Page(page_no=0, text='first\\n\\nsecond')]

Lambda's process model decides the mechanism: no /dev/shm (so no multiprocessing queues or pools), no namespaces,
a read-only code directory. A plain subprocess of ``sys.executable`` with three pipes needs none of these: the
bytes go in on stdin, the pages come back as JSON on stdout, and the child sets its own limits before it reads a
byte (a ``preexec_fn`` would not be safe in the API's threads). It gets a minimal environment: no credentials,
no database URL, nothing a parser bug could hand on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import resource
import selectors
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from shared.core.errors import (
    InvalidInput,
    MemoryLayerError,
    Overloaded,
    ParseBudgetExceeded,
    PayloadTooLarge,
    Unprocessable,
    UnsupportedMediaType,
)
from shared.domain.documents import parsers
from shared.domain.documents.parsers import Limits, Page

log = logging.getLogger(__name__)

CHILD_MODULE = "shared.domain.documents.isolated"
# The directory that holds ``shared/`` (/var/task in Lambda, the checkout locally): the child's working
# directory, so ``-m`` finds the same code as this process.
CODE_ROOT = Path(__file__).resolve().parents[3]
# What the interpreter itself may need to start (Lambda sets LD_LIBRARY_PATH and PYTHONPATH); nothing else.
_ENV_KEEP = ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONHOME", "LANG", "LC_ALL", "TZ", "TMPDIR")
_MEMORY_EXIT = 75  # the child's exit status when an allocation failed under RLIMIT_AS
_STDERR_KEPT = 16 * 1024
_CHUNK = 64 * 1024
# Errors the child may hand back, rebuilt as themselves here; anything else is the parser failing.
_ERRORS: dict[str, type[MemoryLayerError]] = {
    cls.__name__: cls
    for cls in (InvalidInput, PayloadTooLarge, UnsupportedMediaType, Unprocessable, ParseBudgetExceeded)
}


class IsolatedParser:
    """``parsers.parse`` in a child process under limits. ``slots`` bounds the children alive at once in this
    process (each may take ``memory_mb``); a parse that finds none free within a second is answered 503
    ``overloaded`` with Retry-After, as any other full pool."""

    def __init__(
        self,
        limits: Limits,
        *,
        memory_mb: int,
        max_text_bytes: int | None = None,
        slots: int = 4,
        python: str | None = None,
    ) -> None:
        self.limits = limits
        self.memory_mb = memory_mb
        self.python = python or sys.executable
        # The JSON of the pages read back: past this the child is killed (the API process holds this much).
        self.max_text_bytes = max_text_bytes or limits.max_unpacked_bytes
        self._slots = threading.BoundedSemaphore(slots)

    def parse(self, kind: str, data: bytes, *, seconds: float) -> list[Page]:
        if not self._slots.acquire(timeout=1.0):
            raise Overloaded("every document parser is busy in this process; retry shortly", retry_after_s=2)
        try:
            return self._run(kind, data, seconds)
        finally:
            self._slots.release()

    def _run(self, kind: str, data: bytes, seconds: float) -> list[Page]:
        request = {
            "kind": kind,
            "limits": asdict(self.limits),
            "seconds": seconds,
            "memory_mb": self.memory_mb,
        }
        deadline = time.monotonic() + seconds
        proc = subprocess.Popen(
            [self.python, "-s", "-B", "-m", CHILD_MODULE, json.dumps(request)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=CODE_ROOT, env={k: os.environ[k] for k in _ENV_KEEP if k in os.environ},
        )  # fmt: skip
        try:
            out, err, over = _exchange(proc, data, deadline, self.max_text_bytes)
            if over is None:
                try:
                    proc.wait(timeout=max(0.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    over = "time"
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for pipe in (proc.stdin, proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        if err:  # pypdf's warnings on a sloppy file; a traceback when the child failed
            level = logging.INFO if proc.returncode == 0 else logging.WARNING
            log.log(level, "document parser (%s) said: %s", kind, err[-2000:].decode(errors="replace"))
        if over == "time":
            raise ParseBudgetExceeded(
                f"reading the document took longer than {seconds:g} s", limit_seconds=seconds
            )
        if over == "output":
            raise ParseBudgetExceeded(
                f"the document's text is over {self.max_text_bytes} bytes", max_text_bytes=self.max_text_bytes
            )
        if (
            proc.returncode < 0 or proc.returncode == _MEMORY_EXIT
        ):  # SIGXCPU, SIGKILL, SIGSEGV on a failed alloc
            raise ParseBudgetExceeded(
                f"reading the document needed more than {self.memory_mb} MB or {math.ceil(seconds)} s of CPU",
                limit_memory_mb=self.memory_mb,
                limit_cpu_seconds=math.ceil(seconds),
            )
        if (
            proc.returncode != 0
        ):  # the child could not start or crashed in our code: a server fault, said loudly
            raise RuntimeError(f"the document parser exited with {proc.returncode}")
        return _pages(json.loads(out))


def _exchange(
    proc: subprocess.Popen[bytes], data: bytes, deadline: float, max_out: int
) -> tuple[bytes, bytes, str | None]:
    """Feed ``data`` to the child and read what it says, until it closes its pipes, the deadline passes
    (``"time"``) or stdout grows past ``max_out`` (``"output"``)."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    out, err = bytearray(), bytearray()
    view, sent = memoryview(data), 0
    with selectors.DefaultSelector() as selector:
        os.set_blocking(proc.stdin.fileno(), False)
        selector.register(proc.stdin, selectors.EVENT_WRITE)
        selector.register(proc.stdout, selectors.EVENT_READ)
        selector.register(proc.stderr, selectors.EVENT_READ)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return bytes(out), bytes(err), "time"
            for key, _ in selector.select(left):
                pipe: IO[bytes] = key.fileobj  # type: ignore[assignment]
                if pipe is proc.stdin:
                    try:
                        sent += os.write(pipe.fileno(), view[sent : sent + _CHUNK])
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:  # the child stopped reading (it died): its exit says why
                        sent = len(view)
                    if sent >= len(view):
                        selector.unregister(pipe)
                        with contextlib.suppress(BrokenPipeError):
                            pipe.close()
                    continue
                chunk = os.read(pipe.fileno(), _CHUNK)
                if not chunk:
                    selector.unregister(pipe)
                elif pipe is proc.stdout:
                    out += chunk
                    if len(out) > max_out:
                        return bytes(out), bytes(err), "output"
                elif len(err) < _STDERR_KEPT:
                    err += chunk
    return bytes(out), bytes(err), None


def _pages(reply: dict[str, Any]) -> list[Page]:
    if "error" in reply:
        error = reply["error"]
        cls = _ERRORS.get(error["type"], InvalidInput)
        raise cls(error["message"], code=error["code"], **error["details"])
    return [Page(int(no), str(text)) for no, text in reply["pages"]]


# ---------------------------------------------------------------------------------------------- the child
def _limit(memory_mb: int, seconds: float) -> None:
    """Limits the child cannot raise again: address space, CPU (SIGXCPU at the soft limit, SIGKILL one second
    later), no files written, no core dumps."""
    size = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (size, size))
    cpu = max(1, math.ceil(seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _child() -> None:
    request = json.loads(sys.argv[1])
    _limit(int(request["memory_mb"]), float(request["seconds"]))
    data = sys.stdin.buffer.read()
    reply: dict[str, Any]
    try:
        pages = parsers.parse(request["kind"], data, limits=Limits(**request["limits"]))
        reply = {"pages": [[p.page_no, p.text] for p in pages]}
    except MemoryLayerError as exc:
        reply = {"error": {"type": type(exc).__name__, "code": exc.code, "message": exc.message,
                           "details": exc.details}}  # fmt: skip
    except MemoryError:  # unwound, so the reply fits again; if not, __main__ exits with _MEMORY_EXIT
        reply = {"error": {"type": "ParseBudgetExceeded", "code": ParseBudgetExceeded.code,
                           "message": f"reading the document needed more than {request['memory_mb']} MB",
                           "details": {"limit_memory_mb": request["memory_mb"]}}}  # fmt: skip
    except RecursionError:
        reply = {"error": {"type": "ParseBudgetExceeded", "code": ParseBudgetExceeded.code,
                           "message": "the document nests too deeply to read", "details": {}}}  # fmt: skip
    except (
        Exception
    ) as exc:  # a parser library failing on hostile bytes: the bytes are refused, the trace kept
        traceback.print_exc()
        reply = {"error": {"type": "InvalidInput", "code": "corrupt_document",
                           "message": f"the document cannot be read: {exc.__class__.__name__}", "details": {}}}  # fmt: skip
    sys.stdout.buffer.write(json.dumps(reply, ensure_ascii=False).encode())
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    try:
        _child()
    except MemoryError:
        os._exit(_MEMORY_EXIT)  # nothing more can be allocated, not even a reply
