"""Process hygiene of the local stack: children die with their parent, and a start reclaims its orphans.

    >>> subprocess.Popen(cmd, start_new_session=True, preexec_fn=die_with_parent(signal.SIGTERM))  # doctest: +SKIP
    >>> reclaim_orphans(Path(".data"))      # before starting: stops what a killed `make dev` left   # doctest: +SKIP
    >>> write_state(Path(".data"), DevState.current(database_url=..., database_owner_url=..., children=[...]))
    ... # doctest: +SKIP

Each child runs in its own process group (a Ctrl-C in the terminal reaches only `memorylayer dev`, which then
stops them in order) and carries Linux's parent-death signal (``prctl(PR_SET_DEATHSIG)``): a ``kill -9`` of the
dev process still stops them. For what escapes that (another OS, a child that ignored the signal), the dev
process records itself and its children in ``<data dir>/dev.json``; the next start stops those still running
whose owner is gone, instead of reusing them. The CLI reads the same file to find the local stack's database.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil

STATE_FILE = "dev.json"
_PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int = signal.SIGTERM) -> Callable[[], None]:
    """A ``preexec_fn``: the child gets ``sig`` when the thread that started it ends (Linux; elsewhere a no-op,
    and the pid file covers it). Call ``Popen`` from the main thread: the signal follows the creating thread."""
    parent = os.getpid()

    def _preexec() -> None:
        if sys.platform != "linux":
            return
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl: the signal will never come
            os.kill(os.getpid(), sig)

    return _preexec


def exit_with_parent(sig: int = signal.SIGTERM) -> None:
    """This process gets ``sig`` when its parent ends (``make`` killed by ``kill -9``): a foreground stack
    that outlived its terminal would hold the ports and the data directory (Linux; elsewhere a no-op)."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)


@dataclass
class Child:
    name: str
    pid: int
    create_time: float  # with the pid, names one process: a pid may be reused after its process ended

    @classmethod
    def of(cls, name: str, pid: int) -> Child:
        return cls(name, pid, psutil.Process(pid).create_time())

    def process(self) -> psutil.Process | None:
        """The process if it still runs (and is the same one)."""
        try:
            proc = psutil.Process(self.pid)
            if abs(proc.create_time() - self.create_time) < 0.01 and proc.status() != psutil.STATUS_ZOMBIE:
                return proc
        except psutil.Error:
            pass
        return None


@dataclass
class DevState:
    """What ``<data dir>/dev.json`` holds while ``memorylayer dev`` runs."""

    owner: Child
    database_url: str | None = None
    database_owner_url: str | None = None
    api_url: str | None = None
    children: list[Child] = field(default_factory=list)

    @classmethod
    def current(cls, **values: object) -> DevState:
        return cls(owner=Child.of("memorylayer dev", os.getpid()), **values)  # type: ignore[arg-type]

    @property
    def running(self) -> bool:
        return self.owner.process() is not None


def write_state(data_dir: Path, state: DevState) -> None:
    path = data_dir / STATE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        json.dump(asdict(state), f, indent=2)
    tmp.replace(path)  # readers never see half a file


def read_state(data_dir: Path) -> DevState | None:
    try:
        raw = json.loads((data_dir / STATE_FILE).read_text())
        return DevState(
            owner=Child(**raw["owner"]),
            database_url=raw.get("database_url"),
            database_owner_url=raw.get("database_owner_url"),
            api_url=raw.get("api_url"),
            children=[Child(**c) for c in raw.get("children", [])],
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def clear_state(data_dir: Path) -> None:
    state = read_state(data_dir)
    if state is not None and state.owner.pid == os.getpid():
        (data_dir / STATE_FILE).unlink(missing_ok=True)


def stop_process(proc: psutil.Process, sig: int = signal.SIGTERM, timeout_s: float = 15.0) -> None:
    """``sig``, then SIGKILL if it is still there after ``timeout_s``."""
    try:
        proc.send_signal(sig)
        proc.wait(timeout_s)
    except psutil.TimeoutExpired:
        proc.kill()
        proc.wait(5)
    except psutil.NoSuchProcess:
        pass


class StackAlreadyRunning(RuntimeError):
    pass


def reclaim_orphans(data_dir: Path) -> list[Child]:
    """Stop the children a dead ``memorylayer dev`` left running on ``data_dir`` (returns them), or refuse if
    that dev process still runs: two stacks on one data directory would share one Postgres."""
    state = read_state(data_dir)
    reclaimed: list[Child] = []
    if state is not None:
        if state.running and state.owner.pid != os.getpid():
            raise StackAlreadyRunning(
                f"the local stack already runs on {data_dir} (pid {state.owner.pid}, {state.api_url}): "
                "stop it first, or use another MEMORYLAYER_DATA_DIR"
            )
        for child in state.children:
            proc = child.process()
            if proc is not None:
                # Postgres: SIGINT is its fast shutdown (clean, no recovery at the next start).
                stop_process(proc, signal.SIGINT if child.name == "postgres" else signal.SIGTERM)
                reclaimed.append(child)
        (data_dir / STATE_FILE).unlink(missing_ok=True)
    return reclaimed
