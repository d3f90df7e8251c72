"""The host reads sandbox state without decoding it (shared/domain/context_env/shape.py): nothing outside the
guest's side decodes, the reading code builds nothing hashed, it accepts exactly what decoding accepts, and
its previews are what ``repr`` prints."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shared.domain.context_env import host, shape
from shared.domain.context_env import state as codec
from tests.unit.test_sandbox_state import values

ROOT = Path(__file__).resolve().parents[2]
GUEST_SIDE = {ROOT / "shared/domain/context_env/state.py", ROOT / "shared/domain/context_env/guest.py"}
STATE_MODULE = "shared.domain.context_env.state"
DECODING = {"decode", "decode_state", "_DECODERS"}
MODULUS = (1 << 61) - 1


def state_aliases(tree: ast.AST) -> set[str]:
    """The names a module binds to state.py (``from shared.domain.context_env import state as codec``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "shared.domain.context_env":
            names |= {a.asname or a.name for a in node.names if a.name == "state"}
        elif isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name == STATE_MODULE}
    return names


def test_nothing_but_the_guest_decodes_a_sandbox_state():
    """Decoding builds sets and dict keys from the guest's values, quadratic for ints that hash alike, under
    the GIL: the host's code must never call it (shape.py reads the encoding instead)."""
    found = []
    files = [*(ROOT / "shared").rglob("*.py"), *(ROOT / "functions").rglob("*.py")]
    for path in files:
        if path in GUEST_SIDE:
            continue
        tree = ast.parse(path.read_text(), str(path))
        aliases = state_aliases(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == STATE_MODULE:
                found += [f"{path}:{node.lineno} imports {a.name}" for a in node.names if a.name in DECODING]
            elif (
                isinstance(node, ast.Attribute)
                and node.attr in DECODING
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                found.append(f"{path}:{node.lineno} uses {node.value.id}.{node.attr}")
    host_py = ROOT / "shared/domain/context_env/host.py"
    assert state_aliases(ast.parse(host_py.read_text())), (
        "host.py no longer imports state.py: update the check"
    )
    assert not found, found


def test_reading_an_encoding_builds_nothing_hashed():
    """shape.py's functions make no set, frozenset or dict (their tables are module constants) and hash
    nothing: a value the guest chose never becomes a key."""
    tree = ast.parse((ROOT / "shared/domain/context_env/shape.py").read_text())
    hashed = {"set", "frozenset", "dict", "hash", "Counter", "OrderedDict", "defaultdict", "fromkeys"}
    found = []
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        for node in ast.walk(function):
            if isinstance(node, ast.Set | ast.SetComp | ast.DictComp | ast.Dict):
                found.append(f"line {node.lineno}: {type(node).__name__}")
            elif isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name in hashed:
                    found.append(f"line {node.lineno}: {name}()")
    assert not found, found


def data_of(value: object) -> object:
    """The encoding as the host holds it: written by the guest, read back from JSON text."""
    return codec.loads(codec.dump(codec.encode(value)))


@given(values)
def test_previews_are_what_repr_prints(value):
    # A set prints in the guest's order, the order it was written in (decoding again may reorder it); a
    # datetime's fold is not kept by the encoding.
    assume("fold=1" not in repr(value))
    data = data_of(value)
    assert shape.scan(data, most=10**6) >= 1
    assert shape.type_name(data) == type(value).__name__
    text = repr(value)
    assert shape.preview(data, 10**6) == text
    cut = shape.preview(data, 10)
    assert cut == (text if len(text) <= 10 else text[:10] + "...")


def test_collections_preview_as_repr():
    import collections
    import datetime
    import decimal
    import fractions

    examples: tuple[object, ...] = (
        collections.Counter("abcabb"),
        collections.Counter(),
        collections.OrderedDict(a=1, b=[2]),
        collections.OrderedDict(),
        collections.deque([1, 2], maxlen=3),
        collections.deque(),
        collections.defaultdict(list, {"k": [1]}),
        collections.defaultdict(None),
        range(1, 9, 2),
        (1,),
        frozenset(),
        set(),
        bytearray(b"\x00a"),
        float("nan"),
        -float("inf"),
        decimal.Decimal("1.10"),
        fractions.Fraction(-2, 6),
        datetime.time(1, 2),
        {(1, 2): {3}},
    )
    for value in examples:
        assert shape.preview(data_of(value), 1000) == repr(value), value
        assert shape.type_name(data_of(value)) == type(value).__name__


def test_ints_past_a_thousand_digits_are_previewed_by_their_length():
    for digits in (1001, 1500, 6021):
        assert shape.int_text(10 ** (digits - 1)) == f"<int of {digits} digits>"
        assert shape.int_text(10**digits - 1) == f"<int of {digits} digits>"
    data = data_of([1 << 20000, -(1 << 20000)])
    assert shape.preview(data, 100) == "[<int of 6021 digits>, -<int of 6021 digits>]"


def test_a_colliding_set_is_counted_and_previewed_not_built():
    items = [k * MODULUS for k in range(1, 50_001)]
    state = json.dumps({"format": 1, "vars": {"s": {"$set": [codec.encode(i) for i in items]}}})
    summary = host.summarize(host.load(state, {}))
    assert summary["s"]["type"] == "set" and summary["s"]["preview"].startswith(f"{{{MODULUS}, ")
    assert summary["s"]["preview"].endswith("...") and len(summary["s"]["preview"]) == host.PREVIEW_CHARS + 3
    with pytest.raises(host.Rejected) as refused:
        host.load(state, {"state_elements": 50_000})
    assert refused.value.code == "state_too_complex"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('{"format": 1, "vars": {"x": ' + "[" * 70 + "]" * 70 + "}}", "state_too_complex"),
        ('{"format": 1, "vars": {"x": ' + "[" * 50_000 + "]" * 50_000 + "}}", "state_too_complex"),
        ('{"format": 1, "vars": {"x": {"$set": [{"$dict": []}]}}}', "bad_state"),
        ('{"format": 1, "vars": {"x": {"$frozenset": [{"$decimal": "sNaN"}]}}}', "bad_state"),
        ('{"format": 1, "vars": {"x": {"$fraction": ["1", "0"]}}}', "bad_state"),
        ('{"format": 1, "vars": {"x": {"$deque": [-1, []]}}}', "bad_state"),
    ],
)
def test_malformed_and_too_complex_states_are_refused_with_a_code(text, code):
    with pytest.raises(host.Rejected) as refused:
        host.load(text, {})
    assert refused.value.code == code


