"""Run one execution in CPython compiled to WebAssembly, inside this process: the context environment's wall.

    >>> WasmExecutor().run({"op": "execute", "code": "1 + 1", "limits": {"seconds": 2}})["result"]  # doctest: +SKIP
    '2'

The guest is a fresh wasmtime instance per call. What it can reach is what WASI is given here: arguments,
stdin (the request), stdout (a capped buffer); no preopened directory (its only files are the standard
library embedded in the module, in its own memory), no sockets, no environment, no processes or threads.
Its linear memory is capped by the store's limits and its time by an epoch deadline; sleeping goes through
our own ``poll_oneoff``, bounded by the same deadline. None of this needs a privilege, so it holds the same as
root, as a plain user and in Lambda. The answer is untrusted: host.py checks it before anything keeps it.

Stdlib and wasmtime only: the sandbox Lambda's bundle is this package's stdlib-only modules plus wasmtime.
"""

from __future__ import annotations

import ctypes
import json
import os
import struct
import threading
import time
from pathlib import Path
from typing import Any

import wasmtime

from shared.domain.context_env import interpreter
from shared.domain.context_env.host import failure, read_answer

TICK_S = 0.01  # the epoch ticker's period: the deadline's resolution
PROGRAM_FILES = ("state.py", "guest.py")
MARKER = b"\n\x1e\x1emlanswer\x1e\x1e"  # guest.MARKER
ERRNO_SUCCESS, ERRNO_INVAL, ERRNO_FAULT = 0, 28, 21


class _Deadline(Exception):
    """Raised from a host call (a sleep) that reached the call's deadline: it traps the guest."""


def _context_key(context: object) -> int:
    """The store a host call belongs to (host calls may run on another thread than the call that started the
    guest, so a thread-local cannot carry the deadline). Private to wasmtime-py, pinned at 50."""
    return ctypes.addressof(context.contents)  # type: ignore[attr-defined]


def program() -> str:
    """state.py then guest.py: the guest gets the same state codec the host checks with."""
    here = Path(__file__).parent
    future = "from __future__ import annotations\n"  # legal only at the program's top: once, there
    return future + "\n".join((here / name).read_text().replace(future, "") for name in PROGRAM_FILES)


