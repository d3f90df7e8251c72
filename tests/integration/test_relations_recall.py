"""The relational recall arm over real HTTP and Postgres: it finds the memories that are
evidence of a typed relation of the entity a query names, fuses them into recall, shapes ``relation_paths`` as
the reference, and, unlike the reference, honours every recall filter and the workspace walls."""

from __future__ import annotations

import httpx
import psycopg
import pytest

from shared.api import schemas
from tests.helpers.http import recall, remember

FILLER = [
    "The checkout service times out under load on Fridays",
    "Checkout latency dashboards were updated for the checkout team",
    "We discussed checkout retries and checkout timeouts at length",
    "A checkout incident review is scheduled next week",
]


def seed(http: httpx.Client, ws: str, **fields) -> dict:
    for text in FILLER:
        remember(http, ws, text)
    profile = {
        "subject": {"name": "PR-12", "type": "work_item"},
        "reviewers": ["Bob Stone"],
        "author": "Ann Lee",
    }
    return remember(http, ws, "Fix the flaky login redirect", metadata={"knowledge_work": profile}, **fields)


def test_a_relation_question_finds_the_evidence_memory_first(http, ws):
    pr = seed(http, ws)
    without = recall(http, ws, "Who reviewed PR-12?", include_relations=False)
    assert without["relation_paths"] == []
    assert all("relational" not in m["match_signals"] for m in without["memories"])
    result = recall(http, ws, "Who reviewed PR-12?")
    top = result["memories"][0]
    assert top["id"] == pr["id"] and "relational" in top["match_signals"]
    assert result["retrieval_confidence"] in ("strong", "moderate")
    [path] = result["relation_paths"]
    assert set(path) == {"seed_entity_id", "entity_ids", "relations", "evidence_ids", "evidence_memory_ids"}
    assert path["evidence_memory_ids"] == [pr["id"]] and len(path["evidence_ids"]) == 1
    [relation] = path["relations"]
    assert (
        relation["relationship"] == "reviewed" and relation["direction"] == "outgoing" and relation["active"]
    )
    assert path["seed_entity_id"] == relation["target_entity_id"]  # the PR; Bob is the other end
    assert path["entity_ids"] == [relation["target_entity_id"], relation["source_entity_id"]]
    assert set(relation) == {"id", "workspace_id", "source_entity_id", "target_entity_id", "relationship",
                             "direction", "confidence", "active", "created_at", "updated_at"}  # fmt: skip
    assert "relation_write_result" not in result  # null always in the reference too; recall leaves nulls out
    schemas.RecallResponse.model_validate(result)  # relation_paths as declared


def test_the_arm_walks_from_a_person_and_by_alias(http, ws):
    pr = seed(http, ws)
    result = recall(http, ws, "what did bob stone review")
    assert result["memories"][0]["id"] == pr["id"]
    # Only the asked type: nobody approved anything, directly or one hop away.
    assert recall(http, ws, "what did Ann Lee approve")["relation_paths"] == []


def test_two_hops_when_the_seed_has_no_edge_of_the_asked_type(http, ws):
    for text in FILLER:
        remember(http, ws, text)
    ticket = remember(http, ws, "Checkout times out for EU users",
                      metadata={"knowledge_work": {"subject": {"name": "PLAT-12", "type": "work_item"},
                                                   "assignee": "Cy Ng"}})  # fmt: skip
    pr = remember(http, ws, "Raise the checkout timeout to 30s",
                  metadata={"knowledge_work": {"subject": {"name": "PR-88", "type": "work_item"},
                                               "references": {"name": "PLAT-12", "type": "work_item"},
                                               "reviewers": ["Bob Stone"]}})  # fmt: skip
    result = recall(http, ws, "Who reviewed the PR that fixed PLAT-12?")
    assert result["memories"][0]["id"] == pr["id"]
    assert ticket["id"] not in [p for path in result["relation_paths"] for p in path["evidence_memory_ids"]]
    [path] = result["relation_paths"]
    assert [r["relationship"] for r in path["relations"]] == ["references", "reviewed"]
    assert len(path["entity_ids"]) == 3 and path["evidence_memory_ids"] == [pr["id"]]


