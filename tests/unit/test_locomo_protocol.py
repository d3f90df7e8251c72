"""bench/locomo/protocol.py: the two-way protocol picks on one conversation and reports the other."""

from __future__ import annotations

from bench.locomo.protocol import improves_both, macro, report, two_way


def fig(h: float, r: float, m: float) -> dict[str, float]:
    return {"hit@5": h, "recall@5": r, "mrr@10": m}


SCORES = {
    "base": {"conv-26": fig(0.70, 0.65, 0.55), "conv-30": fig(0.75, 0.70, 0.65)},
    "overfit": {"conv-26": fig(0.60, 0.55, 0.50), "conv-30": fig(0.85, 0.80, 0.70)},
    "steady": {"conv-26": fig(0.72, 0.66, 0.55), "conv-30": fig(0.76, 0.70, 0.60)},
}


def test_each_direction_reports_the_other_conversation_of_its_pick():
    # Given a setting that shines on conv-30 only and one slightly better on both
    picks = {(d.tuned_on, d.tested_on): (d.picked, d.figures) for d in two_way(SCORES)}
    # Then tuning on conv-30 picks the overfit one, and its conv-26 figures are what gets reported
    assert picks[("conv-30", "conv-26")] == ("overfit", SCORES["overfit"]["conv-26"])
    assert picks[("conv-26", "conv-30")] == ("steady", SCORES["steady"]["conv-30"])


def test_adopt_only_what_improves_both():
    assert improves_both(SCORES["base"], SCORES["steady"])
    assert not improves_both(SCORES["base"], SCORES["overfit"])
    assert not improves_both(SCORES["base"], SCORES["base"])


def test_macro_counts_each_conversation_once_and_the_report_shows_it():
    assert macro(SCORES["base"]) == {"hit@5": 0.725, "recall@5": 0.675, "mrr@10": 0.6}
    text = report(SCORES)
    assert (
        "| base | 0.700 / 0.650 / 0.550 | 0.750 / 0.700 / 0.650 | 0.725 / 0.675 / 0.600 | (baseline) |"
        in text
    )
    assert "| overfit |" in text and "| no |" in text and "| yes |" in text
    assert "**macro (held-out)** | **0.680 / 0.625 / 0.550**" in text
