"""Per-question retrieval metrics over ranked turn ids, and their aggregation per category.

>>> score(["D1:1", "D1:2", "D1:3"], ("D1:3", "D9:9"))
{'hit@5': 1.0, 'recall@5': 0.5, 'mrr@10': 0.333333}
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from bench.locomo.data import CATEGORIES

METRICS = ("hit@5", "recall@5", "mrr@10")


def score(ranked: list[str], evidence: tuple[str, ...]) -> dict[str, float]:
    wanted = set(evidence)
    top5 = set(ranked[:5])
    first = next((i for i, dia in enumerate(ranked[:10], 1) if dia in wanted), None)
    return {
        "hit@5": float(bool(top5 & wanted)),
        "recall@5": round(len(top5 & wanted) / len(wanted), 6),
        "mrr@10": round(1 / first, 6) if first else 0.0,
    }


def aggregate(rows: list[dict]) -> dict[str, dict[str, float]]:
    """``rows``: dicts with ``category`` and the METRICS → {"overall": {...}, "multi-hop": {...}, ...}."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups["overall"].append(row)
        groups[CATEGORIES[row["category"]]].append(row)
    return {
        name: {"n": len(items), **{m: round(statistics.fmean(r[m] for r in items), 4) for m in METRICS}}
        for name, items in groups.items()
    }


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)
