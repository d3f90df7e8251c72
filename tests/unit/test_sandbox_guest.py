"""The guest in this process: results, state, limits, the AST check and llm_query, each answer checked by the
host as the API checks it (shared/domain/context_env/host.py)."""

from __future__ import annotations

import pytest

from shared.domain.context_env import host
from shared.domain.context_env.wasm import WasmExecutor

LIMITS = {"seconds": 2, "memory_bytes": 256 << 20, "state_bytes": 1 << 20, "output_chars": 50_000}


@pytest.fixture(scope="module")
def executor() -> WasmExecutor:
    return WasmExecutor()


def run(executor: WasmExecutor, code: str, *, state: str | None = None, **extra) -> dict:
    limits = {**LIMITS, **extra.pop("limits", {})}
    request = {"op": "execute", "code": code, "state": state, "limits": limits, **extra}
    return host.check(executor.run(request), state, limits)


def test_result_state_and_summary(executor):
    first = run(executor, "x = 40\ny = [1, 2]\nx + 2")
    assert first["ok"] and first["result"] == "42"
    assert first["variables_changed"] == ["x", "y"]
    assert first["summary"]["y"] == {"type": "list", "preview": "[1, 2]", "size_bytes": 5}
    second = run(executor, "y.append(x)\ny", state=first["state"])
    assert second["result"] == "[1, 2, 40]" and second["variables_changed"] == ["y"]


def test_rich_values_survive_a_round_trip(executor):
    first = run(
        executor,
        "import collections, datetime, decimal, fractions\n"
        "c = collections.Counter('abca')\nd = collections.defaultdict(list, {'k': [1]})\n"
        "q = collections.deque([1, 2], maxlen=3)\nt = (1, {2, 3}, frozenset({4}), b'\\x00', 2 ** 100, 1j)\n"
        "when = datetime.datetime(2024, 5, 1, 12, 30)\nm = decimal.Decimal('1.10')\nf = fractions.Fraction(1, 3)\n"
        "n = float('nan')\nnested = {1: {'$set': [1]}}",
    )
    assert first["ok"], first
    second = run(
        executor,
        "(c['a'], d['k'], q.maxlen, t[4], when.minute, str(m), f * 3, n != n, nested[1], type(t[1]).__name__)",
        state=first["state"],
    )
    assert (
        second["result"]
        == "(2, [1], 3, 1267650600228229401496703205376, 30, '1.10', Fraction(1, 1), True, {'$set': [1]}, 'set')"
    )
    assert first["summary"]["c"]["type"] == "Counter" and first["summary"]["when"]["type"] == "datetime"


def test_what_has_no_encoding_is_reported_not_persisted(executor):
    answer = run(executor, "def f():\n    return 1\nclass K:\n    pass\nk = K()\nz = f()\nimport math")
    assert answer["ok"] and sorted(answer["not_persisted"]) == ["K", "f", "k"] and "z" in answer["summary"]
    assert "math" not in answer["summary"]  # modules are imports, not data


def test_a_cycle_is_not_persisted_and_the_rest_is(executor):
    answer = run(executor, "a = []\na.append(a)\nb = 1")
    assert answer["ok"] and answer["not_persisted"] == ["a"] and list(answer["summary"]) == ["b"]


def test_output_is_capped(executor):
    answer = run(executor, "print('x' * 10**6)", limits={"output_chars": 1000})
    assert answer["ok"] and len(answer["output"]) == 1000 and answer["output_truncated"]


def test_a_raising_execution_keeps_nothing(executor):
    answer = run(executor, "x = 1\nraise ValueError('bad')")
    assert answer == {**answer, "ok": False, "code": "execution_error", "error": "ValueError: bad"}
    assert "state" not in answer


def test_syntax_errors_and_the_allow_list(executor):
    assert run(executor, "def (")["code"] == "syntax_error"
    for code in (
        "__import__('os').system('id')",
        "import os",
        "import socket",
        "open('/etc/passwd').read()",
        "g = (g.gi_frame for _ in [1])",
        "'{0.__globals__}'.format(type)",
    ):
        assert run(executor, code)["code"] == "code_rejected", code


def test_the_reference_three_line_escape_finds_nothing(executor):
    code = (
        "g = (g.gi_frame.f_back.f_back.f_globals for _ in [1])\n"
        "m = list(g)[0]\n"
        "m['__builtins__']['__import__']('os').getpid()"
    )
    assert run(executor, code)["code"] == "code_rejected"
    assert not run(executor, code, ast_check=False)["ok"]


def test_allowed_modules_import(executor):
    answer = run(
        executor, "import statistics, math, json, re, datetime\nstatistics.mean([1, 2, 3]) + math.floor(0.5)"
    )
    assert answer["ok"] and answer["result"] == "2", answer


def test_each_execution_starts_from_its_state_alone(executor):
    mine = run(executor, "secret = 'ws_a-only'")
    other = run(executor, "sorted(k for k in dir() if not k.startswith('__'))")
    assert other["result"] == "[]" and "secret" in mine["summary"]


def test_state_cap_and_variable_cap(executor):
    assert run(executor, "x = 'a' * 300_000", limits={"state_bytes": 100_000})["code"] == "state_too_large"
    many = run(
        executor, "for i in range(20):\n    globals_ = None\nv = 1\nw = 2\nu = 3", limits={"max_variables": 2}
    )
    assert many["code"] == "too_many_variables"


def test_llm_query_stops_the_run_until_the_orchestrator_answers(executor):
    code = "a = llm_query('capital of France?')\na.upper()"
    asked = run(executor, code)
    assert asked == {**asked, "ok": False, "code": "llm_query", "prompt": "capital of France?"}
    answered = run(executor, code, llm_answers={"capital of France?": "Paris"})
    assert answered["ok"] and answered["result"] == "'PARIS'"
    sneaky = run(executor, "try:\n    llm_query('q')\nexcept BaseException:\n    pass\n1")
    assert sneaky["code"] == "llm_query"


def test_inject_render_get_need_no_guest():
    injected = host.inject(None, {"mems": [{"id": "m1", "content": "hi"}], "n": 1.5}, LIMITS)
    assert injected["summary"]["mems"]["type"] == "list" and injected["variables_changed"] == ["mems", "n"]
    text = host.render(injected["state"], ["mems", "nope"], 100, LIMITS)
    assert "[mems] (list)" in text and "[nope]: (not found)" in text
    assert host.get(injected["state"], "mems", LIMITS) == (True, [{"id": "m1", "content": "hi"}])
    assert host.get(injected["state"], "gone", LIMITS) == (False, None)
    with pytest.raises(host.Rejected):
        host.inject(None, {"not a name": 1}, LIMITS)
