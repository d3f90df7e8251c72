"""The sandbox executor: the only place caller code runs, and the only place session state is unpickled.

It runs as its own process (``python -I -S executor.py``), never imported by the API: locally as a child of
the API (shared/sandbox/runner.py), in AWS as a child of the sandbox Lambda (functions/sandbox/handler.py).
Stdlib only, so it needs nothing from the project at run time. One JSON request on stdin, one JSON answer on
stdout::

    {"op": "execute", "state": "<b64>", "code": "x = 1 + 1", "limits": {...}}
    -> {"ok": true, "state": "<b64>", "summary": {"x": {"type": "int", "preview": "2", "size_bytes": 5}}, ...}

Before any caller byte is parsed the process confines itself, as far as the OS lets it: modules it allows
are imported first, then (as root) it chroots into its throwaway working directory and drops to ``nobody``,
then it forbids new processes and files (rlimits) and installs an audit hook that refuses sockets, process
creation, ``ctypes`` and new imports. The runner has already set the address-space and CPU rlimits, the
empty environment, the wall-clock kill and (where permitted) a network namespace with no interfaces. The
AST check below is defence in depth, never the wall.
"""

from __future__ import annotations

import ast
import base64
import builtins
import contextlib
import importlib
import io
import json
import os
import pickle
import re
import resource
import sys
import traceback
import zlib

# What caller code may import: all loaded by preload() before confinement, so nothing is read from disk after.
ALLOWED_MODULES = frozenset(
    {
        "collections",
        "copy",
        "datetime",
        "decimal",
        "fractions",
        "functools",
        "heapq",
        "itertools",
        "json",
        "math",
        "operator",
        "random",
        "re",
        "statistics",
        "string",
        "textwrap",
        "time",
        "unicodedata",
    }
)
# Names and attributes the AST check refuses: the usual ways from an object back to the interpreter.
BLOCKED_NAMES = frozenset(
    {
        "__import__",
        "eval",
        "exec",
        "compile",
        "open",
        "globals",
        "locals",
        "vars",
        "getattr",
        "setattr",
        "delattr",
        "breakpoint",
        "input",
        "help",
        "exit",
        "quit",
        "memoryview",
        "__builtins__",
        "__loader__",
        "__spec__",
    }
)
BLOCKED_ATTRS = re.compile(r"^(__\w+__|gi_\w+|cr_\w+|ag_\w+|f_\w+|tb_\w+|co_\w+|func_\w+|mro)$")
SAFE_DUNDERS = frozenset({"__name__", "__doc__", "__len__", "__getitem__", "__contains__", "__init__"})
PREVIEW_CHARS = 1000  # stored per variable; /inspect and /status read it without running anything
NOBODY = 65534


class LLMPending(BaseException):
    """Raised by ``llm_query`` for a prompt without an answer yet (a BaseException: ``except Exception`` in
    caller code does not swallow it, and ``pending`` catches the rest)."""


class Refused(Exception):
    """Caller code the AST check does not accept (error code ``code_rejected``)."""


