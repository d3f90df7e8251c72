"""What the host reads from a variable's encoding without decoding it: its checked shape, element count, type
name, a preview, and the variable as plain JSON when it is plain.

    >>> data = loads('{"$set": [1, {"$int": "1' + '0' * 5000 + '"}]}')
    >>> scan(data, most=100), type_name(data), preview(data, 1000)
    (3, 'set', '{1, <int of 6021 digits>}')

The encoding (state.py) is untrusted when it comes back from a guest or out of a stored row. Decoding it would
build sets, frozensets and dict keys from values the guest chose, and ints that all hash alike (k·(2^61−1))
make that quadratic, in C, holding the GIL: a set of 50,000 of them stopped every request of the API for 43 s.
``repr`` of an int past 4,300 digits raises. So the host never decodes: ``scan`` accepts exactly what
``state.decode`` would (a property test holds the two together) in one walk bounded by an element budget and
the depth, and ``preview`` prints what ``repr`` of the value prints, from the encoding, and stops at its
character budget. Nothing here builds a set or a dict (a unit test checks the source): only the guest decodes.

Stdlib only (the sandbox function's bundle takes this package's stdlib-only modules).
"""

from __future__ import annotations

import binascii
import sys
from datetime import date, datetime, time, timedelta
from typing import Any

from shared.domain.context_env.state import (
    FACTORIES,
    MAX_DEPTH,
    StateError,
    loads,
    looks_tagged,
)
from shared.domain.context_env.state import (
    _bytes as check_bytes,
)
from shared.domain.context_env.state import (
    _complex as read_complex,
)
from shared.domain.context_env.state import (
    _decimal as read_decimal,
)
from shared.domain.context_env.state import (
    _float as read_float,
)
from shared.domain.context_env.state import (
    _hex as read_hex,
)
from shared.domain.context_env.state import (
    _ints as read_ints,
)
from shared.domain.context_env.state import (
    _str as read_str,
)

__all__ = ["NOT_PLAIN", "TooComplex", "loads", "plain", "preview", "scan", "type_name"]

DEPTH = MAX_DEPTH + 2  # as state.decode: the guest nests at most MAX_DEPTH, tags add a level or two
INT_BITS = 3300  # about 1,000 digits: a larger int is previewed by its length (repr past 4,300 digits raises)
LOG10_2 = 0.30102999566398120
NAMES = {
    "$int": "int",
    "$float": "float",
    "$dict": "dict",
    "$tuple": "tuple",
    "$set": "set",
    "$frozenset": "frozenset",
    "$bytes": "bytes",
    "$bytearray": "bytearray",
    "$complex": "complex",
    "$range": "range",
    "$decimal": "Decimal",
    "$fraction": "Fraction",
    "$datetime": "datetime",
    "$date": "date",
    "$time": "time",
    "$timedelta": "timedelta",
    "$odict": "OrderedDict",
    "$counter": "Counter",
    "$deque": "deque",
    "$defaultdict": "defaultdict",
}
HASHABLE = frozenset(
    {
        "$int",
        "$float",
        "$tuple",
        "$frozenset",
        "$bytes",
        "$complex",
        "$range",
        "$decimal",
        "$fraction",
        "$datetime",
        "$date",
        "$time",
        "$timedelta",
    }
)
ISO: dict[str, Any] = {"$datetime": datetime, "$date": date, "$time": time}
NOT_PLAIN = object()


class TooComplex(StateError):
    """More elements than the budget, or nested deeper than the guest writes."""


# --- checking: what decode would accept, without building anything hashed -----------------------------------


