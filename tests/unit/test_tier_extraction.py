"""The sentence selection behind a memory's abstract and overview: whole source sentences, chosen by position,
headings and repeated terms, every tier exactly its spans joined, deterministic, and bounded on huge input."""

from __future__ import annotations

import random

import pytest

from shared.domain.memories.tiers import MAX_INPUT_CHARS, columns, extractive_tiers, sentences
from shared.domain.retrieval.budget import pack, representations


def joined(text: str, spans: tuple[tuple[int, int], ...]) -> str:
    return " ".join(text[s:e] for s, e in spans)


def test_a_text_that_fits_is_its_own_tier() -> None:
    tiers = extractive_tiers("Alice prefers green tea.")
    assert tiers is not None
    abstract, overview = tiers
    assert abstract == overview
    assert (abstract.content, abstract.spans, abstract.method) == (
        "Alice prefers green tea.",
        ((0, 24),),
        "source_reuse",
    )


def test_blank_text_has_no_tiers_but_is_marked_done() -> None:
    assert extractive_tiers("   \n ") is None
    assert columns("   ", True) == {
        "abstract": None,
        "overview": None,
        "tier_source_spans": {"method": "extractive"},
    }
    assert columns("anything", False) == {"abstract": None, "overview": None, "tier_source_spans": None}


def test_sentences_keep_decimals_and_end_at_lines() -> None:
    text = "Version 3.5 shipped today! Was it late?\n- item one\nLast words"
    assert [text[s:e] for s, e in sentences(text)] == [
        "Version 3.5 shipped today!",
        "Was it late?",
        "- item one",
        "Last words",
    ]


def test_headings_openers_and_repeated_terms_win_over_asides() -> None:
    text = (
        "## Deploy checklist\n\n"
        "Run the migrations before the deploy. "
        "The office plants were watered on Tuesday by the new intern from accounting. "
        "Check that the deploy role can read the migrations bucket. "
        "Somebody left a scarf in the meeting room near the kitchen again. "
        "After the deploy, watch the migrations log for errors."
    )
    abstract, overview = extractive_tiers(text, abstract_chars=120, overview_chars=200) or (None, None)
    assert abstract is not None and overview is not None
    assert abstract.content.startswith("## Deploy checklist Run the migrations before the deploy.")
    assert "plants" not in abstract.content and "scarf" not in overview.content
    assert "deploy role" in overview.content


@pytest.mark.parametrize("seed", range(20))
def test_every_tier_is_its_spans_joined_within_its_bound(seed: int) -> None:
    rng = random.Random(seed)
    words = ["crane", "berth", "grain", "ship", "seal", "the", "a", "report", "3.5", "e.g.", "Dr.", "#", "-"]
    parts = []
    for _ in range(rng.randint(1, 60)):
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(1, 40)))
        parts.append(sentence + rng.choice([".", "!", "?", "", "\n", "\n\n", "..."]))
    text = " ".join(parts).strip() or "x"
    tiers = extractive_tiers(text)
    assert tiers is not None
    for tier, bound in zip(tiers, (200, 500), strict=True):
        assert len(tier.content) <= bound or tier.method == "source_reuse"
        assert tier.content == joined(text, tier.spans)
        assert list(tier.spans) == sorted(tier.spans)
        assert all(0 <= s < e <= len(text) for s, e in tier.spans)
    assert extractive_tiers(text) == tiers  # deterministic


def test_a_sentence_longer_than_the_bound_is_cut_at_a_word() -> None:
    text = "word " * 300
    abstract, overview = extractive_tiers(text) or (None, None)
    assert abstract is not None and overview is not None
    assert abstract.method == "bounded_source_excerpt" and len(abstract.content) <= 200
    assert abstract.content == joined(text, abstract.spans) and abstract.content.endswith("word")


def test_huge_input_reads_only_its_head() -> None:
    head = "The crane failed. " * 50
    text = head + "Unique tail sentence about zebras. " * 200_000  # ~7 MB
    abstract, overview = extractive_tiers(text) or (None, None)
    assert abstract is not None and overview is not None
    assert all(e <= MAX_INPUT_CHARS for _, e in abstract.spans + overview.spans)
    assert len(sentences(text)) <= 400


def test_the_budget_steps_down_in_order() -> None:
    memory = {"id": "m", "content": "c" * 900, "overview": "o" * 450, "abstract": "a" * 150}
    assert representations(memory, "full") == ["c" * 900, "o" * 450, "a" * 150]
    assert representations(memory, "abstract") == ["a" * 150]
    assert representations({"id": "x", "content": "plain"}, "abstract") == ["plain"]  # no tiers: whole
    for budget, sent in ((300, "c" * 900), (299, "o" * 450), (149, "a" * 150)):
        [out], summary = pack([memory], budget)
        assert out["content"] == sent and summary["truncated_items"] == 0 and summary["omitted_items"] == 0
    [out], summary = pack([memory], 20)
    assert out["truncated"] is True and out["content"] == "a" * 59 + "…" and summary["truncated_items"] == 1
    kept, summary = pack([memory], 7)
    assert kept == [] and summary["omitted_items"] == 1
