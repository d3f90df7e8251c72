"""Properties of context-pack rendering: the hard budget, determinism, dedup and delta prefixes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.domain.retrieval.budget import estimate_tokens
from shared.domain.sessions.cursor import decode, encode
from shared.domain.sessions.packs import KIND_PRIORITY, Item, dedupe, rank, render

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

item_strategy = st.builds(
    Item,
    id=st.text("abcdef0123", min_size=1, max_size=6).map(lambda s: f"mem_{s}"),
    kind=st.sampled_from(sorted(KIND_PRIORITY)),
    content=st.text(min_size=0, max_size=600),
    importance=st.floats(0, 1),
    event_time=st.one_of(st.none(), st.integers(0, 10**6).map(lambda s: EPOCH + timedelta(seconds=s))),
    tombstone=st.booleans(),
)
items_strategy = st.lists(item_strategy, max_size=40)  # ids may repeat: dedupe has work to do
# Distinct ids: with a repeated id the two orders may keep different duplicates, so the text may differ.
distinct_items_strategy = st.lists(item_strategy, max_size=40, unique_by=lambda item: item.id)


@settings(max_examples=50, deadline=None)
@given(items=items_strategy, budget=st.integers(1, 3000))
def test_a_pack_never_exceeds_its_budget(items, budget):
    rendered, packed, summary = render(dedupe(rank(items)), budget)
    assert estimate_tokens(rendered) <= budget
    assert summary["used"] == estimate_tokens(rendered) <= budget
    assert len(packed) + summary["omitted_items"] == len(dedupe(rank(items)))
    assert summary["truncated_items"] <= len(packed)


@settings(max_examples=50, deadline=None)
@given(items=distinct_items_strategy, budget=st.integers(32, 2000))
def test_rendering_is_deterministic_and_order_free(items, budget):
    forward = render(dedupe(rank(items)), budget)
    backward = render(dedupe(rank(list(reversed(items)))), budget)
    assert forward[0] == backward[0]  # same input set, same text


@settings(max_examples=50, deadline=None)
@given(items=items_strategy, budget=st.integers(32, 500))
def test_a_delta_delivers_a_prefix(items, budget):
    rendered, packed, summary = render(items, budget, stop_on_omit=True)
    assert estimate_tokens(rendered) <= budget
    assert [i.id for i in packed] == [i.id for i in items[: len(packed)]]
    assert len(packed) + summary["omitted_items"] == len(items)


def test_dedupe_by_id_and_casefolded_content():
    items = [
        Item("a", "directives", "Hello  World"),
        Item("b", "recent_activity", "hello world"),
        Item("a", "recent_activity", "other"),
        Item("c", "recent_activity", ""),
    ]
    assert [i.id for i in dedupe(items)] == ["a", "c"]


def test_truncation_marks_and_fits():
    rendered, packed, summary = render([Item("a", "working_memory", "x" * 1000)], 40)
    assert packed[0].content.endswith("…") and summary["truncated_items"] == 1
    assert estimate_tokens(rendered) <= 40 and rendered.startswith("## Working Memory\n- xxx")


def test_cursor_round_trip_is_bound_to_scope():
    token = encode(b"s", "ws", "sid", 9)
    assert decode(b"s", token, "ws", "sid") == 9
    assert "=" not in token