def check_code(tree: ast.AST) -> None:
    """Defence in depth: imports outside ``ALLOWED_MODULES``, interpreter-reaching names and attributes.

    >>> check_code(ast.parse("x = [i * 2 for i in range(3)]"))
    >>> check_code(ast.parse("g.gi_frame"))
    Traceback (most recent call last):
    Refused: attribute 'gi_frame' is not allowed
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            for name in names:
                if name.split(".")[0] not in ALLOWED_MODULES:
                    raise Refused(f"import of {name!r} is not allowed")
        elif isinstance(node, ast.Name) and node.id in BLOCKED_NAMES:
            raise Refused(f"name {node.id!r} is not allowed")
        elif isinstance(node, ast.Attribute) and BLOCKED_ATTRS.match(node.attr):
            if node.attr not in SAFE_DUNDERS:
                raise Refused(f"attribute {node.attr!r} is not allowed")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            # str.format walks attributes without an ast.Attribute: '{0.__globals__}'.format(f)
            and re.search(r"\{[^}]*\.(__|gi_|f_|tb_|co_)", node.value)
        ):
            raise Refused("format fields that reach attributes are not allowed")


def _guarded_import(name: str, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002
    if level or name.split(".")[0] not in ALLOWED_MODULES:
        raise ImportError(f"import of {name!r} is not allowed in the sandbox")
    return builtins.__import__(name, globals, locals, fromlist, level)


def safe_builtins() -> dict:
    """The builtins caller code sees: the real ones minus the doors out, with a guarded ``__import__``."""
    allowed = {k: v for k, v in vars(builtins).items() if k not in BLOCKED_NAMES}
    allowed["__import__"] = _guarded_import
    return allowed


# --- confinement ---------------------------------------------------------------------------------------

_BLOCKED_EVENTS = (
    "socket.",
    "subprocess.",
    "os.system",
    "os.exec",
    "os.fork",
    "os.forkpty",
    "os.posix_spawn",
    "os.spawn",
    "os.kill",
    "os.putenv",
    "ctypes.",
    "import",
    "sys._getframe",
    "pty.",
    "shutil.",
    "os.chmod",
    "os.chown",
    "os.link",
    "os.symlink",
)


def _audit(event: str, args: tuple) -> None:
    if event.startswith(_BLOCKED_EVENTS):
        raise PermissionError(f"{event} is not allowed in the sandbox")
    if event == "open" and args and isinstance(args[0], str | bytes):
        # Only relative paths inside the working directory (after chroot, '/' is that directory anyway).
        path = os.fsdecode(args[0])
        if os.path.isabs(path) or ".." in path.split("/"):
            raise PermissionError(f"opening {path!r} is not allowed in the sandbox")


def preload() -> None:
    """Import every allowed module (and what unpickling and tracebacks need) while files can still be read."""
    for name in (*sorted(ALLOWED_MODULES), "encodings.idna", "_strptime"):
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def confine(limits: dict) -> list[str]:
    """Shut the doors this process can shut itself; returns the ones that held (reported in ``isolation``)."""
    held: list[str] = []
    os.environ.clear()  # the runner passes none; in Lambda this drops the function's own credentials too
    held.append("empty_env")
    if os.getuid() == 0:
        try:
            os.chroot(".")
            os.chdir("/")
            held.append("chroot")
        except OSError:
            pass
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            held.append("nobody")
        except OSError:
            pass
    for name, value in (
        ("RLIMIT_NPROC", 0),  # no fork: enforced once we are not root
        ("RLIMIT_FSIZE", int(limits.get("file_bytes", 1 << 20))),
        ("RLIMIT_NOFILE", 16),
        ("RLIMIT_CORE", 0),
    ):
        try:
            resource.setrlimit(getattr(resource, name), (value, value))
        except (ValueError, OSError):
            continue
    held.append("rlimits")
    sys.addaudithook(_audit)
    held.append("audit_hook")
    return held


# --- state ---------------------------------------------------------------------------------------------


def load_state(blob: str | None) -> tuple[dict[str, object], dict[str, bytes]]:
    """Variables and their pickles (the pickles tell what changed, and how big each one is)."""
    if not blob:
        return {}, {}
    raw: dict[str, bytes] = pickle.loads(zlib.decompress(base64.b64decode(blob)))
    values = {}
    for name, data in raw.items():
        with contextlib.suppress(Exception):  # one unreadable variable must not lose the others
            values[name] = pickle.loads(data)
    return values, raw


def dump_state(values: dict[str, object]) -> tuple[str, dict[str, bytes], list[str]]:
    """(blob, per-variable pickles, names that cannot be kept: functions, modules, open objects)."""
    pickles: dict[str, bytes] = {}
    dropped: list[str] = []
    for name, value in values.items():
        if name.startswith("__") or isinstance(value, type(sys)):
            continue
        try:
            pickles[name] = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            dropped.append(name)
    blob = base64.b64encode(zlib.compress(pickle.dumps(pickles, protocol=pickle.HIGHEST_PROTOCOL), 6))
    return blob.decode(), pickles, dropped


def preview(value: object, chars: int) -> str:
    text = repr(value)
    return text if len(text) <= chars else text[:chars] + "..."


def summarize(values: dict[str, object], pickles: dict[str, bytes]) -> dict[str, dict]:
    return {
        name: {
            "type": type(values[name]).__name__,
            "preview": preview(values[name], PREVIEW_CHARS),
            "size_bytes": len(data),
        }
        for name, data in pickles.items()
        if name in values
    }


# --- operations ----------------------------------------------------------------------------------------


class CappedOutput(io.StringIO):
    """``print`` goes here; past the cap it is cut, and the rest is thrown away rather than kept."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap
        self.truncated = False

    def write(self, text: str) -> int:
        room = self.cap - self.tell()
        if room <= 0:
            self.truncated = True
            return len(text)
        if len(text) > room:
            self.truncated = True
        return super().write(text[:room])