class _Runtime:
    """The engine, the compiled interpreter and a linker, made once per process (SnapStart: before the
    snapshot) and shared by every call; each call gets its own store and instance."""

    def __init__(self, wasm_path: str | None) -> None:
        self.engine = wasmtime.Engine(interpreter.engine_config())
        started = time.monotonic()
        self.module = interpreter.load_module(self.engine, interpreter.locate(wasm_path))
        self.load_s = time.monotonic() - started
        self.deadlines: dict[int, float] = {}  # store -> its monotonic deadline
        linker = wasmtime.Linker(self.engine)
        linker.define_wasi()
        linker.allow_shadowing = True
        poll_type = wasmtime.FuncType([wasmtime.ValType.i32()] * 4, [wasmtime.ValType.i32()])
        linker.define_func("wasi_snapshot_preview1", "poll_oneoff", poll_type, self._poll, access_caller=True)
        clock_type = wasmtime.FuncType(
            [wasmtime.ValType.i32(), wasmtime.ValType.i64(), wasmtime.ValType.i32()], [wasmtime.ValType.i32()]
        )
        linker.define_func(
            "wasi_snapshot_preview1", "clock_time_get", clock_type, self._clock, access_caller=True
        )
        self.pre = linker.instantiate_pre(self.module)
        self.program = program()
        self._ticker = threading.Thread(target=self._tick, name="wasm-epoch", daemon=True)
        self._ticker.start()

    def _tick(self) -> None:
        while True:
            time.sleep(TICK_S)
            self.engine.increment_epoch()

    @staticmethod
    def _clock(caller: wasmtime.Caller, clock_id: int, _precision: int, out: int) -> int:
        """Ours too, so that an absolute monotonic sleep means the same clock to the guest and to ``_poll``."""
        memory = caller.get("memory")
        if not isinstance(memory, wasmtime.Memory) or clock_id not in (0, 1, 2, 3):
            return ERRNO_INVAL
        now = time.time_ns() if clock_id == 0 else time.monotonic_ns()
        try:
            memory.write(caller, struct.pack("<Q", now), out)
        except (IndexError, ValueError, wasmtime.WasmtimeError):
            return ERRNO_FAULT
        return ERRNO_SUCCESS

    def _poll(self, caller: wasmtime.Caller, subs: int, events: int, count: int, out: int) -> int:
        """WASI's only blocking call, ours: clocks sleep no later than the call's deadline; fds are ready."""
        memory = caller.get("memory")
        if not isinstance(memory, wasmtime.Memory) or not 0 < count <= 64:
            return ERRNO_INVAL
        try:
            raw = bytes(memory.read(caller, subs, subs + 48 * count))
        except (IndexError, ValueError, wasmtime.WasmtimeError):
            return ERRNO_FAULT
        ready: list[tuple[int, int]] = []
        sleep_ns: int | None = None
        clocks: list[tuple[int, int]] = []
        for i in range(count):
            userdata, tag = struct.unpack_from("<QB", raw, 48 * i)
            if tag == 0:
                # subscription_clock: id u32 @16, timeout u64 @24, precision u64 @32, flags u16 @40
                (clock_id,) = struct.unpack_from("<I", raw, 48 * i + 16)
                (timeout,) = struct.unpack_from("<Q", raw, 48 * i + 24)
                (flags,) = struct.unpack_from("<H", raw, 48 * i + 40)
                if flags & 1:  # an absolute time on one of _clock's clocks
                    timeout = max(0, timeout - (time.time_ns() if clock_id == 0 else time.monotonic_ns()))
                clocks.append((userdata, timeout))
                sleep_ns = timeout if sleep_ns is None else min(sleep_ns, timeout)
            else:
                ready.append((userdata, tag))
        if not ready and sleep_ns is not None:
            deadline = self.deadlines.get(_context_key(caller._Caller__context), 0.0)  # type: ignore[attr-defined]
            left = deadline - time.monotonic()
            if sleep_ns / 1e9 >= left:
                time.sleep(max(left, 0))
                raise _Deadline
            time.sleep(sleep_ns / 1e9)
            ready = [(userdata, 0) for userdata, timeout in clocks if timeout <= sleep_ns]
        body = b"".join(struct.pack("<QHBxxxxxQHxxxxxx", u, ERRNO_SUCCESS, t, 0, 0) for u, t in ready)
        try:
            memory.write(caller, body, events)
            memory.write(caller, struct.pack("<I", len(ready)), out)
        except (IndexError, ValueError, wasmtime.WasmtimeError):
            return ERRNO_FAULT
        return ERRNO_SUCCESS


_RUNTIMES: dict[str | None, _Runtime] = {}
_LOCK = threading.Lock()


def runtime(wasm_path: str | None = None) -> _Runtime:
    with _LOCK:
        if wasm_path not in _RUNTIMES:
            _RUNTIMES[wasm_path] = _Runtime(wasm_path)
        return _RUNTIMES[wasm_path]


