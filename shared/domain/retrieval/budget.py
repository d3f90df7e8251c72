"""Token estimation and packing under a hard budget.

>>> estimate_tokens("abcdefg")
3
>>> packed, summary = pack([{"id": "a", "content": "x" * 30}, {"id": "b", "content": "y" * 300}], 40)
>>> [m["id"] for m in packed], summary["used"] <= 40
(['a', 'b'], True)
"""

from __future__ import annotations

import math
from typing import Any

ESTIMATOR = "chars_div_3_conservative_v1"
MIN_TRUNCATED_CHARS = 24


def estimate_tokens(text: str) -> int:
    """A conservative estimate (about 3 characters a token): never under-counts English text."""
    return math.ceil(len(text) / 3)


def pack(memories: list[dict[str, Any]], budget: int | None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Keep memories in order while they fit; truncate one that does not (≥24 chars), omit the rest."""
    if not budget:
        return memories, {"requested": budget, "used": sum(estimate_tokens(m["content"]) for m in memories),
                          "estimator": ESTIMATOR, "truncated_items": 0, "omitted_items": 0}  # fmt: skip
    used, truncated, omitted, kept = 0, 0, 0, []
    for memory in memories:
        cost = estimate_tokens(memory["content"])
        if used + cost <= budget:
            kept.append(memory)
            used += cost
            continue
        room_chars = (budget - used) * 3
        if room_chars >= MIN_TRUNCATED_CHARS:
            text = memory["content"][: room_chars - 1].rstrip() + "…"
            kept.append({**memory, "content": text, "truncated": True})
            used += estimate_tokens(text)
            truncated += 1
        else:
            omitted += 1
    summary = {
        "requested": budget,
        "used": used,
        "estimator": ESTIMATOR,
        "truncated_items": truncated,
        "omitted_items": omitted,
    }
    return kept, summary
