"""Start and stop the two servers under comparison, each in its own process group.

- The reference: PyPI ``memorylayer-server==0.2.0`` in its own Python 3.12 venv (``.venv-ref312/``, made on
  the first run and reused while its marker file names the same packages). This Python build's ``sqlite3``
  cannot load extensions, so the venv carries a ``sitecustomize.py`` that puts ``pysqlite3``
  (``pysqlite3-binary``) in its place; without it the reference silently falls back to pure-Python vector
  search. Startup fails loudly if sqlite-vec did not load.
- Ours: ``bench.compare.ours_server`` (``bench.common.local_stack("hash")``) in a child of this interpreter.

``load_reference_directly`` fills the reference's data directory in-process with its own code
(``ref_bulk_load.py``), while no reference server runs on it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench.common import wait_healthy
from infra.bundle import lambda_python
from shared.local.server import free_port

REPO = Path(__file__).resolve().parents[2]
REF_VENV = REPO / ".venv-ref312"
REF_PACKAGES = ("memorylayer-server==0.2.0", "pysqlite3-binary==0.5.4.post2")
REF_MARKER = REF_VENV / ".bench-compare-ready"
SITECUSTOMIZE = '''"""bench.compare: this sqlite3 cannot load extensions; pysqlite3 (bundled SQLite) can."""

import sys

import pysqlite3

sys.modules["sqlite3"] = pysqlite3
'''
VERIFY_SQLITE_VEC = (
    "import sqlite3, sqlite_vec; c = sqlite3.connect(':memory:'); c.enable_load_extension(True); "
    "c.load_extension(sqlite_vec.loadable_path()); print(sqlite3.__name__, c.execute('select vec_version()')"
    ".fetchone()[0])"
)


@dataclass
class Server:
    name: str
    base_url: str
    process: subprocess.Popen[bytes]
    log_path: Path
    info: dict[str, str]


def find_python312() -> Path:
    python = os.environ.get("REF_PYTHON312") or lambda_python()
    if not python:
        raise SystemExit("bench.compare needs a Python 3.12 for memorylayer-server 0.2.0 (set REF_PYTHON312)")
    return Path(python)


def ensure_reference_venv() -> Path:
    """Create ``.venv-ref312`` with the reference server unless its marker says it is ready; returns the
    venv's python."""
    python = REF_VENV / "bin" / "python"
    wanted = "\n".join(REF_PACKAGES)
    if REF_MARKER.is_file() and REF_MARKER.read_text() == wanted and python.is_file():
        return python
    base = find_python312()
    print(
        f"[compare] creating {REF_VENV.name} with {base} and installing {' '.join(REF_PACKAGES)} …",
        flush=True,
    )
    subprocess.run([str(base), "-m", "venv", "--clear", str(REF_VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *REF_PACKAGES], check=True)
    site_packages = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site_packages / "sitecustomize.py").write_text(SITECUSTOMIZE)
    check = subprocess.run([str(python), "-c", VERIFY_SQLITE_VEC], capture_output=True, text=True)
    if check.returncode != 0 or not check.stdout.startswith("pysqlite3 "):
        raise SystemExit(f"sqlite-vec does not load in {REF_VENV}: {check.stdout}{check.stderr}")
    print(f"[compare] sqlite-vec loads through {check.stdout.strip()}", flush=True)
    REF_MARKER.write_text(wanted)
    return python


def stop_group(process: subprocess.Popen[bytes], grace_s: float = 30.0) -> None:
    """SIGTERM the process group, then SIGKILL it if it is still there after ``grace_s``."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace_s)
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # stragglers of the group, if any
    process.wait()


def reference_env(data_dir: Path) -> dict[str, str]:
    """The reference's environment: its data directory and the ``hash`` embedding provider."""
    env = {**os.environ, "MEMORYLAYER_DATA_DIR": str(data_dir), "MEMORYLAYER_EMBEDDING_PROVIDER": "hash"}
    env.pop("PYTHONPATH", None)
    return env


