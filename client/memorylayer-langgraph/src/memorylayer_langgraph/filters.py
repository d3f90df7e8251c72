"""LangGraph's search ``filter``, applied to an item's value: exact matches (nested dicts and lists too) and the
operators ``$eq $ne $gt $gte $lt $lte``, as LangGraph's own stores read them.

>>> matches({"age": 30, "tags": ["a"]}, {"age": {"$gte": 18, "$lt": 65}, "tags": ["a"]})
True
>>> matches({"age": 30}, {"age": {"$ne": 30}})
False
"""

from __future__ import annotations

from typing import Any

__all__ = ["OPERATORS", "matches"]

OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")


def matches(value: dict[str, Any], filter: dict[str, Any] | None) -> bool:
    return not filter or all(_compare(value.get(k), expected) for k, expected in filter.items())


def _compare(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict):
        if any(k.startswith("$") for k in expected):
            return all(_operator(actual, op, operand) for op, operand in expected.items())
        return isinstance(actual, dict) and all(_compare(actual.get(k), v) for k, v in expected.items())
    if isinstance(expected, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(expected)
            and all(_compare(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return bool(actual == expected)


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    if op not in OPERATORS:
        raise ValueError(f"unsupported filter operator {op!r}; supported: {', '.join(OPERATORS)}")
    try:
        a, b = float(actual), float(operand)
    except (TypeError, ValueError):
        return False  # a missing or non-numeric value is outside every range
    if op == "$gt":
        return a > b
    if op == "$gte":
        return a >= b
    if op == "$lt":
        return a < b
    return a <= b
