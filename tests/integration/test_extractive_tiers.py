"""Extractive tiers end to end: written with their spans on every write, sent at the asked detail level by recall,
briefings and context packs, stepped down (not dropped) under a token budget, switched off by the setting, and
filled in for older memories by the cleanup's resumable backfill."""

from __future__ import annotations

import psycopg
import pytest

from shared.domain.memories.tier_backfill import backfill_tiers
from shared.domain.retrieval.budget import estimate_tokens
from tests.helpers.http import h

REPORT = (
    "# Harbour report\n\n"
    "The harbour crane failed twice this week during the grain unloading. "
    "Engineers traced the crane fault to a worn hydraulic seal on the main boom. "
    "Weather was calm and visibility stayed good on every shift. "
    "A replacement seal for the crane arrives on Thursday from the Rotterdam depot. "
    "Until then the crane runs at half load, and grain ships are moved to berth four. "
    "The canteen menu changed to include soup on Mondays. "
    "Staff parking near the north gate is closed for resurfacing. "
    "The quarterly safety drill is planned for the last Friday of the month. "
    "Crane operators must log every hydraulic warning in the shift book."
)


def remember(http, ws: str, content: str, **extra) -> dict:
    r = http.post("/v1/memories", json={"content": content, **extra}, headers=h(ws))
    assert r.status_code == 201, r.text
    return r.json()["memory"]


def stored(database_url: str, memory_id: str) -> tuple[str, str | None, str | None, dict | None]:
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT content, abstract, overview, tier_source_spans FROM memories WHERE id = %s", (memory_id,)
        ).fetchone()
    assert row is not None
    return row


