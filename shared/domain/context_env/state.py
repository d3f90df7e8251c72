"""A sandbox's variables as tagged JSON: written and decoded by the guest only, never unpickled.

    >>> import datetime
    >>> text = encode_state({"n": 3, "seen": {1, 2}, "when": datetime.date(2024, 5, 1)})
    >>> decode_state(text)["seen"]
    {1, 2}

JSON values stand for themselves (a dict whose keys are all strings stays an object); everything else is an
object with one ``$``-key naming its type: ``{"$set": [1, 2]}``. Only the types below exist, so decoding can
build nothing else; depth and integer size are bounded. The host never decodes (a set of ints that hash
alike is quadratic to build): shape.py checks and previews the encoding itself. Values without an encoding
(functions, classes, modules, instances of caller classes, cycles) are reported by the guest as not
persisted.

Stdlib only, and light: the guest runs this file's source too (wasm.py prepends it to guest.py), where every
module imported costs start-up time, so the types of other modules are looked up only once a value needs it.
"""

from __future__ import annotations

import _json
import binascii
import math
import sys

TYPE_CHECKING = False  # not typing's: the guest would pay for importing it
if TYPE_CHECKING:
    from typing import Any

FORMAT = 1
MAX_DEPTH = 64
MAX_INT_HEX = 10_000  # about 40 kbit: far past any real value, and never slow to parse
FACTORIES = ("list", "dict", "set", "int", "float", "str", "tuple")


class StateError(ValueError):
    """A state that is not one this module wrote (the host refuses it)."""


class TooDeep(StateError):
    """JSON nested deeper than the parser's stack allows (the host answers it as too complex, not as broken)."""


class Unencodable(TypeError):
    """A value with no encoding; the guest lists its variable in ``not_persisted``."""


# --- JSON text, through the C accelerator alone (the json package would import re, enum and more) ---------


class _Context:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo: dict = {}

    @staticmethod
    def parse_constant(name: str) -> float:
        raise StateError(f"{name} is not JSON")


_scan = _json.make_scanner(_Context())  # type: ignore[arg-type]
_encode = _json.make_encoder(None, None, _json.encode_basestring_ascii, None, ":", ",", False, False, False)  # type: ignore[arg-type]


def loads(text: str) -> Any:
    text = text.strip()
    try:
        value, end = _scan(text, 0)
    except StopIteration as exc:
        raise StateError("not JSON") from exc
    except RecursionError as exc:
        raise TooDeep("nested too deeply") from exc
    except ValueError as exc:
        raise StateError(f"not JSON: {exc}") from exc
    if end != len(text):
        raise StateError("not JSON: extra data")
    return value


def dump(data: object) -> str:
    """Compact ASCII JSON (no NaN: encode() tags them)."""
    return "".join(_encode(data, 0))


# --- values to JSON data -----------------------------------------------------------------------------------


def encode(value: Any, depth: int = 0) -> Any:
    """A value as JSON data; raises Unencodable for anything outside the supported types."""
    if depth > MAX_DEPTH:
        raise Unencodable("nested too deeply")
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return value if -(1 << 63) <= value < (1 << 63) else {"$int": format(value, "x")}
    if kind is float:
        return value if math.isfinite(value) else {"$float": repr(value)}
    if kind is list:
        return [encode(v, depth + 1) for v in value]
    if kind is dict:
        if all(type(k) is str for k in value) and not looks_tagged(value):
            return {k: encode(v, depth + 1) for k, v in value.items()}
        return {"$dict": _pairs(value, depth)}
    entry = _ENCODERS.get(f"{kind.__module__}.{kind.__qualname__}")
    # The class must be the real one, not a caller class that borrowed its name.
    if entry is None or getattr(sys.modules.get(kind.__module__), kind.__qualname__, None) is not kind:
        raise Unencodable(kind.__name__)
    return {entry[0]: entry[1](value, depth)}


def looks_tagged(value: dict) -> bool:
    return len(value) == 1 and next(iter(value)).startswith("$")