@contextmanager
def reference_server(workdir: Path, extra_env: dict[str, str] | None = None) -> Iterator[Server]:
    """The reference (``memorylayer serve``, via ``ref_serve.py``) on ``workdir/ref-data`` (kept across
    restarts); ``extra_env``: more of its settings (``MEMORYLAYER_*``)."""
    python = ensure_reference_venv()
    port = free_port()
    data_dir = workdir / "ref-data"
    data_dir.mkdir(exist_ok=True)
    log_path = workdir / "reference.log"
    env = {
        **reference_env(data_dir),
        "MEMORYLAYER_SERVER_HOST": "127.0.0.1",
        "MEMORYLAYER_SERVER_PORT": str(port),
        "MEMORYLAYER_SHUTDOWN_GRACE_S": "5",
        **(extra_env or {}),
    }
    log_start = log_path.stat().st_size if log_path.exists() else 0
    with log_path.open("ab") as log:  # appended across restarts
        process = subprocess.Popen(
            # ref_serve.py: its startup runs of the daily jobs wait their interval (the file says why).
            [
                str(python),
                str(REPO / "bench/compare/ref_serve.py"),
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=data_dir,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        base_url = f"http://127.0.0.1:{port}"
        wait_healthy(base_url, process, timeout_s=180, log_path=log_path)
        text = log_path.read_bytes()[log_start:].decode(errors="replace")
        if "sqlite-vec extension loaded successfully" not in text:
            raise RuntimeError(
                f"the reference did not load sqlite-vec (pure-Python fallback); see {log_path}"
            )
        version = httpx.get(f"{base_url}/", timeout=5).json().get("version", "?")
        yield Server(
            "reference", base_url, process, log_path, {"version": str(version), "storage": "sqlite-vec"}
        )
    finally:
        stop_group(process)


def load_reference_directly(
    workdir: Path, workspace: str, contents: list[str], max_seconds: float | None = None
) -> dict[str, Any]:
    """Load ``contents`` into ``workspace`` of the reference's data directory with ``ref_bulk_load.py`` (no
    reference server may run on it meanwhile); returns the loader's summary (loaded, seconds, per_s, …)."""
    python = ensure_reference_venv()
    data_dir = workdir / "ref-data"
    data_dir.mkdir(exist_ok=True)
    input_path = workdir / "ref-load.jsonl"
    input_path.write_text("".join(json.dumps(c) + "\n" for c in contents))
    log_path = workdir / "reference-load.log"
    command = [
        str(python),
        str(REPO / "bench/compare/ref_bulk_load.py"),
        "--data-dir",
        str(data_dir),
        "--workspace",
        workspace,
        "--input",
        str(input_path),
    ]
    if max_seconds is not None:
        command += ["--max-seconds", str(max_seconds)]
    with log_path.open("ab") as log:  # appended across loads
        process = subprocess.Popen(
            command,
            cwd=data_dir,
            env=reference_env(data_dir),
            stdout=subprocess.PIPE,
            stderr=log,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        stdout, _ = process.communicate()
    finally:
        stop_group(process)
        input_path.unlink(missing_ok=True)
    lines = stdout.decode(errors="replace").strip().splitlines()
    if process.returncode != 0 or not lines:
        raise RuntimeError(f"ref_bulk_load.py exited with {process.returncode}; see {log_path}")
    return json.loads(lines[-1])


@contextmanager
def our_server(workdir: Path) -> Iterator[Server]:
    log_path = workdir / "ours.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "bench.compare.ours_server"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=log,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        first_line: list[bytes] = []
        assert process.stdout is not None
        reader = threading.Thread(target=lambda: first_line.append(process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout=180)
        if not first_line or not first_line[0].strip():
            raise RuntimeError(f"our stack did not start; see {log_path}")
        info = json.loads(first_line[0])
        wait_healthy(info["base_url"], process, timeout_s=30, log_path=log_path)
        yield Server("ours", info["base_url"], process, log_path, {"storage": "postgres+pgvector"})
    finally:
        stop_group(process, grace_s=60)


def process_cpu_seconds(pid: int) -> float:
    """User+system CPU of a process and its reaped children, from /proc (0.0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def wait_idle(
    pids: list[int], *, below_cores: float = 0.1, window_s: float = 1.0, max_wait_s: float = 300
) -> float:
    """Wait until the given processes together use < ``below_cores`` of CPU over ``window_s`` (background work
    after a load, e.g. the reference's tiering and auto-enrich tasks); returns the seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < max_wait_s:
        before = sum(process_cpu_seconds(p) for p in pids)
        time.sleep(window_s)
        if sum(process_cpu_seconds(p) for p in pids) - before < below_cores * window_s:
            break
    return round(time.monotonic() - started, 1)


def scratch_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="ml-compare-"))
