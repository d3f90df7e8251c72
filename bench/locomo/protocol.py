"""The honest protocol: a knob is tuned on one dev conversation and tested on the other, both ways;
a change is adopted only if it improves both. Plus the macro average (the mean over conversations).

``scores``: {setting: {conversation: {"hit@5": …, "recall@5": …, "mrr@10": …}}} (overall figures).

    >>> s = {
    ...     "base": {"a": {"hit@5": 0.6, "recall@5": 0.5, "mrr@10": 0.4}, "b": {"hit@5": 0.7, "recall@5": 0.6, "mrr@10": 0.5}},
    ...     "x=1": {"a": {"hit@5": 0.8, "recall@5": 0.7, "mrr@10": 0.5}, "b": {"hit@5": 0.6, "recall@5": 0.5, "mrr@10": 0.4}},
    ... }
    >>> [(d.tuned_on, d.tested_on, d.picked) for d in two_way(s)]
    [('a', 'b', 'x=1'), ('b', 'a', 'base')]
    >>> macro({"a": {"hit@5": 0.6, "recall@5": 0.5, "mrr@10": 0.4}, "b": {"hit@5": 0.7, "recall@5": 0.6, "mrr@10": 0.5}})
    {'hit@5': 0.65, 'recall@5': 0.55, 'mrr@10': 0.45}
    >>> improves_both(s["base"], s["x=1"])
    False
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from bench.locomo.metrics import METRICS

Figures = dict[str, float]


def objective(m: Figures) -> tuple[float, float]:
    """What a setting is picked by: the targets (Hit@5 and Recall@5, equally), MRR@10 breaks ties."""
    return (round(m["hit@5"] + m["recall@5"], 6), m["mrr@10"])


def macro(per_conversation: dict[str, Figures]) -> Figures:
    """The unweighted mean over conversations (each conversation counts once, whatever its question count)."""
    return {m: round(statistics.fmean(f[m] for f in per_conversation.values()), 4) for m in METRICS}


@dataclass(frozen=True)
class Direction:
    tuned_on: str
    tested_on: str
    picked: str
    figures: Figures  # the picked setting on ``tested_on``: the held-out estimate of this direction


def two_way(scores: dict[str, dict[str, Figures]]) -> list[Direction]:
    """For each ordered pair of conversations, the setting best on the first, scored on the second. Ties go to
    the setting listed first (the baseline, when it is listed first)."""
    settings = list(scores)
    conversations = list(next(iter(scores.values())))
    out = []
    for tune in conversations:
        for test in conversations:
            if tune == test:
                continue
            best = max(settings, key=lambda s: (objective(scores[s][tune]), -settings.index(s)))
            out.append(Direction(tune, test, best, scores[best][test]))
    return out


def improves_both(base: dict[str, Figures], candidate: dict[str, Figures]) -> bool:
    """Adopt only what improves every conversation (by ``objective``) — not a gain on one paid on the other."""
    return all(objective(candidate[c]) > objective(base[c]) for c in base)


def fmt(m: Figures) -> str:
    return " / ".join(f"{m[k]:.3f}" for k in METRICS)


def report(scores: dict[str, dict[str, Figures]], baseline: str | None = None) -> str:
    """Markdown: every setting on every conversation with the macro average and whether it beats the baseline
    on both; then the two directions (tuned on one, tested on the other) and their macro average."""
    baseline = baseline or next(iter(scores))
    conversations = list(scores[baseline])
    head = "| setting | " + " | ".join(conversations) + " | macro | better on both |"
    lines = [head, "|" + "---|" * (len(conversations) + 3)]
    for name, per_conv in scores.items():
        verdict = (
            "(baseline)"
            if name == baseline
            else ("yes" if improves_both(scores[baseline], per_conv) else "no")
        )
        cells = [fmt(per_conv[c]) for c in conversations]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {fmt(macro(per_conv))} | {verdict} |")
    if len(conversations) < 2:
        return "\n".join(lines) + "\n"
    directions = two_way(scores)
    lines += ["", "| tuned on | picks | tested on | Hit@5 / Recall@5 / MRR@10 |", "|---|---|---|---|"]
    lines += [f"| {d.tuned_on} | {d.picked} | {d.tested_on} | {fmt(d.figures)} |" for d in directions]
    held_out = macro({f"{d.tuned_on}->{d.tested_on}": d.figures for d in directions})
    lines.append(f"| | | **macro (held-out)** | **{fmt(held_out)}** |")
    return "\n".join(lines) + "\n"
