"""The sandbox state's tagged JSON: what the guest writes round-trips, and what it did not write is refused."""

from __future__ import annotations

import collections
import datetime
import decimal
import fractions
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.domain.context_env import host
from shared.domain.context_env import state as codec

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.binary(max_size=20)
    | st.complex_numbers(allow_nan=False)
    | st.decimals(allow_nan=False, allow_infinity=False)
    | st.fractions()
    | st.datetimes()
    | st.dates()
    | st.timedeltas()
)
hashables = st.recursive(
    scalars, lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3), max_leaves=5
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.dictionaries(hashables, inner, max_size=3)
        | st.sets(hashables, max_size=3)
        | st.tuples(inner, inner)
    ),
    max_leaves=20,
)


@given(values)
def test_every_supported_value_round_trips(value):
    assert codec.decode(codec.loads(codec.dump(codec.encode(value)))) == value


def test_collections_keep_their_type():
    value = {
        "c": collections.Counter("abca"),
        "o": collections.OrderedDict(a=1),
        "q": collections.deque([1], maxlen=2),
        "d": collections.defaultdict(set, {1: {2}}),
        "r": range(1, 9, 2),
        "inf": math.inf,
        "tagged": {"$set": [1]},
    }
    back = codec.decode_state(codec.encode_state(value))
    assert back == value and [type(v) for v in back.values()] == [type(v) for v in value.values()]
    assert back["q"].maxlen == 2 and back["d"].default_factory is set


@pytest.mark.parametrize(
    "value", [lambda: 1, object(), collections.defaultdict(lambda: 1), type("list", (list,), {})()]
)
def test_what_has_no_encoding_is_refused(value):
    with pytest.raises(codec.Unencodable):
        codec.encode(value)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"format": 2, "vars": {}}',
        '{"format": 1, "vars": {"x": {"$pickle": "gASV"}}}',
        '{"format": 1, "vars": {"x": {"$int": "' + "f" * 20_000 + '"}}}',
        '{"format": 1, "vars": {"x": NaN}}',
        '{"format": 1, "vars": {"x": ' + "[" * 5000 + "]" * 5000 + "}}",
        '{"format": 1, "vars": {"x": {"$dict": [[[1], 2]]}}}',
        '{"format": 1, "vars": {"x": {"$defaultdict": ["eval", []]}}}',
        '{"format": 1, "vars": {"x": {"$bytes": "not base64!"}}}',
    ],
)
def test_a_state_the_guest_did_not_write_is_refused(text):
    with pytest.raises(codec.StateError):
        codec.decode_state(text)
    with pytest.raises(host.Rejected):
        host.summarize(host.load(text, {}))


def test_the_host_refuses_bad_names_and_too_many_variables():
    with pytest.raises(host.Rejected, match="not a variable name"):
        host.load('{"format": 1, "vars": {"__class__": 1}}', {})
    with pytest.raises(host.Rejected) as refused:
        host.load(codec.encode_state({f"v{i}": i for i in range(3)}), {"max_variables": 2})
    assert refused.value.code == "too_many_variables"


def test_dates_and_numbers_keep_their_precision():
    value = [datetime.datetime(2024, 1, 2, 3, 4, 5, 6), decimal.Decimal("0.1000"), fractions.Fraction(2, 6)]
    assert codec.decode_state(codec.encode_state({"v": value}))["v"] == value