def test_a_query_without_relation_intent_is_untouched(http, ws):
    seed(http, ws)
    result = recall(http, ws, "checkout timeouts")
    assert result["relation_paths"] == []
    assert all("relational" not in m["match_signals"] for m in result["memories"])


@pytest.mark.parametrize(
    "filters",
    [
        {"tags": ["zzz"]},
        {"types": ["procedural"]},
        {"user_id": "someone_else"},
        {"created_before": "2000-01-01T00:00:00Z"},
        {"event_after": "2999-01-01T00:00:00Z"},
        {"exclude_ids": "PR"},
        {"min_relevance": 0.99},
    ],
)
def test_relational_hits_honour_every_recall_filter(http, ws, filters):
    pr = seed(http, ws, type="semantic", user_id="alice", tags=["auth"])
    if filters.get("exclude_ids") == "PR":
        filters = {"exclude_ids": [pr["id"]]}
    assert (
        recall(http, ws, "Who reviewed PR-12?")["memories"][0]["id"] == pr["id"]
    )  # found without the filter
    result = recall(http, ws, "Who reviewed PR-12?", **filters)
    assert pr["id"] not in [m["id"] for m in result["memories"]]
    assert result["relation_paths"] == []


def test_matching_filters_keep_the_relational_hit(http, ws):
    pr = seed(http, ws, type="semantic", user_id="alice", tags=["auth"])
    result = recall(http, ws, "Who reviewed PR-12?", tags=["auth"], types=["semantic"], user_id="alice")
    assert result["memories"][0]["id"] == pr["id"]


def test_superseded_and_deleted_evidence_is_not_recalled(http, ws, database_url):
    pr = seed(http, ws)
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE memories SET valid_to = now() WHERE id = %s", (pr["id"],))
    assert recall(http, ws, "Who reviewed PR-12?")["relation_paths"] == []
    # History asked for: the superseded memory is a candidate again, but its evidence was retired with it.
    assert recall(http, ws, "Who reviewed PR-12?", include_history=True)["relation_paths"] == []
    again = seed(http, ws)
    assert http.delete(f"/v1/memories/{again['id']}", headers={"X-Workspace-ID": ws}).status_code == 204
    result = recall(http, ws, "Who reviewed PR-12?")
    assert result["relation_paths"] == [] and again["id"] not in [m["id"] for m in result["memories"]]


def test_the_arm_never_crosses_a_workspace_wall(http, ws, other_ws):
    theirs = seed(http, other_ws)
    seed_mine = remember(
        http, ws, "PR-12 is a code review of ours", metadata={"knowledge_work": {"subject": "PR-12"}}
    )
    result = recall(http, ws, "Who reviewed PR-12?")
    assert theirs["id"] not in [m["id"] for m in result["memories"]]
    assert result["relation_paths"] == []
    assert seed_mine["relation_write_result"] is None


def test_browse_and_limit_still_work_with_the_arm(http, ws):
    seed(http, ws)
    assert len(recall(http, ws, "*", limit=3)["memories"]) == 3
    assert len(recall(http, ws, "Who reviewed PR-12?", limit=1)["memories"]) == 1


# ------------------------------------------------------------------ context packs (item 5)
def test_a_context_pack_resolves_named_entities_to_their_evidence(http, ws, other_ws):
    from tests.helpers.http import create

    pr = seed(http, ws)
    seed(http, other_ws)
    sid = create(http, ws)["id"]
    for body in (
        {"entity_names": ["bob stone"]},
        {"entity_names": ["PR-12"], "include_recent_activity": False},
    ):
        r = http.post(f"/v1/sessions/{sid}/context-pack", json=body, headers={"X-Workspace-ID": ws})
        assert r.status_code == 200, r.text
        matches = [i for i in r.json()["items"] if i["kind"] == "entity_matches"]
        assert [i["id"] for i in matches] == [pr["id"]], body
        assert "entity_resolution_unavailable" not in r.json()["degradation_notices"]
    unknown = http.post(f"/v1/sessions/{sid}/context-pack", json={"entity_names": ["Nobody"]},
                        headers={"X-Workspace-ID": ws}).json()  # fmt: skip
    assert [i for i in unknown["items"] if i["kind"] == "entity_matches"] == []