def _pairs(mapping: Any, depth: int) -> list:
    return [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in mapping.items()]


def _items(value: Any, depth: int) -> list:
    return [encode(v, depth + 1) for v in value]


def _b64(value: Any, depth: int) -> str:
    return binascii.b2a_base64(value, newline=False).decode()


def _defaultdict(value: Any, depth: int) -> list:
    factory = value.default_factory
    name = None if factory is None else getattr(factory, "__name__", None)
    if factory is not None and (name not in FACTORIES or _builtin(name) is not factory):
        raise Unencodable("defaultdict with a custom factory")
    return [name, _pairs(value, depth)]


def _builtin(name: object) -> Any:
    import builtins

    return getattr(builtins, str(name), None)


_ENCODERS = {
    "builtins.tuple": ("$tuple", _items),
    "builtins.set": ("$set", _items),
    "builtins.frozenset": ("$frozenset", _items),
    "builtins.bytes": ("$bytes", _b64),
    "builtins.bytearray": ("$bytearray", _b64),
    "builtins.complex": ("$complex", lambda v, d: [repr(v.real), repr(v.imag)]),
    "builtins.range": ("$range", lambda v, d: [v.start, v.stop, v.step]),
    "decimal.Decimal": ("$decimal", lambda v, d: str(v)),
    "fractions.Fraction": ("$fraction", lambda v, d: [format(v.numerator, "x"), format(v.denominator, "x")]),
    "datetime.datetime": ("$datetime", lambda v, d: v.isoformat()),
    "datetime.date": ("$date", lambda v, d: v.isoformat()),
    "datetime.time": ("$time", lambda v, d: v.isoformat()),
    "datetime.timedelta": ("$timedelta", lambda v, d: [v.days, v.seconds, v.microseconds]),
    "collections.OrderedDict": ("$odict", _pairs),
    "collections.Counter": ("$counter", _pairs),
    "collections.deque": ("$deque", lambda v, d: [v.maxlen, _items(v, d)]),
    "collections.defaultdict": ("$defaultdict", _defaultdict),
}


# --- JSON data back to values ------------------------------------------------------------------------------


def _hex(text: object) -> int:
    if not isinstance(text, str) or len(text) > MAX_INT_HEX:
        raise StateError("bad integer")
    return int(text, 16)


def _float(text: object) -> float:
    if text not in ("nan", "inf", "-inf"):
        raise StateError("bad float")
    return float(text)


def _tagged_pairs(data: object, depth: int) -> list[tuple]:
    if not isinstance(data, list):
        raise StateError("pairs must be a list")
    out = []
    for pair in data:
        if not isinstance(pair, list) or len(pair) != 2:
            raise StateError("a pair must be [key, value]")
        out.append((decode(pair[0], depth + 1), decode(pair[1], depth + 1)))
    return out


def _list(data: object, depth: int) -> list:
    if not isinstance(data, list):
        raise StateError("expected a list")
    return [decode(v, depth + 1) for v in data]


def _str(data: object) -> str:
    if not isinstance(data, str):
        raise StateError("expected a string")
    return data


def _ints(data: object, count: int) -> list:
    if not isinstance(data, list) or len(data) != count or any(type(x) is not int for x in data):
        raise StateError(f"expected {count} integers")
    return data


def _bytes(data: object) -> bytes:
    return binascii.a2b_base64(_str(data), strict_mode=True)


def _complex(data: object) -> complex:
    if not isinstance(data, list) or len(data) != 2 or not all(isinstance(x, str) for x in data):
        raise StateError("bad complex")
    return complex(float(data[0]), float(data[1]))


def _fraction(data: object) -> object:
    import fractions

    if not isinstance(data, list) or len(data) != 2:
        raise StateError("bad fraction")
    return fractions.Fraction(_hex(data[0]), _hex(data[1]))


def _decimal(data: object) -> object:
    import decimal

    return decimal.Decimal(_str(data))


