from __future__ import annotations

import json
import re
from typing import Any

from shared.domain.context_env import shape
from shared.domain.context_env import state as codec

PREVIEW_CHARS = 1000  # stored per variable; /inspect and /status read it without running anything
STATE_ELEMENTS = 1_000_000  # the default of ``state_elements`` (Settings.context_max_state_elements)
NAME = re.compile(r"^(?!__)[A-Za-z_][A-Za-z0-9_]{0,127}$")  # the guest keeps no dunders
GUEST_ERRORS = frozenset({"syntax_error", "code_rejected", "execution_error", "memory_limit", "llm_query"})
RUNNER_ERRORS = frozenset(
    {
        "execution_timeout",
        "output_too_large",
        "sandbox_crashed",
        "sandbox_error",
        "sandbox_answer_invalid",
        "interpreter_missing",
        "sandbox_throttled",
    }
)


def failure(code: str, message: str, elapsed_s: float = 0.0) -> dict[str, Any]:
    """An answer that is not the guest's: the runner, the sandbox function or its invoke failed."""
    return {"ok": False, "code": code, "error": message, "elapsed_ms": round(elapsed_s * 1000, 1)}


def read_answer(raw: bytes | str) -> dict[str, Any] | None:
    """An executor's JSON answer as a dict; None for text that is not JSON, nests past the parser's stack (a
    RecursionError, not a ValueError) or is not an object."""
    try:
        answer = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return answer if isinstance(answer, dict) else None


class Rejected(Exception):
    """A state or answer the host will not keep; ``code`` is the error code the API answers with."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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


def _check_values(data: dict[str, Any], limits: dict[str, Any]) -> None:
    """Every variable is one the guest could have written, and all of them hold at most ``state_elements``
    values together (one bounded walk; nothing is decoded)."""
    left = int(limits.get("state_elements", STATE_ELEMENTS))
    for name, value_data in data.items():
        try:
            left -= shape.scan(value_data, most=left)
        except shape.TooComplex as exc:
            raise Rejected("state_too_complex", f"variable {name!r} is too complex: {exc}") from exc
        except codec.StateError as exc:
            raise Rejected("bad_state", f"variable {name!r} is not readable: {exc}") from exc


def load(text: str | None, limits: dict[str, Any]) -> dict[str, Any]:
    """A state's variables as encoded data, checked: the format, the names, the count, the size and every
    value's shape (``_check_values``)."""
    if not text:
        return {}
    _check_size(len(text), limits)
    try:
        data = codec.parse(text)
    except codec.TooDeep as exc:
        raise Rejected("state_too_complex", f"the sandbox state is not readable: {exc}") from exc
    except codec.StateError as exc:
        raise Rejected("bad_state", f"the sandbox state is not readable: {exc}") from exc
    bad = [name for name in data if not isinstance(name, str) or not NAME.match(name)]
    if bad:
        raise Rejected("bad_state", f"not a variable name: {str(bad[0])[:40]!r}")
    _check_count(len(data), limits)
    _check_values(data, limits)
    return data


def summarize(data: dict[str, Any], encoded: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Per variable: its type, a preview and its encoded size, from the encoded state as ``load`` checked it
    (``encoded``: each variable's JSON text, when the caller has it already)."""
    out = {}
    for name, value_data in data.items():
        text = encoded[name] if encoded is not None else codec.dump(value_data)
        out[name] = {
            "type": shape.type_name(value_data),
            "preview": shape.preview(value_data, PREVIEW_CHARS),
            "size_bytes": len(text),
        }
    return out


def _finish(data: dict[str, Any], before: dict[str, Any], limits: dict[str, Any]) -> dict[str, Any]:
    """The state to store, its summary and what changed. Names and values are checked already (by ``load`` for
    a guest's state, by ``inject`` for the host's); the size and count are checked here on what will be
    stored."""
    text = codec.dump({"format": codec.FORMAT, "vars": data})
    _check_size(len(text), limits)
    _check_count(len(data), limits)
    encoded = {name: codec.dump(value) for name, value in data.items()}
    changed = [n for n in data if n not in before or codec.dump(before[n]) != encoded[n]]
    return {
        "state": text,
        "summary": summarize(data, encoded),
        "variables_changed": sorted(changed + [n for n in before if n not in data]),
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
    if not isinstance(answer.get("state"), str):  # the guest always sends one: no state is not "no variables"
        return {"ok": False, "code": "sandbox_answer_invalid", "error": "the answer has no state", **timing}
    before = load(previous, limits)
    try:
        data = load(answer["state"], limits)
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
    """Set variables to JSON values (from a request body or recall), without a guest. The values are the
    caller's: their depth and, with the variables kept, their element count are checked as a guest's."""
    before = load(previous, limits)
    data = dict(before)
    for name, value in values.items():
        if not NAME.match(name):
            raise Rejected("bad_variable", f"not a variable name: {name[:40]!r}")
        try:
            data[name] = codec.encode(value)
        except codec.Unencodable as exc:  # JSON has an encoding for everything but depth
            raise Rejected("state_too_complex", f"variable {name!r} is too complex: {exc}") from exc
    _check_values(data, limits)
    return {"ok": True, **_finish(data, before, limits)}


def render(previous: str | None, names: list[str], max_chars: int, limits: dict[str, Any]) -> str:
    """The text an LLM sees for /query: each variable's repr, an equal share of the budget each."""
    data = load(previous, limits)
    share = max(1, max_chars // max(1, len(names)))
    parts = []
    for name in names:
        if name in data:
            kind, text = shape.type_name(data[name]), shape.preview(data[name], share)[:share]
            parts.append(f"[{name}] ({kind}):\n{text}")
        else:
            parts.append(f"[{name}]: (not found)")
    return "\n\n".join(parts)


def get(previous: str | None, name: str, limits: dict[str, Any]) -> tuple[bool, Any]:
    """A variable as JSON (RLM's final result) when its encoding is plain JSON; else its preview."""
    data = load(previous, limits)
    if name not in data:
        return False, None
    plain = shape.plain(data[name])
    return True, plain if plain is not shape.NOT_PLAIN else shape.preview(data[name], 10_000)
