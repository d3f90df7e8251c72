"""A handler that caches next to its own code, as a handler must not: the process-model test's proof that its
walls hold (tests/functions/test_lambda_process_model.py)."""

from __future__ import annotations

from pathlib import Path


def handler(event: dict, context: object) -> dict:
    Path(__file__).with_suffix(".cache").write_text("cached")
    return {"ok": True}