def _datetime(name: str) -> Any:
    import datetime

    return getattr(datetime, name)


def _collections(name: str) -> Any:
    import collections

    return getattr(collections, name)


def _deque(data: object, depth: int) -> object:
    if not isinstance(data, list) or len(data) != 2 or not (data[0] is None or type(data[0]) is int):
        raise StateError("bad deque")
    return _collections("deque")(_list(data[1], depth), data[0])


def _make_defaultdict(data: object, depth: int) -> object:
    if not isinstance(data, list) or len(data) != 2 or not (data[0] is None or data[0] in FACTORIES):
        raise StateError("bad defaultdict")
    factory = None if data[0] is None else _builtin(data[0])
    return _collections("defaultdict")(factory, _tagged_pairs(data[1], depth))


_DECODERS = {
    "$int": lambda data, depth: _hex(data),
    "$float": lambda data, depth: _float(data),
    "$dict": lambda data, depth: dict(_tagged_pairs(data, depth)),
    "$tuple": lambda data, depth: tuple(_list(data, depth)),
    "$set": lambda data, depth: set(_list(data, depth)),
    "$frozenset": lambda data, depth: frozenset(_list(data, depth)),
    "$bytes": lambda data, depth: _bytes(data),
    "$bytearray": lambda data, depth: bytearray(_bytes(data)),
    "$complex": lambda data, depth: _complex(data),
    "$range": lambda data, depth: range(*_ints(data, 3)),
    "$decimal": lambda data, depth: _decimal(data),
    "$fraction": lambda data, depth: _fraction(data),
    "$datetime": lambda data, depth: _datetime("datetime").fromisoformat(_str(data)),
    "$date": lambda data, depth: _datetime("date").fromisoformat(_str(data)),
    "$time": lambda data, depth: _datetime("time").fromisoformat(_str(data)),
    "$timedelta": lambda data, depth: _datetime("timedelta")(*_ints(data, 3)),
    "$odict": lambda data, depth: _collections("OrderedDict")(_tagged_pairs(data, depth)),
    "$counter": lambda data, depth: _collections("Counter")(dict(_tagged_pairs(data, depth))),
    "$deque": _deque,
    "$defaultdict": _make_defaultdict,
}


def decode(data: Any, depth: int = 0) -> Any:
    """JSON data back to the value; anything this module would not have written is a StateError."""
    if depth > MAX_DEPTH + 2:
        raise StateError("nested too deeply")
    if data is None or type(data) in (bool, str, int, float):
        return data
    if type(data) is list:
        return [decode(v, depth + 1) for v in data]
    if type(data) is dict:
        if looks_tagged(data):
            ((tag, inner),) = data.items()
            decoder = _DECODERS.get(tag)
            if decoder is None:
                raise StateError(f"unknown tag {tag!r}")
            try:
                return decoder(inner, depth)
            except StateError:
                raise
            except (TypeError, ValueError, ArithmeticError) as exc:
                raise StateError(f"bad {tag}: {exc}") from exc
        return {k: decode(v, depth + 1) for k, v in data.items()}
    raise StateError(f"unexpected {type(data).__name__}")


# --- a whole state -----------------------------------------------------------------------------------------


def encode_state(values: dict) -> str:
    """Every variable encoded (raises Unencodable for the first that cannot be)."""
    return dump({"format": FORMAT, "vars": {name: encode(v) for name, v in values.items()}})


def parse(text: str) -> dict:
    """A state's text to its variables' encoded data (the shape checked; the values still encoded)."""
    data = loads(text)
    if type(data) is not dict or data.get("format") != FORMAT or type(data.get("vars")) is not dict:
        raise StateError("not a sandbox state")
    return data["vars"]


def decode_state(text: str | None) -> dict:
    """A state's variables, every one decoded (a StateError if any is not well formed)."""
    if not text:
        return {}
    try:
        return {name: decode(data) for name, data in parse(text).items()}
    except RecursionError as exc:
        raise StateError("nested too deeply") from exc