def recall(http, ws: str, **body) -> dict:
    r = http.post("/v1/memories/recall", json={"query": "crane", "limit": 10, **body}, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()


def test_a_write_stores_both_tiers_with_spans_into_the_content(http, ws, database_url):
    memory = remember(http, ws, REPORT)
    content, abstract, overview, spans = stored(database_url, memory["id"])
    assert abstract and overview and spans
    assert len(abstract) <= 200 and len(overview) <= 500 and len(abstract) < len(overview) < len(content)
    for tier, text in (("abstract", abstract), ("overview", overview)):
        found = spans[tier]["spans"]
        assert spans[tier]["method"] == "extractive"
        # Whole source sentences, in source order, joined: the spans are the provenance of every character.
        assert found == sorted(found)
        assert " ".join(content[s:e] for s, e in found) == text
        assert all(content[s:e].endswith((".", "report")) for s, e in found)
    # The heading and the opening sentence are chosen; an unrelated aside is not.
    assert abstract.startswith("# Harbour report The harbour crane failed twice")
    assert "canteen" not in overview
    # Sent by the write and by a read.
    assert (memory["abstract"], memory["overview"]) == (abstract, overview)
    got = http.get(f"/v1/memories/{memory['id']}", headers=h(ws)).json()
    assert (got["memory"]["abstract"], got["memory"]["overview"]) == (abstract, overview)


def test_a_short_memory_is_its_own_tier(http, ws, database_url):
    memory = remember(http, ws, "Alice prefers green tea")
    _content, abstract, overview, spans = stored(database_url, memory["id"])
    assert abstract == overview == "Alice prefers green tea"
    assert spans["abstract"] == {"method": "source_reuse", "spans": [[0, 23]]}


def test_new_content_gets_new_tiers(http, ws, database_url):
    memory = remember(http, ws, REPORT)
    replacement = "Short note: the crane is fixed. " + "The berth schedule is back to normal today. " * 8
    r = http.put(f"/v1/memories/{memory['id']}", json={"content": replacement}, headers=h(ws))
    assert r.status_code == 200, r.text
    content, abstract, overview, spans = stored(database_url, memory["id"])
    assert content == replacement.strip()
    assert abstract is not None and abstract.startswith("Short note: the crane is fixed.")
    assert " ".join(content[s:e] for s, e in spans["overview"]["spans"]) == overview
    assert "harbour" not in (overview or "").lower()


@pytest.mark.parametrize("level", ["abstract", "overview", "full"])
def test_recall_sends_the_asked_tier(http, ws, database_url, level):
    memory = remember(http, ws, REPORT)
    content, abstract, overview, _ = stored(database_url, memory["id"])
    body = recall(http, ws, detail_level=level)
    [found] = [m for m in body["memories"] if m["id"] == memory["id"]]
    assert found["content"] == {"abstract": abstract, "overview": overview, "full": content}[level]
    assert (found["abstract"], found["overview"]) == (abstract, overview)
    assert "truncated" not in found
    assert body["budget_summary"]["used"] == estimate_tokens(found["content"])


def test_the_budget_steps_each_memory_down_before_leaving_it_out(http, ws, database_url):
    log = " ".join(f"Berth {k} logs were reviewed by the night shift." for k in range(20))
    ids = [remember(http, ws, REPORT.replace("week", f"week {n}") + "\n\n" + log)["id"] for n in range(3)]
    tiers = {i: stored(database_url, i) for i in ids}
    order = [m["id"] for m in recall(http, ws)["memories"]]
    first, second, third = (tiers[i] for i in order)
    # Room for the first one's overview and the others' abstracts: not for any content, nor two overviews.
    budget = estimate_tokens(first[2]) + estimate_tokens(second[1]) + estimate_tokens(third[1]) + 5
    assert budget < estimate_tokens(first[0])
    assert estimate_tokens(first[2]) + estimate_tokens(second[2]) > budget
    body = recall(http, ws, budget_tokens=budget)
    summary = body["budget_summary"]
    assert summary["requested"] == budget and summary["used"] <= budget
    assert summary["omitted_items"] == 0 and summary["truncated_items"] == 0
    assert summary["estimator"] == "chars_div_3_conservative_v1"
    # Each steps down to the largest form that still fits, in rank order; none is dropped.
    assert [m["content"] for m in body["memories"]] == [first[2], second[1], third[1]]
    assert summary["used"] == sum(estimate_tokens(m["content"]) for m in body["memories"])

    # Too little for any abstract: the first is cut short and marked, what is left out is counted.
    tight = recall(http, ws, budget_tokens=30)
    assert tight["budget_summary"]["truncated_items"] == 1
    assert tight["budget_summary"]["omitted_items"] == 2
    [cut] = tight["memories"]
    assert cut["truncated"] is True and cut["content"].endswith("…") and len(cut["content"]) <= 90


def test_a_briefing_and_a_context_pack_take_the_detail_level(http, ws, database_url):
    memory = remember(http, ws, REPORT, subtype="directive")
    content, abstract, overview, _ = stored(database_url, memory["id"])

    def briefed(**params) -> str:
        r = http.get("/v1/sessions/briefing", params=params, headers=h(ws))
        assert r.status_code == 200, r.text
        [m] = [m for m in r.json()["briefing"]["memories"] if m["id"] == memory["id"]]
        return m["content"]

    assert briefed() == abstract  # the briefing's default, as the reference's
    assert briefed(detail_level="overview") == overview
    assert briefed(detail_level="full") == content

    sid = http.post("/v1/sessions", json={"ttl_seconds": 600}, headers=h(ws)).json()["session"]["id"]

    def packed(**body) -> tuple[str, dict]:
        r = http.post(f"/v1/sessions/{sid}/context-pack", json=body, headers=h(ws))
        assert r.status_code == 200, r.text
        [item] = [i for i in r.json()["items"] if i["id"] == memory["id"]]
        return item["content"], r.json()["budget_summary"]

    assert packed()[0] == content
    assert packed(detail_level="abstract")[0] == abstract
    # A budget with room for the overview, not the content: the memory steps down instead of being cut.
    text, summary = packed(budget_tokens=estimate_tokens(overview) + 40, include_working_memory=False)
    assert text == overview and summary["omitted_items"] == 0


def test_with_tiers_off_none_are_written_and_content_is_sent_whole(
    http, ws, database_url, settings, monkeypatch
):
    monkeypatch.setattr(settings, "extractive_tiers_enabled", False)
    memory = remember(http, ws, REPORT)
    assert stored(database_url, memory["id"])[1:] == (None, None, None)
    assert memory["abstract"] is None and memory["overview"] is None
    body = recall(http, ws, detail_level="abstract")
    [found] = [m for m in body["memories"] if m["id"] == memory["id"]]
    assert found["content"] == REPORT and found.get("abstract") is None


def test_the_backfill_fills_older_memories_in_bounded_resumable_steps(
    http, ws, database_url, settings, services, monkeypatch
):
    with monkeypatch.context() as off:
        off.setattr(settings, "extractive_tiers_enabled", False)
        ids = [remember(http, ws, REPORT.replace("week", f"week {n}"))["id"] for n in range(5)]
    assert all(stored(database_url, i)[3] is None for i in ids)

    first = backfill_tiers(services.db, batch=2, max_batches=1)
    assert first == {
        "tiers_written": 2,
        "tiers_pending": True,
    }  # bounded: one batch, and it says more is left
    done_first = [i for i in ids if stored(database_url, i)[3] is not None]
    kept = {i: stored(database_url, i) for i in done_first}
    calls = 1
    while backfill_tiers(services.db, batch=2, max_batches=1)["tiers_pending"]:
        calls += 1
        assert calls < 100, "the backfill does not converge"
    # Every memory of ours got tiers, each with spans into its content; what a call wrote is not written again.
    for memory_id in ids:
        content, abstract, overview, spans = stored(database_url, memory_id)
        assert spans is not None and abstract is not None and overview is not None
        assert " ".join(content[s:e] for s, e in spans["abstract"]["spans"]) == abstract
    assert {i: stored(database_url, i) for i in done_first} == kept
    with psycopg.connect(database_url) as conn:
        revisions = conn.execute("SELECT max(revision) FROM memories WHERE id = ANY(%s)", (ids,)).fetchone()
    assert revisions == (1,)  # derived data: no new revision
    assert backfill_tiers(services.db) == {"tiers_written": 0, "tiers_pending": False}


def test_a_recall_without_a_budget_takes_the_servers_default(http, ws, settings, monkeypatch):
    remember(http, ws, REPORT)
    monkeypatch.setattr(settings, "recall_token_budget_default", 60)
    summary = recall(http, ws)["budget_summary"]
    assert summary["requested"] == 60 and summary["used"] <= 60
    assert recall(http, ws, budget_tokens=500)["budget_summary"]["requested"] == 500  # the request's wins
