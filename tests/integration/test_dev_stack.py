"""Process hygiene of `make dev`: its Postgres and moto never outlive it, and a start reclaims what a dead run
left behind (shared/local/processes.py). The stack runs as a real subprocess, as `make dev` runs it."""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from shared.local.processes import (
    Child,
    DevState,
    StackAlreadyRunning,
    read_state,
    reclaim_orphans,
    write_state,
)
from shared.local.server import free_port


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dev-stack")


def start_stack(data_dir: Path, auth_mode: str = "none") -> tuple[subprocess.Popen, DevState]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    port = free_port()
    env |= {
        "MEMORYLAYER_DATA_DIR": str(data_dir),
        "MEMORYLAYER_PORT": str(port),
        "MEMORYLAYER_SQS_PORT": str(free_port()),
        "MEMORYLAYER_EMBEDDING_PROVIDER": "hash",
        "MEMORYLAYER_AUTH_MODE": auth_mode,
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "dev"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(data_dir / "dev.log").open("ab"),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, (data_dir / "dev.log").read_text()[-3000:]
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("the local stack did not answer /health")
    state = read_state(data_dir)
    assert state is not None and state.owner.pid == proc.pid
    assert sorted(c.name for c in state.children) == ["moto", "postgres"]
    assert all(c.process() is not None for c in state.children)
    return proc, state


def gone(children: list[Child], timeout_s: float = 30) -> list[str]:
    """The children still running after ``timeout_s`` (empty when all stopped)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        left = [f"{c.name} (pid {c.pid})" for c in children if c.process() is not None]
        if not left:
            return []
        time.sleep(0.2)
    return left


def test_kill_9_of_the_stack_takes_postgres_and_moto_with_it(data_dir: Path) -> None:
    proc, state = start_stack(data_dir)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    assert gone(state.children) == []


def test_ctrl_c_leaves_nothing_running(data_dir: Path) -> None:
    # Same data dir: a restart after the kill above (its dev.json names a dead owner) starts cleanly.
    proc, state = start_stack(data_dir)
    url = state.api_url
    ready = [
        line for line in (data_dir / "dev.log").read_text().splitlines() if f"MemoryLayer on {url}" in line
    ]
    assert ready and f"{url}/console" in ready[-1] and f"{url}/docs" in ready[-1], ready  # where to go next
    proc.send_signal(signal.SIGINT)
    assert proc.wait(60) == 0
    assert gone(state.children, timeout_s=5) == []
    assert read_state(data_dir) is None


def test_api_key_mode_makes_and_keeps_its_cursor_secret(tmp_path: Path) -> None:
    # The README's `MEMORYLAYER_AUTH_MODE=api_key make dev`, with no secret configured: it starts, asks for keys
    for run in range(2):
        proc, state = start_stack(tmp_path, auth_mode="api_key")
        try:
            assert httpx.get(f"{state.api_url}/v1/memories", timeout=5).status_code == 401
            secret = tmp_path / "context-cursor-secret"
            assert secret.stat().st_mode & 0o777 == 0o600
            if run == 0:
                first = secret.read_text()
            else:
                assert secret.read_text() == first  # kept: cursors survive the restart
        finally:
            proc.send_signal(signal.SIGINT)
            assert proc.wait(60) == 0


@pytest.fixture
def stray() -> Iterator[subprocess.Popen]:
    proc = subprocess.Popen(["sleep", "300"], start_new_session=True)
    yield proc
    proc.kill()
    proc.wait()


def test_a_start_stops_the_orphans_a_dead_run_recorded(tmp_path: Path, stray: subprocess.Popen) -> None:
    dead = subprocess.Popen(["true"])
    owner = Child.of("memorylayer dev", dead.pid)
    dead.wait()  # the owner is gone; its child escaped (as it would without a parent-death signal)
    child = Child.of("moto", stray.pid)
    write_state(tmp_path, DevState(owner=owner, children=[child]))
    assert [c.pid for c in reclaim_orphans(tmp_path)] == [stray.pid]
    assert gone([child], timeout_s=0.5) == []
    assert read_state(tmp_path) is None


def test_a_start_refuses_a_data_dir_whose_stack_still_runs(tmp_path: Path, stray: subprocess.Popen) -> None:
    write_state(
        tmp_path, DevState(owner=Child.of("memorylayer dev", stray.pid), api_url="http://127.0.0.1:1")
    )
    with pytest.raises(StackAlreadyRunning, match=f"pid {stray.pid}"):
        reclaim_orphans(tmp_path)
    assert psutil.Process(stray.pid).is_running() and read_state(tmp_path) is not None


def test_a_postmaster_left_on_the_data_dir_is_stopped_not_reused(tmp_path: Path) -> None:
    # What a `make dev` from before this change left behind: a daemonized postmaster (pg_ctl) on .data/pg.
    from shared.local.postgres import EmbeddedPostgres

    old = EmbeddedPostgres.start(tmp_path / "pg")
    atexit.unregister(old.server._cleanup)  # this test process is not that old run: it must not stop anything
    leftover = Child.of("postgres", old.pid)
    new = EmbeddedPostgres.start_child(tmp_path / "pg")
    ours = Child.of("postgres", new.pid)
    try:
        assert gone([leftover], timeout_s=5) == []
        assert ours.pid != leftover.pid and psutil.Process(ours.pid).ppid() == os.getpid()
    finally:
        new.stop()
    assert gone([ours], timeout_s=5) == []