class _Scan:
    def __init__(self, most: int) -> None:
        self.most = most
        self.count = 0

    def value(self, data: Any, depth: int, hashable: bool = False) -> None:
        if depth > DEPTH:
            raise TooComplex(f"nested deeper than {DEPTH} levels")
        self.count += 1
        if self.count > self.most:
            raise TooComplex(f"more than {self.most} elements")
        kind = type(data)
        if data is None or kind in (bool, str, int, float):
            return
        if kind is list:
            if hashable:
                raise StateError("a list cannot be a set element or a key")
            for item in data:
                self.value(item, depth + 1)
            return
        if kind is not dict:
            raise StateError(f"unexpected {kind.__name__}")
        if not looks_tagged(data):
            if hashable:
                raise StateError("a dict cannot be a set element or a key")
            for item in data.values():
                self.value(item, depth + 1)
            return
        ((tag, inner),) = data.items()
        if tag not in NAMES:
            raise StateError(f"unknown tag {tag[:40]!r}")
        if hashable and tag not in HASHABLE:
            raise StateError(f"a {NAMES[tag]} cannot be a set element or a key")
        try:
            self.tagged(tag, inner, depth, hashable)
        except StateError:
            raise
        except (TypeError, ValueError, ArithmeticError) as exc:  # as decode reports them
            raise StateError(f"bad {tag}: {exc}") from exc

    def items(self, data: Any, depth: int, hashable: bool) -> None:
        if type(data) is not list:
            raise StateError("expected a list")
        for item in data:
            self.value(item, depth + 1, hashable)

    def pairs(self, data: Any, depth: int) -> None:
        if type(data) is not list:
            raise StateError("pairs must be a list")
        for pair in data:
            if type(pair) is not list or len(pair) != 2:
                raise StateError("a pair must be [key, value]")
            self.value(pair[0], depth + 1, hashable=True)
            self.value(pair[1], depth + 1)

    def tagged(self, tag: str, inner: Any, depth: int, hashable: bool) -> None:
        if tag == "$int":
            read_hex(inner)
        elif tag == "$float":
            read_float(inner)
        elif tag in ("$dict", "$odict", "$counter"):
            self.pairs(inner, depth)
        elif tag == "$tuple":
            self.items(inner, depth, hashable)
        elif tag in ("$set", "$frozenset"):
            self.items(inner, depth, True)
        elif tag in ("$bytes", "$bytearray"):
            check_bytes(inner)
        elif tag == "$complex":
            read_complex(inner)
        elif tag == "$range":
            range(*read_ints(inner, 3))
        elif tag == "$decimal":
            if read_decimal(inner).is_snan() and hashable:  # type: ignore[attr-defined]
                raise StateError("a signalling NaN cannot be a set element or a key")
        elif tag == "$fraction":
            if type(inner) is not list or len(inner) != 2:
                raise StateError("bad fraction")
            read_hex(inner[0])
            if read_hex(inner[1]) == 0:
                raise StateError("bad $fraction: zero denominator")
        elif tag in ISO:
            ISO[tag].fromisoformat(read_str(inner))
        elif tag == "$timedelta":
            timedelta(*read_ints(inner, 3))
        elif tag == "$deque":
            if type(inner) is not list or len(inner) != 2 or not (inner[0] is None or type(inner[0]) is int):
                raise StateError("bad deque")
            if inner[0] is not None and not 0 <= inner[0] <= sys.maxsize:
                raise StateError("bad $deque: maxlen out of range")
            self.items(inner[1], depth, False)
        else:  # $defaultdict
            if type(inner) is not list or len(inner) != 2 or not (inner[0] is None or inner[0] in FACTORIES):
                raise StateError("bad defaultdict")
            self.pairs(inner[1], depth)


def scan(data: Any, *, most: int) -> int:
    """How many values ``data`` holds (itself included); a StateError if decode would refuse it, TooComplex
    past ``most`` values or the depth. One walk: it stops at the budget."""
    walk = _Scan(most)
    try:
        walk.value(data, 0)
    except RecursionError as exc:  # not reachable under DEPTH, but a stack is no place to learn that
        raise TooComplex("nested too deeply") from exc
    return walk.count


# --- reading: type, preview, plain JSON (on data ``scan`` accepted) -------------------------------------------


def type_name(data: Any) -> str:
    """The name ``type(value).__name__`` of the decoded value would give."""
    if type(data) is dict and looks_tagged(data):
        return NAMES.get(next(iter(data)), "dict")
    return type(data).__name__


def int_text(n: int) -> str:
    """``repr(n)``, or its length past about 1,000 digits (counting them costs one power of ten).

    >>> int_text(-12), int_text(1 << 20000)
    ('-12', '<int of 6021 digits>')
    """
    size = abs(n)
    bits = size.bit_length()
    if bits <= INT_BITS:
        return repr(n)
    digits = int((bits - 1) * LOG10_2) + 1  # the digits of 2**(bits-1); n has these or one more
    digits += size >= 10**digits
    return f"{'-' if n < 0 else ''}<int of {digits} digits>"


class _Full(Exception):
    """The preview has its characters: stop walking."""


