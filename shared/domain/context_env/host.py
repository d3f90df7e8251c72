"""What the host does with sandbox state: check a guest's answer, and inject, render or read variables itself.

    >>> answer = check(executor.run(request), previous_state, limits)       # doctest: +SKIP

The guest's answer is untrusted data (caller code can write one of its own): only known fields are kept,
every size is capped here, the state must decode (state.py), and the summary (type, preview, size per
variable) and ``variables_changed`` are computed here from the state, never taken from the guest. Injecting,
rendering and reading a variable need no caller code, so they never start a guest.
"""

from __future__ import annotations

import re
from typing import Any

from shared.domain.context_env import state as codec

PREVIEW_CHARS = 1000  # stored per variable; /inspect and /status read it without running anything
NAME = re.compile(r"^(?!__)[A-Za-z_][A-Za-z0-9_]{0,127}$")  # the guest keeps no dunders
GUEST_ERRORS = frozenset({"syntax_error", "code_rejected", "execution_error", "memory_limit", "llm_query"})
RUNNER_ERRORS = frozenset(
    {
        "execution_timeout",
        "output_too_large",
        "sandbox_crashed",
        "sandbox_error",
        "interpreter_missing",
        "sandbox_throttled",
    }
)


def failure(code: str, message: str, elapsed_s: float = 0.0) -> dict[str, Any]:
    """An answer that is not the guest's: the runner, the sandbox function or its invoke failed."""
    return {"ok": False, "code": code, "error": message, "elapsed_ms": round(elapsed_s * 1000, 1)}


class Rejected(Exception):
    """A state or answer the host will not keep; ``code`` is the error code the API answers with."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def preview(value: object, chars: int = PREVIEW_CHARS) -> str:
    text = repr(value)
    return text if len(text) <= chars else text[:chars] + "..."


def _text(value: object, cap: int) -> str:
    """A string from the guest, cut to ``cap`` and made safe to store (no lone surrogates)."""
    text = value if isinstance(value, str) else ""
    return text[:cap].encode("utf-8", "replace").decode("utf-8")


def _check_size(size: int, limits: dict[str, Any]) -> None:
    cap = int(limits.get("state_bytes", 16 << 20))
    if size > cap:
        raise Rejected("state_too_large", f"sandbox state over {cap} bytes")


def _check_count(count: int, limits: dict[str, Any]) -> None:
    most = int(limits.get("max_variables", 1000))
    if count > most:
        raise Rejected("too_many_variables", f"more than {most} variables")


def load(text: str | None, limits: dict[str, Any]) -> dict[str, Any]:
    """A state's variables as encoded data, checked: the format, the names, the count and the size."""
    if not text:
        return {}
    _check_size(len(text), limits)
    try:
        data = codec.parse(text)
    except codec.StateError as exc:
        raise Rejected("bad_state", f"the sandbox state is not readable: {exc}") from exc
    bad = [name for name in data if not isinstance(name, str) or not NAME.match(name)]
    if bad:
        raise Rejected("bad_state", f"not a variable name: {str(bad[0])[:40]!r}")
    _check_count(len(data), limits)
    return data


