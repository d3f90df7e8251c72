"""The guest's walls, attacked as an audit did, in a process shaped like Lambda's and as root.

Every attempt switches the AST check off and reaches the real ``os`` module through ``random._os``: the
walls must hold on their own. Each mode runs one probe process (tests/sandbox_probe.py) with fake
credentials in its environment and a fresh TMPDIR; ``as_user`` drops to an unprivileged user first (no
capabilities, no namespaces, code it cannot write), the way the sandbox Lambda runs.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from shared.domain.context_env import interpreter
from shared.domain.context_env.guest import MARKER

NOBODY = 65534
SECRETS = {
    "AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE0001",
    "AWS_SECRET_ACCESS_KEY": "fake-secret-access-key-do-not-leak",
    "AWS_SESSION_TOKEN": "fake-session-token-do-not-leak",
    "MEMORYLAYER_ADMIN_KEY": "fake-admin-key-do-not-leak",
}
OS = "import random\nos = random._os\n"
BUILTIN_IMPORT = "imp = os.sys.modules['builtins'].__import__\n"
LIMITS = {"seconds": 2, "memory_bytes": 256 << 20, "state_bytes": 1 << 20, "output_chars": 1000}
LEAK = "/usr/local/lib/python3.12/leak.txt"


def forged(variables: int) -> str:
    """An answer written by caller code itself, with more variables than the host keeps."""
    state = json.dumps({"format": 1, "vars": {f"v{i}": i for i in range(variables)}})
    fake = {
        "ok": True,
        "state": state,
        "output": "y" * 100_000,
        "summary": {"v0": {"type": "admin", "preview": "z" * 100_000, "size_bytes": -1}},
    }
    return repr((MARKER + json.dumps(fake)).encode())


def attempts(port: int) -> dict[str, tuple[str, dict]]:
    pid = os.getpid()
    return {
        "env": (OS + "dict(os.environ)", {}),
        "root": (OS + "os.listdir('/')", {}),
        "proc_self": (OS + "os.open('/proc/self/environ', os.O_RDONLY)", {}),
        "proc_parent": (OS + f"os.open('/proc/{pid}/environ', os.O_RDONLY)", {}),
        "proc_mem": (OS + f"os.open('/proc/{pid}/mem', os.O_RDWR)", {}),
        "passwd": (OS + "os.open('/etc/passwd', os.O_RDONLY)", {}),
        "chdir_out": (OS + "os.chdir('/tmp')", {}),
        "leave_file": (OS + f"f = os.open({LEAK!r}, os.O_CREAT | os.O_WRONLY)\nos.write(f, b'x')\nf", {}),
        "edit_stdlib": (OS + "f = os.open(os.__file__, os.O_WRONLY)\nos.write(f, b'x')", {}),
        "find_file": (OS + f"os.path.exists({LEAK!r})", {}),
        "fork": (OS + "os.fork()", {}),
        "spawn": (OS + BUILTIN_IMPORT + "imp('subprocess').run(['id'])", {}),
        "kill": (OS + "os.kill(1, 9)", {}),
        "socket": (OS + BUILTIN_IMPORT + f"imp('socket').create_connection(('127.0.0.1', {port}), 1)", {}),
        "ctypes": (OS + BUILTIN_IMPORT + "imp('ctypes')", {}),
        "thread": (OS + BUILTIN_IMPORT + "imp('threading').Thread(target=print).start()", {}),
        "memory_bomb": ("a = 'a' * (1 << 30)", {}),
        "memory_creep": ("b = []\nwhile True:\n    b.append(bytearray(1 << 20))", {}),
        "endless_loop": ("while True:\n    pass", {"seconds": 1}),
        "long_sleep": ("import time\ntime.sleep(30)", {"seconds": 1}),
        "stack": (OS + "os.sys.setrecursionlimit(10 ** 6)\ndef f():\n    return f()\nf()", {}),
        "forged_answer": (OS + f"os.write(1, {forged(3000)})\nos._exit(0)", {}),
        "forged_small": (OS + f"os.write(1, {forged(1)})\nos._exit(0)", {}),
        "stdout_flood": (OS + "while True:\n    os.write(1, b'x' * 65536)", {"seconds": 1}),
    }


def probe(port: int, tmp: Path, as_user: int | None) -> dict[str, dict]:
    names = list(attempts(port))
    requests = [
        [{"op": "execute", "code": code, "ast_check": False, "limits": {**LIMITS, **limits}}, None]
        for code, limits in attempts(port).values()
    ]
    cache = tmp / "cache"
    cache.mkdir(mode=0o700)
    for compiled in interpreter.cache_dir().glob("*.cwasm"):  # spare the probe a compile
        shutil.copy(compiled, cache / compiled.name)
    (tmp / "tmp").mkdir()
    if as_user is not None:
        for path in (tmp, cache, tmp / "tmp", *cache.iterdir()):
            os.chown(path, as_user, as_user)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp / "home-that-does-not-exist"),
        "XDG_CACHE_HOME": str(cache.parent),
        "TMPDIR": str(tmp / "tmp"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        **SECRETS,
    }
    args = [sys.executable, "-m", "tests.sandbox_probe", "--wasm", str(interpreter.locate())]
    if as_user is not None:
        args += ["--as-user", str(as_user)]
    done = subprocess.run(
        args, input=json.dumps(requests), capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["uid"] == (as_user if as_user is not None else os.geteuid())
    assert list((tmp / "tmp").iterdir()) == []  # the host left nothing in /tmp for the next call
    assert not any(secret in done.stdout for secret in SECRETS.values())
    return dict(zip(names, report["answers"], strict=True))


MODES = ["as_user"] + (["as_root"] if os.geteuid() == 0 else [])


@pytest.fixture(scope="module", params=MODES)
def results(request, tmp_path_factory) -> dict[str, dict]:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0)
        port = server.getsockname()[1]
        as_user = (NOBODY if os.geteuid() == 0 else None) if request.param == "as_user" else None
        out = probe(port, tmp_path_factory.mktemp(request.param), as_user)
        with pytest.raises(BlockingIOError):
            server.accept()  # nothing reached the host's loopback
    return out


def error_of(results: dict[str, dict], name: str) -> str:
    checked = results[name]["checked"]
    assert not checked["ok"], (name, checked)
    return str(checked.get("error"))


def test_the_environment_is_empty(results):
    assert results["env"]["checked"]["result"] == "{}"


@pytest.mark.parametrize("name", ["root", "proc_self", "proc_parent", "proc_mem", "passwd", "chdir_out"])
def test_no_host_file_is_reachable(results, name):
    assert "No such file or directory" in error_of(results, name)


def test_nothing_is_written_for_the_next_call(results):
    # The guest's only files are the standard library inside the module, read-only: nothing to leave behind.
    assert "No such file or directory" in error_of(results, "leave_file")
    assert "Not supported" in error_of(results, "edit_stdlib")
    assert results["find_file"]["checked"]["result"] == "False"


@pytest.mark.parametrize("name", ["fork", "spawn", "kill", "socket", "ctypes", "thread"])
def test_no_process_signal_socket_or_native_code(results, name):
    assert results[name]["checked"]["code"] == "execution_error", results[name]


@pytest.mark.parametrize("name", ["memory_bomb", "memory_creep"])
def test_memory_is_capped(results, name):
    assert results[name]["checked"]["code"] in ("memory_limit", "sandbox_crashed")


@pytest.mark.parametrize("name", ["endless_loop", "long_sleep", "stdout_flood"])
def test_time_is_capped_for_loops_sleeps_and_floods(results, name):
    checked = results[name]["checked"]
    assert checked["code"] in ("execution_timeout", "output_too_large"), checked
    if checked["code"] == "execution_timeout":
        assert checked["elapsed_ms"] >= 1000  # stopped at the limit, not before


def test_a_runaway_stack_traps_the_guest_not_the_host(results):
    assert results["stack"]["checked"]["code"] in ("sandbox_crashed", "execution_error", "execution_timeout")


def test_a_forged_answer_is_held_to_the_hosts_limits(results):
    assert results["forged_answer"]["checked"]["code"] == "too_many_variables"
    small = results["forged_small"]["checked"]
    assert small["ok"] and len(small["output"]) == LIMITS["output_chars"]
    # The summary is the host's, from the state: the forged type, preview and size are not kept.
    assert small["summary"] == {"v0": {"type": "int", "preview": "0", "size_bytes": 1}}