class WasmExecutor:
    """Runs ``execute`` requests in a fresh guest; the answer is the guest's JSON, bounded, not yet checked."""

    def __init__(self, wasm_path: str | None = None) -> None:
        self.runtime = runtime(wasm_path)  # load (or compile) now: at start-up, not on the first request

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("op") != "execute":
            return failure("sandbox_error", "the guest only executes code")
        limits = request.get("limits") or {}
        seconds = float(limits.get("seconds", 30))
        memory = int(limits.get("memory_bytes", 256 << 20))
        # The answer carries the state and the capped output: anything much larger is an attack.
        cap = int(limits.get("state_bytes", 16 << 20)) * 2 + int(limits.get("output_chars", 50_000)) * 8
        cap += 1 << 20
        rt = self.runtime
        config = wasmtime.WasiConfig()
        config.argv = ("python", "-I", "-S", "-c", rt.program)
        config.stderr_file = os.devnull
        stdout = _Pipe(cap)
        try:
            config.stdout_file = stdout.path  # wasmtime opens its own descriptor of the pipe now
        finally:
            stdout.close_writer()
        _stdin(config, json.dumps(request).encode())
        store = wasmtime.Store(rt.engine)
        store.set_wasi(config)
        store.set_limits(memory_size=memory, instances=1, tables=4, memories=1)
        ticks = max(1, int(seconds / TICK_S))
        started = time.monotonic()
        key = _context_key(store._context())
        rt.deadlines[key] = started + seconds
        store.set_epoch_deadline(ticks)
        problem = None
        try:
            instance = rt.pre.instantiate(store)
            start = instance.exports(store)["_start"]
            assert isinstance(start, wasmtime.Func)
            start(store)
        except wasmtime.ExitTrap as exc:
            problem = None if exc.code == 0 else "exit"
        except _Deadline:
            problem = "timeout"
        except wasmtime.Trap as exc:
            problem = "timeout" if exc.trap_code == wasmtime.TrapCode.INTERRUPT else "trap"
        except wasmtime.WasmtimeError:
            problem = "trap"
        finally:
            rt.deadlines.pop(key, None)
            store.close()  # free the instance's memory now, on this thread
        elapsed = time.monotonic() - started
        data, overflow = stdout.collect()
        if problem == "timeout":
            return failure("execution_timeout", f"execution exceeded {seconds:g} s and was stopped", elapsed)
        if overflow:
            return failure("output_too_large", "the sandbox answer exceeded its size limit", elapsed)
        at = data.rfind(MARKER)
        answer = read_answer(data[at + len(MARKER) :]) if at >= 0 else None
        if answer is None and at >= 0 and problem is None:  # it ended well, after writing nonsense
            return failure("sandbox_answer_invalid", "the sandbox's answer is not a JSON object", elapsed)
        if answer is None:
            return failure(
                "sandbox_crashed",
                "the sandbox ended without an answer (memory or stack limit, or the code ended it)",
                elapsed,
            )
        answer["elapsed_ms"] = round(elapsed * 1000, 1)
        return answer


class _Pipe:
    """The guest's stdout: a pipe a thread of ours drains, keeping at most ``cap`` bytes.

    A pipe, not a callback: wasmtime calls output callbacks from its own threads, and one running while the
    interpreter exits aborts the process; not a file, which the guest could grow until the disk is full."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data = bytearray()
        self.overflow = False
        self._read, self._write = os.pipe()
        self.path = f"/dev/fd/{self._write}"
        self._thread = threading.Thread(target=self._drain, name="wasm-stdout", daemon=True)
        self._thread.start()

    def close_writer(self) -> None:
        os.close(self._write)

    def _drain(self) -> None:
        try:
            while chunk := os.read(self._read, 1 << 16):
                if len(self.data) + len(chunk) > self.cap:
                    self.overflow = (
                        True  # keep reading (and dropping): a blocked writer would stall the guest
                    )
                else:
                    self.data += chunk
        finally:
            os.close(self._read)

    def collect(self) -> tuple[bytes, bool]:
        """Everything written, once the guest's descriptor is closed (the store's close does it)."""
        self._thread.join(timeout=5)
        return bytes(self.data), self.overflow


def _stdin(config: wasmtime.WasiConfig, data: bytes) -> None:
    """The request as the guest's stdin, from memory (no file for the next call to find)."""
    from ctypes import byref

    from wasmtime import _ffi as ffi  # the public API offers only a stdin *file*; pinned wasmtime 50

    vec = ffi.bytes_to_capi(data)
    ffi.wasi_config_set_stdin_bytes(config.ptr(), byref(vec))  # takes ownership of the bytes