def summarize(data: dict[str, Any], encoded: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Per variable: its type, a preview and its encoded size, from the state itself (``encoded``: each
    variable's JSON text, when the caller has it already)."""
    out = {}
    for name, value_data in data.items():
        try:
            value = codec.decode(value_data)
        except (codec.StateError, RecursionError) as exc:
            raise Rejected("bad_state", f"variable {name!r} is not readable: {exc}") from exc
        text = encoded[name] if encoded is not None else codec.dump(value_data)
        out[name] = {"type": type(value).__name__, "preview": preview(value), "size_bytes": len(text)}
    return out


def _finish(data: dict[str, Any], before: dict[str, Any], limits: dict[str, Any]) -> dict[str, Any]:
    """The state to store, its summary and what changed. Names are checked already (by ``load`` for a guest's
    state, by ``inject`` for the host's); the size and count are checked here on what will be stored."""
    text = codec.dump({"format": codec.FORMAT, "vars": data})
    _check_size(len(text), limits)
    _check_count(len(data), limits)
    encoded = {name: codec.dump(value) for name, value in data.items()}
    changed = {n for n in data if n not in before or codec.dump(before[n]) != encoded[n]}
    return {
        "state": text,
        "summary": summarize(data, encoded),
        "variables_changed": sorted(changed | {n for n in before if n not in data}),
    }


def check(answer: dict[str, Any], previous: str | None, limits: dict[str, Any]) -> dict[str, Any]:
    """The guest's answer reduced to what the host will keep, or a failure with a known code."""
    elapsed = answer.get("elapsed_ms")
    timing = {"elapsed_ms": elapsed} if isinstance(elapsed, int | float) else {}
    output_cap = int(limits.get("output_chars", 50_000))
    if answer.get("ok") is not True:
        code = answer.get("code")
        if code not in GUEST_ERRORS and code not in RUNNER_ERRORS:
            code = "sandbox_error"
        failed: dict[str, Any] = {
            "ok": False,
            "code": code,
            "error": _text(answer.get("error"), 2000),
            **timing,
        }
        if code == "llm_query":
            failed["prompt"] = _text(answer.get("prompt"), 20_000)
        if code == "execution_error":
            failed["output"] = _text(answer.get("output"), output_cap)
        return failed
    before = load(previous, limits)
    try:
        data = load(answer.get("state") if isinstance(answer.get("state"), str) else None, limits)
    except Rejected as exc:
        return {"ok": False, "code": exc.code, "error": str(exc), **timing}
    output = _text(answer.get("output"), output_cap)
    result = answer.get("result")
    dropped = answer.get("not_persisted")
    kept: dict[str, Any] = {
        "ok": True,
        "output": output,
        "output_truncated": bool(answer.get("output_truncated"))
        or len(str(answer.get("output", ""))) > output_cap,
        "result": None if result is None else _text(result, int(limits.get("max_return_chars", 10_000)) + 3),
        "not_persisted": [_text(n, 128) for n in dropped[:1000]] if isinstance(dropped, list) else [],
        **timing,
    }
    try:
        kept.update(_finish(data, before, limits))
    except Rejected as exc:
        return {"ok": False, "code": exc.code, "error": str(exc), **timing}
    return kept


def inject(previous: str | None, values: dict[str, Any], limits: dict[str, Any]) -> dict[str, Any]:
    """Set variables to JSON values (from a request body or recall), without a guest."""
    before = load(previous, limits)
    data = dict(before)
    for name, value in values.items():
        if not NAME.match(name):
            raise Rejected("bad_variable", f"not a variable name: {name[:40]!r}")
        data[name] = codec.encode(value)
    return {"ok": True, **_finish(data, before, limits)}


def render(previous: str | None, names: list[str], max_chars: int, limits: dict[str, Any]) -> str:
    """The text an LLM sees for /query: each variable's repr, an equal share of the budget each."""
    data = load(previous, limits)
    share = max(1, max_chars // max(1, len(names)))
    parts = []
    for name in names:
        if name in data:
            value = codec.decode(data[name])
            parts.append(f"[{name}] ({type(value).__name__}):\n{repr(value)[:share]}")
        else:
            parts.append(f"[{name}]: (not found)")
    return "\n\n".join(parts)


def get(previous: str | None, name: str, limits: dict[str, Any]) -> tuple[bool, Any]:
    """A variable as JSON (RLM's final result); its repr when it is not plain JSON."""
    data = load(previous, limits)
    if name not in data:
        return False, None
    value = codec.decode(data[name])
    plain = _plain(value)
    return True, plain if plain is not _NOT_PLAIN else preview(value, 10_000)


_NOT_PLAIN = object()


def _plain(value: object) -> object:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        items = [_plain(v) for v in value]
        return _NOT_PLAIN if any(i is _NOT_PLAIN for i in items) else items
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        pairs = {k: _plain(v) for k, v in value.items()}
        return _NOT_PLAIN if any(v is _NOT_PLAIN for v in pairs.values()) else pairs
    return _NOT_PLAIN
