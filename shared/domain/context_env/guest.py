"""The program CPython-in-WebAssembly runs for one execution: caller code against the session's variables.

wasm.py runs it as ``python.wasm -I -S -c <state.py + this file>`` with the request as JSON on stdin; the
answer is JSON on stdout after a marker. The guest has no host files, sockets, processes, threads or
environment; the host bounds its memory and time. Nothing here is a wall: the host checks the answer as
untrusted data (host.py), so caller code that writes an "answer" of its own gains nothing it could not get by
setting variables. The AST check is defence in depth and a clearer error for the common mistakes.

Every import costs start-up time in the guest, so this file uses builtin modules only (``_ast``, not ``ast``;
state.py's JSON, not ``json``).
"""

from __future__ import annotations

import _ast
import builtins
import io
import os
import sys

try:  # noqa: SIM105 - on the host (tests, linting); in the guest, state.py comes first in the program
    from shared.domain.context_env.state import Unencodable, decode_state, dump, encode, loads
except ImportError:  # pragma: no cover - only inside the guest
    pass

MARKER = "\n\x1e\x1emlanswer\x1e\x1e"  # the host reads the JSON after the last marker
AST_ONLY = 0x400  # compile() flag ast.PyCF_ONLY_AST
# What caller code may import (the guest has the whole stdlib; these are what analysis code needs).
ALLOWED_MODULES = frozenset(
    {
        "bisect",
        "collections",
        "copy",
        "csv",
        "dataclasses",
        "datetime",
        "decimal",
        "difflib",
        "enum",
        "fractions",
        "functools",
        "hashlib",
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
        "typing",
        "unicodedata",
    }
)
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
BLOCKED_PREFIXES = ("gi_", "cr_", "ag_", "f_", "tb_", "co_", "func_")
SAFE_DUNDERS = frozenset({"__name__", "__doc__", "__len__", "__getitem__", "__contains__", "__init__"})


class LLMPending(BaseException):
    """Raised by ``llm_query`` for a prompt without an answer yet (BaseException: ``except Exception`` in
    caller code does not swallow it, and the pending list catches the rest)."""


class Refused(Exception):
    """Caller code the AST check does not accept (``code_rejected``)."""


def _walk(node: object):
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        for field in getattr(node, "_fields", ()):
            child = getattr(node, field, None)
            if isinstance(child, list):
                todo.extend(c for c in child if isinstance(c, _ast.AST))
            elif isinstance(child, _ast.AST):
                todo.append(child)


def _blocked_attr(name: str) -> bool:
    dunder = len(name) > 4 and name.startswith("__") and name.endswith("__")
    return (dunder and name not in SAFE_DUNDERS) or name.startswith(BLOCKED_PREFIXES) or name == "mro"


def _reaches_attribute(text: str) -> bool:
    """A format field such as '{0.__globals__}' walks attributes without an ast.Attribute."""
    start = text.find("{")
    while start >= 0:
        end = text.find("}", start)
        field = text[start : end if end >= 0 else len(text)]
        if any("." + p in field for p in ("__", *BLOCKED_PREFIXES[:-1])):
            return True
        start = text.find("{", start + 1)
    return False


def check_code(tree: object) -> None:
    """Imports outside ``ALLOWED_MODULES`` and the usual routes from an object back to the interpreter."""
    for node in _walk(tree):
        if isinstance(node, _ast.Import | _ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, _ast.ImportFrom) else [a.name for a in node.names]
            for name in names:
                if name.split(".")[0] not in ALLOWED_MODULES:
                    raise Refused(f"import of {name!r} is not allowed")
        elif isinstance(node, _ast.Name) and node.id in BLOCKED_NAMES:
            raise Refused(f"name {node.id!r} is not allowed")
        elif isinstance(node, _ast.Attribute) and _blocked_attr(node.attr):
            raise Refused(f"attribute {node.attr!r} is not allowed")
        elif (
            isinstance(node, _ast.Constant) and isinstance(node.value, str) and _reaches_attribute(node.value)
        ):
            raise Refused("format fields that reach attributes are not allowed")


def _guarded_import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002
    if level or name.split(".")[0] not in ALLOWED_MODULES:
        raise ImportError(f"import of {name!r} is not allowed in the sandbox")
    return builtins.__import__(name, globals, locals, fromlist, level)