class _Render:
    def __init__(self, chars: int) -> None:
        self.parts: list[str] = []
        self.left = chars

    def put(self, text: str) -> None:
        self.parts.append(text[: max(self.left, 0) + 1])
        self.left -= len(text)
        if self.left < 0:
            raise _Full

    def value(self, data: Any) -> None:
        kind = type(data)
        if kind is int:
            self.put(int_text(data))
        elif kind is str:
            self.put(repr(data[: self.left + 1]))  # a longer string fills the preview anyway
        elif kind is list:
            self.seq(data, "[", "]")
        elif kind is dict and looks_tagged(data):
            ((tag, inner),) = data.items()
            self.tagged(tag, inner)
        elif kind is dict:
            self.put("{")
            for i, (key, item) in enumerate(data.items()):
                self.put(f"{', ' if i else ''}{key[: self.left + 1]!r}: ")
                self.value(item)
            self.put("}")
        else:  # None, bool, float
            self.put(repr(data))

    def seq(self, items: list, open_: str, close: str) -> None:
        self.put(open_)
        for i, item in enumerate(items):
            if i:
                self.put(", ")
            self.value(item)
        self.put(close)

    def pairs(self, pairs: list, open_: str, close: str) -> None:
        self.put(open_)
        for i, (key, item) in enumerate(pairs):
            if i:
                self.put(", ")
            self.value(key)
            self.put(": ")
            self.value(item)
        self.put(close)

    def tagged(self, tag: str, inner: Any) -> None:
        name = NAMES[tag]
        if tag == "$int":
            self.put(int_text(read_hex(inner)))
        elif tag in ("$float", "$complex", "$range", "$timedelta") or tag in ISO:
            self.put(repr(_scalar(tag, inner)))
        elif tag == "$tuple":
            self.seq(inner, "(", ",)" if len(inner) == 1 else ")")
        elif tag in ("$set", "$frozenset"):
            if not inner:
                self.put(f"{name}()")
            else:
                self.seq(inner, "{" if tag == "$set" else "frozenset({", "}" if tag == "$set" else "})")
        elif tag in ("$bytes", "$bytearray"):
            # Enough base64 for the characters left (a byte prints as at most 4): the rest is never decoded.
            text = binascii.a2b_base64(inner[: (self.left // 3 + 2) * 4], strict_mode=True)
            self.put(repr(text) if tag == "$bytes" else f"bytearray({text!r})")
        elif tag == "$decimal":
            self.put(f"Decimal({inner[: self.left + 1]!r})")
        elif tag == "$fraction":
            self.put(f"Fraction({int_text(read_hex(inner[0]))}, {int_text(read_hex(inner[1]))})")
        elif tag == "$dict":
            self.pairs(inner, "{", "}")
        elif tag in ("$odict", "$counter") and not inner:
            self.put(f"{name}()")
        elif tag == "$odict" and sys.version_info < (3, 12):
            self.put("OrderedDict([")
            for i, (key, item) in enumerate(inner):
                self.put(", (" if i else "(")
                self.value(key)
                self.put(", ")
                self.value(item)
                self.put(")")
            self.put("])")
        elif tag == "$odict":
            self.pairs(inner, "OrderedDict({", "})")
        elif tag == "$counter":
            self.pairs(_most_common(inner), "Counter({", "})")
        elif tag == "$deque":
            maxlen, items = inner
            kept = items if maxlen is None or len(items) <= maxlen else items[len(items) - maxlen :]
            self.seq(kept, "deque([", "])" if maxlen is None else f"], maxlen={maxlen})")
        else:  # $defaultdict
            factory = "None" if inner[0] is None else f"<class {inner[0]!r}>"
            self.pairs(inner[1], f"defaultdict({factory}, {{", "})")


def _scalar(tag: str, inner: Any) -> object:
    """A tag that stands for one small, unhashed value: built, to print as repr prints it."""
    if tag == "$float":
        return read_float(inner)
    if tag == "$complex":
        return read_complex(inner)
    if tag == "$range":
        return range(*read_ints(inner, 3))
    if tag == "$timedelta":
        return timedelta(*read_ints(inner, 3))
    return ISO[tag].fromisoformat(read_str(inner))


def _most_common(pairs: list) -> list:
    """A Counter prints in most_common order when its counts are plain numbers (a stable sort of the pairs,
    never a dict of them); otherwise in its own order, as Counter's repr falls back to."""
    if all(type(pair[1]) in (int, float) for pair in pairs):
        return sorted(pairs, key=lambda pair: pair[1], reverse=True)
    return pairs


def preview(data: Any, chars: int) -> str:
    """``repr`` of the decoded value, cut to ``chars`` with "..." as host previews are (ints past about 1,000
    digits by their length); the walk stops once ``chars`` are written."""
    render = _Render(chars)
    try:
        render.value(data)
    except _Full:
        return "".join(render.parts)[:chars] + "..."
    return "".join(render.parts)


def plain(data: Any) -> Any:
    """``data`` itself when it is JSON that stands for itself (no tag anywhere), else ``NOT_PLAIN``."""
    todo = [data]
    while todo:
        item = todo.pop()
        if type(item) is list:
            todo.extend(item)
        elif type(item) is dict:
            if looks_tagged(item):
                return NOT_PLAIN
            todo.extend(item.values())
    return data