def test_a_malformed_answer_is_refused_not_raised():
    assert host.read_answer(b"[" * 100_000) is None
    assert host.read_answer(b"not json") is None and host.read_answer(b"[1]") is None
    assert host.read_answer(b'{"ok": true}') == {"ok": True}
    assert host.check({"ok": True, "output": ""}, None, {})["code"] == "sandbox_answer_invalid"


# Adversarial encodings: tags over arbitrary small JSON, so that most are wrong in some way.
leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=3)
    | st.sampled_from([MODULUS, 2**64, 0.5, "", "1f", "-a", "nan", "inf", "sNaN", "2024-05-01", "AAE=", "x"])
)
tags = st.sampled_from([*shape.NAMES, "$bogus"])
adversarial = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "$set"]), inner, max_size=2)
        | st.builds(lambda tag, value: {tag: value}, tags, inner)
        | st.builds(lambda a, b: [a, b], inner, inner)
    ),
    max_leaves=12,
)


def accepted(call: object) -> bool:
    try:
        call()  # type: ignore[operator]
    except codec.StateError:
        return False
    return True


@settings(max_examples=1000)
@given(adversarial)
def test_scan_accepts_exactly_what_decode_accepts(data):
    assert accepted(lambda: shape.scan(data, most=10**6)) == accepted(lambda: codec.decode(data))
