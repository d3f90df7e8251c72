"""The base of every response model: ``Wire``, the ``Timestamp`` type and the example helpers."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, PlainSerializer, WithJsonSchema

from shared.core.wire import iso


def _iso(value: datetime | str) -> str:
    # A string is already wire form (e.g. a row that went through JSON once, such as a revision snapshot).
    return value if isinstance(value, str) else iso(value)  # type: ignore[return-value]


Timestamp = Annotated[
    datetime,
    PlainSerializer(_iso, return_type=str),
    WithJsonSchema({"type": "string", "format": "date-time", "examples": ["2026-11-29T14:40:34.508615Z"]}),
]


class Wire(BaseModel):
    """Base of every response model: field order is the wire's, unknown attributes are not accepted."""

    # defer_build: a model's validator and serializer are built on first use, not at import (a Lambda cold
    # start loads every model of its routes and uses a few).
    model_config = ConfigDict(extra="forbid", defer_build=True)

    @classmethod
    def pick(cls, row: dict[str, Any], **override: Any) -> Self:
        """The model's fields taken from ``row`` (a database row with more columns), without re-validation."""
        values = {name: row[name] for name in cls.model_fields if name in row}
        values.update(override)
        return cls.model_construct(**values)


def _absent(value: Any) -> bool:
    return value is None


def _example(model: type[BaseModel]) -> dict[str, Any]:
    examples: list[dict[str, Any]] = model.model_config["json_schema_extra"]["examples"]  # type: ignore[index,assignment]
    return examples[0]


def _wrapped_example(model: type[BaseModel], key: str, **extra: Any) -> ConfigDict:
    """An envelope's example: the flat object, the same under ``key``, and ``extra`` (a subclass would otherwise
    inherit its parent's example, which lacks the envelope's keys)."""
    return ConfigDict(json_schema_extra={"examples": [{**_example(model), key: _example(model), **extra}]})
