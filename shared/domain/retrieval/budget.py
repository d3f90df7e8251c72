"""Token estimation, detail levels and packing under a hard budget.

A memory is sent as its ``detail_level`` asks (``full``: the content; ``overview`` / ``abstract``: that extractive
tier, shared/domain/memories/tiers.py). Under ``budget_tokens`` each memory steps down, in order, to the largest
representation that still fits: full → overview → abstract → a cut excerpt (at least 24 characters) → left out.
A memory without tiers (``extractive_tiers_enabled`` off) is sent whole: no representation is invented for it.

>>> estimate_tokens("abcdefg")
3
>>> long = {"id": "b", "content": "y" * 900, "overview": "y" * 450, "abstract": "y" * 150}
>>> packed, summary = pack([{"id": "a", "content": "x" * 30}, long], 100, "full")
>>> [len(m["content"]) for m in packed], summary["used"], summary["omitted_items"]
([30, 150], 60, 0)
"""

from __future__ import annotations

import math
from typing import Any, Literal

ESTIMATOR = "chars_div_3_conservative_v1"
MIN_TRUNCATED_CHARS = 24

DetailLevel = Literal["abstract", "overview", "full"]


def estimate_tokens(text: str) -> int:
    """A conservative estimate (about 3 characters a token): never under-counts English text."""
    return math.ceil(len(text) / 3)


def representations(memory: dict[str, Any], level: DetailLevel) -> list[str]:
    """What ``memory`` may be sent as at ``level``, largest first; a missing tier is the content."""
    content = memory["content"]
    overview = memory.get("overview") or content
    abstract = memory.get("abstract") or content
    values = {"full": [content, overview, abstract], "overview": [overview, abstract], "abstract": [abstract]}
    return list(dict.fromkeys(values[level]))  # without repeats, in order


def pack(
    memories: list[dict[str, Any]], budget: int | None, level: DetailLevel = "full"
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Keep memories in order, each at the largest representation that fits what is left of ``budget``; cut the
    smallest one short (≥24 chars) when none fits; leave it out when not even that fits."""
    used, truncated, omitted, kept = 0, 0, 0, []
    for memory in memories:
        choices = representations(memory, level)
        remaining = budget - used if budget else None
        if remaining is None:
            text, cut = choices[0], False
        elif remaining <= 0:
            omitted += 1
            continue
        else:
            fitting = [c for c in choices if estimate_tokens(c) <= remaining]
            text, cut = (fitting[0], False) if fitting else (choices[-1], True)
            if cut:
                room_chars = remaining * 3
                if room_chars < MIN_TRUNCATED_CHARS:
                    omitted += 1
                    continue
                text = text[: room_chars - 1].rstrip() + "…"
                truncated += 1
        sent = memory if text == memory["content"] else {**memory, "content": text}
        if cut:
            sent["truncated"] = True
        kept.append(sent)
        used += estimate_tokens(text)
    summary = {
        "requested": budget,
        "used": used,
        "estimator": ESTIMATOR,
        "truncated_items": truncated,
        "omitted_items": omitted,
    }
    return kept, summary
