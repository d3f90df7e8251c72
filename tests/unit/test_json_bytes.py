"""Recall's hand-built body: orjson where it can, the stdlib where orjson refuses; the same JSON either way."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shared.api.routes.memories import json_bytes

BODIES = [
    {"memories": [{"id": "mem_1", "content": "Dana mag Käse ☕", "embedding": [0.25, -1.0, 3e-7]}]},
    {"metadata": {"big": 2**70}},  # past 64 bits: orjson refuses, the stdlib writes it
    {"score": np.float64(0.5)},
    {"nested": {"list": [None, True, 1, "x"]}},
]


@pytest.mark.parametrize("body", BODIES)
def test_the_body_reads_back_as_the_stdlib_writes_it(body: dict) -> None:
    expected = json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    assert json.loads(json_bytes(body)) == json.loads(expected)
    assert b"\\u" not in json_bytes(body)  # non-ASCII sent as UTF-8, as FastAPI's JSONResponse does


def test_not_a_number_is_refused_not_sent() -> None:
    with pytest.raises(ValueError):
        json_bytes({"big": 2**70, "x": float("nan")})