class CappedOutput(io.StringIO):
    """``print`` lands here; past the cap the rest is dropped (the host cuts again on what it reads)."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap
        self.truncated = False

    def write(self, text: str) -> int:
        room = self.cap - self.tell()
        if len(text) > room:
            self.truncated = True
            text = text[: max(room, 0)]
        super().write(text)
        return len(text)


def preview(value: object, chars: int) -> str:
    text = repr(value)
    return text if len(text) <= chars else text[:chars] + "..."


def describe(exc: BaseException) -> str:
    """``ValueError: bad`` as a traceback's last line says it (without importing traceback)."""
    kind = type(exc)
    name = (
        kind.__qualname__
        if kind.__module__ in ("builtins", "__main__")
        else f"{kind.__module__}.{kind.__qualname__}"
    )
    text = str(exc)
    return f"{name}: {text}" if text else name


def execute(request: dict) -> dict:
    """Run ``code`` against the variables; the last expression is the result (as the reference)."""
    limits = request.get("limits") or {}
    code = str(request.get("code", ""))
    try:
        tree = compile(code, "<sandbox>", "exec", AST_ONLY)
        if request.get("ast_check", True):
            check_code(tree)
    except SyntaxError as exc:
        return {"ok": False, "error": f"SyntaxError: {exc.msg} (line {exc.lineno})", "code": "syntax_error"}
    except Refused as exc:
        return {"ok": False, "error": str(exc), "code": "code_rejected"}
    last = None
    if tree.body and isinstance(tree.body[-1], _ast.Expr):
        last = _ast.Expression(body=tree.body.pop().value)
    # llm_query: the guest has no LLM and no network. A prompt without an answer stops the run (nothing is
    # kept); the orchestrator asks the LLM and runs the code again with every answer in ``llm_answers``.
    answers = {str(k): str(v) for k, v in (request.get("llm_answers") or {}).items()}
    pending: list[str] = []

    def llm_query(prompt: object) -> str:
        text = str(prompt)[:20_000]
        if text in answers:
            return answers[text]
        pending.append(text)
        raise LLMPending(text)

    safe = {k: v for k, v in vars(builtins).items() if k not in BLOCKED_NAMES}
    safe["__import__"] = _guarded_import
    safe["llm_query"] = llm_query
    namespace: dict = {"__builtins__": safe, "__name__": "__sandbox__", **decode_state(request.get("state"))}
    out = CappedOutput(int(limits.get("output_chars", 50_000)))
    result = error = code_name = None
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = out
    try:
        exec(compile(tree, "<sandbox>", "exec"), namespace)  # noqa: S102 - this interpreter is the sandbox
        if last is not None:
            result = eval(compile(last, "<sandbox>", "eval"), namespace)  # noqa: S307
    except MemoryError:
        error, code_name = "MemoryError: the sandbox memory limit was reached", "memory_limit"
    except BaseException as exc:  # noqa: BLE001 - caller code may raise anything, SystemExit included
        error, code_name = describe(exc)[:2000], "execution_error"
    finally:
        sys.stdout, sys.stderr = saved
    if pending:
        return {"ok": False, "error": "llm_query needs an answer", "code": "llm_query", "prompt": pending[0]}
    if error is not None:
        return {"ok": False, "error": error, "code": code_name, "output": out.getvalue()}
    result_var = request.get("result_var")
    if result_var:
        namespace[result_var] = result
    kept: dict = {}
    dropped: list[str] = []
    for name, value in namespace.items():
        if name.startswith("__") or type(value) is type(sys):  # modules are imports, not data
            continue
        try:
            kept[name] = encode(value)
        except (Unencodable, RecursionError):
            dropped.append(name)
    answer = {
        "ok": True,
        "output": out.getvalue(),
        "output_truncated": out.truncated,
        "result": None,
        "not_persisted": dropped,
        "state": dump({"format": 1, "vars": kept}),
    }
    if request.get("return_result", True) and result is not None:
        answer["result"] = preview(result, int(request.get("max_return_chars", 10_000)))
    return answer


def main() -> None:
    """One request on stdin, the answer after the marker on stdout, then exit before anything else runs."""
    write = os.write  # taken before caller code could replace it (it gains nothing: the host checks)
    try:
        request = loads(sys.stdin.buffer.read().decode() or "{}")
        answer = execute(request) if request.get("op") == "execute" else {"ok": False, "code": "bad_op"}
    except MemoryError:
        answer = {"ok": False, "error": "the sandbox memory limit was reached", "code": "memory_limit"}
    except Exception as exc:  # noqa: BLE001
        answer = {"ok": False, "error": f"sandbox failure: {type(exc).__name__}", "code": "sandbox_error"}
    try:
        data = (MARKER + dump(answer) + "\n").encode()
    except Exception as exc:  # noqa: BLE001 - e.g. caller output that is not text
        data = (MARKER + dump({"ok": False, "code": "sandbox_error", "error": type(exc).__name__})).encode()
    while data:
        data = data[write(1, data) :]
    os._exit(0)  # no atexit handlers, no finalizers of caller objects after the answer


if __name__ == "__main__":
    main()