def execute(values: dict[str, object], request: dict) -> dict:
    """Run ``code`` against the variables; the last expression is the result (as the reference)."""
    limits = request.get("limits", {})
    code = request["code"]
    try:
        tree = ast.parse(code, mode="exec")
        if request.get("ast_check", True):
            check_code(tree)
    except SyntaxError as exc:
        return {"ok": False, "error": f"SyntaxError: {exc.msg} (line {exc.lineno})", "code": "syntax_error"}
    except Refused as exc:
        return {"ok": False, "error": str(exc), "code": "code_rejected"}
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    # llm_query: the sandbox has no LLM and no credentials. A prompt the orchestrator has not answered yet
    # stops the run (nothing is kept); the orchestrator asks the LLM and runs the code again with the answer
    # in ``llm_answers``. Catching the stop does not help: a pending prompt wins over any result.
    answers = {str(k): str(v) for k, v in (request.get("llm_answers") or {}).items()}
    pending: list[str] = []

    def llm_query(prompt: object) -> str:
        text = str(prompt)[:20_000]
        if text in answers:
            return answers[text]
        pending.append(text)
        raise LLMPending(text)

    builtins_ = {**safe_builtins(), "llm_query": llm_query}
    namespace: dict[str, object] = {"__builtins__": builtins_, "__name__": "__sandbox__", **values}
    out = CappedOutput(int(limits.get("output_chars", 50_000)))
    result = None
    error = None
    code_name = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            exec(compile(tree, "<sandbox>", "exec"), namespace)  # noqa: S102 - this process is the sandbox
            if last is not None:
                result = eval(compile(last, "<sandbox>", "eval"), namespace)  # noqa: S307
        except MemoryError:
            error, code_name = "MemoryError: the sandbox memory limit was reached", "memory_limit"
        except RecursionError as exc:
            error, code_name = f"RecursionError: {exc}", "execution_error"
        except BaseException as exc:  # noqa: BLE001 - caller code may raise anything, SystemExit included
            lines = traceback.format_exception_only(type(exc), exc)
            error, code_name = "".join(lines).strip()[:2000], "execution_error"
    if pending:
        return {"ok": False, "error": "llm_query needs an answer", "code": "llm_query", "prompt": pending[0]}
    if error is not None:
        return {"ok": False, "error": error, "code": code_name, "output": out.getvalue()}
    result_var = request.get("result_var")
    if result_var:
        namespace[result_var] = result
    new = {k: v for k, v in namespace.items() if k not in ("__builtins__", "__name__")}
    answer: dict = {"ok": True, "output": out.getvalue(), "output_truncated": out.truncated, "result": None}
    if request.get("return_result", True) and result is not None:
        answer["result"] = preview(result, int(request.get("max_return_chars", 10_000)))
    answer["_values"] = new
    return answer


def main() -> None:
    """One request on stdin, one answer on stdout (the saved real stdout: caller prints never reach it)."""
    request = json.loads(sys.stdin.buffer.read() or b"{}")
    reply = os.fdopen(os.dup(1), "w")
    limits = request.get("limits", {})
    preload()
    isolation = confine(limits)
    try:
        answer = handle(request)
    except MemoryError:
        answer = {"ok": False, "error": "the sandbox memory limit was reached", "code": "memory_limit"}
    except Exception as exc:  # noqa: BLE001
        answer = {"ok": False, "error": f"sandbox failure: {type(exc).__name__}", "code": "sandbox_error"}
    answer["isolation"] = isolation
    reply.write(json.dumps(answer))
    reply.flush()


def handle(request: dict) -> dict:
    op = request.get("op")
    values, before = load_state(request.get("state"))
    if op == "execute":
        answer = execute(values, request)
        if not answer["ok"]:
            return answer
        values = answer.pop("_values")
    elif op == "inject":
        for name, value in (request.get("values") or {}).items():
            values[name] = value
        answer = {"ok": True}
    elif op == "render":
        # The text an LLM sees for /query: each variable's repr, an equal share of the budget each.
        names = request.get("variables") or []
        share = max(1, int(request.get("max_chars", 50_000)) // max(1, len(names)))
        parts = [
            f"[{n}] ({type(values[n]).__name__}):\n{repr(values[n])[:share]}"
            if n in values
            else f"[{n}]: (not found)"
            for n in names
        ]
        return {"ok": True, "context": "\n\n".join(parts)}
    elif op == "get":
        # A variable as JSON (RLM's final result); repr when it is not JSON.
        name = request.get("variable")
        if name not in values:
            return {"ok": True, "found": False}
        try:
            return {"ok": True, "found": True, "value": json.loads(json.dumps(values[name]))}
        except (TypeError, ValueError):
            return {"ok": True, "found": True, "value": preview(values[name], 10_000)}
    else:
        return {"ok": False, "error": f"unknown op {op!r}", "code": "sandbox_error"}
    blob, pickles, dropped = dump_state(values)
    cap = int(request.get("limits", {}).get("state_bytes", 16 << 20))
    if len(blob) * 3 // 4 > cap:
        return {"ok": False, "error": f"sandbox state over {cap} bytes", "code": "state_too_large"}
    answer.update(
        state=blob,
        summary=summarize(values, pickles),
        not_persisted=dropped,
        variables_changed=sorted(
            {n for n in pickles if before.get(n) != pickles[n]} | {n for n in before if n not in pickles}
        ),
    )
    return answer


if __name__ == "__main__":
    main()
