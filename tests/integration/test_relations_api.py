"""Typed entity relations over real HTTP and real Postgres: writes with ``relations``, the
``knowledge_work`` profile and connector envelopes, the email adapter, ``/v1/entities``, evidence that follows
its memory, and the walls."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import psycopg
import pytest

from tests.embed.stubs import StubServer
from tests.helpers.http import remember


@pytest.fixture()
def openai_stub() -> Iterator[StubServer]:
    from tests.integration.test_llm_paths import openai_chat_wire

    stub = StubServer(openai_chat_wire)
    stub.replies = []
    stub.start()
    yield stub
    stub.stop()


def ticket(http: httpx.Client, ws: str, content: str = "Login fails after the SSO change", **profile) -> dict:
    kw = {"subject": {"name": "PLAT-77", "type": "work_item"}, **profile}
    return remember(http, ws, content, metadata={"knowledge_work": kw})


def relations_of(database_url: str, memory_id: str) -> list[tuple]:
    """(relationship, source name, target name, relation active, evidence active) of a memory's evidence."""
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT r.relationship, s.canonical_name, t.canonical_name, r.active, v.active "
            "FROM entity_relation_evidence v JOIN entity_relations r ON r.id = v.relation_id "
            "JOIN entities s ON s.id = r.source_entity_id JOIN entities t ON t.id = r.target_entity_id "
            "WHERE v.source_memory_id = %s ORDER BY 1, 2, 3, 5",
            (memory_id,),
        ).fetchall()


def counts(database_url: str, ws: str) -> tuple[int, int, int]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT (SELECT count(*) FROM entities WHERE workspace_id = %(ws)s), "
            "(SELECT count(*) FROM entity_relations WHERE workspace_id = %(ws)s), "
            "(SELECT count(*) FROM entity_relation_evidence WHERE workspace_id = %(ws)s)",
            {"ws": ws},
        ).fetchone()


# ------------------------------------------------------------------ writes
def test_a_profile_creates_entities_and_reports_the_write_as_the_reference(http, ws, database_url):
    memory = ticket(http, ws, reviewers=["Bob Stone", ""], assignee="Ann Lee", project="Platform")
    result = memory["relation_write_result"]
    assert set(result) == {"resolved", "unresolved", "rejected", "duplicate", "relation_ids", "errors"}
    assert (result["resolved"], result["rejected"], result["unresolved"], result["duplicate"]) == (3, 1, 0, 0)
    assert result["errors"] == ["knowledge_work.reviewers[1]: entity name must not be empty"]
    assert len(result["relation_ids"]) == 3 and all(i.startswith("erel_") for i in result["relation_ids"])
    assert relations_of(database_url, memory["id"]) == [
        ("part_of", "PLAT-77", "Platform", True, True),
        ("responsible_for", "Ann Lee", "PLAT-77", True, True),
        ("reviewed", "Bob Stone", "PLAT-77", True, True),
    ]


def test_a_plain_memory_has_a_null_write_result_and_no_rows(http, ws, database_url):
    memory = remember(http, ws, "likes tea", metadata={"user": "Carol", "team": "Infra"})
    assert memory["relation_write_result"] is None
    assert counts(database_url, ws) == (0, 0, 0)


def test_undeclared_top_level_fields_next_to_a_profile_are_never_interpreted(http, ws, database_url):
    """The reference read ``user``/``team``/``tags`` as author/organization/about here; we do not."""
    memory = remember(
        http,
        ws,
        "Capacity review notes",
        metadata={"knowledge_work": {"subject": "Capacity plan"}, "user": "Carol", "team": "Infra Team"},
    )
    assert memory["relation_write_result"] is None
    assert "knowledge_work_normalization" not in memory["metadata"]
    assert memory["metadata"]["user"] == "Carol"
    assert counts(database_url, ws)[1] == 0


def test_explicit_relations_resolve_by_name_or_alias_and_canonicalise_reverse_forms(http, ws, database_url):
    ticket(http, ws, assignee={"name": "Ann Lee", "aliases": ["ann@example.com"]})
    content = "PLAT-77 was reviewed by Ann"
    memory = remember(
        http,
        ws,
        content,
        relations=[
            {
                "source_entity_name": "plat-77",
                "target_entity_name": "ANN@example.com",
                "relationship": "Reviewed By",
                "source_span_start": 0,
                "source_span_end": len(content),
            },
            {"source_entity_name": "Nobody", "target_entity_name": "PLAT-77", "relationship": "owns"},
            {"source_entity_name": "Ann Lee", "target_entity_name": "PLAT-77", "relationship": "frobnicates"},
            {"source_entity_name": "Ann Lee", "target_entity_name": "Ann Lee", "relationship": "owns"},
            {
                "source_entity_name": "Ann Lee",
                "target_entity_name": "PLAT-77",
                "relationship": "owns",
                "source_span_start": 5,
                "source_span_end": 999,
            },
        ],  # fmt: skip
    )
    result = memory["relation_write_result"]
    assert (result["resolved"], result["unresolved"], result["rejected"]) == (1, 1, 3)
    assert result["errors"] == [
        "unresolved endpoints for owns",
        "unregistered relationship type: frobnicates",
        "self-relations are not allowed",
        "invalid source span for owns",
    ]
    # reviewed_by(PLAT-77, Ann) is stored as reviewed(Ann, PLAT-77): the same edge as a profile's reviewer.
    assert relations_of(database_url, memory["id"]) == [("reviewed", "Ann Lee", "PLAT-77", True, True)]


def test_the_same_relation_twice_is_a_duplicate_not_a_second_row(http, ws, database_url):
    ticket(http, ws, assignee="Ann Lee")
    rel = {"source_entity_name": "Ann Lee", "target_entity_name": "PLAT-77", "relationship": "owns"}
    first = remember(http, ws, "Ann owns PLAT-77 now", relations=[rel])
    assert first["relation_write_result"]["resolved"] == 1
    again = remember(http, ws, "Ann owns PLAT-77 now", relations=[rel])  # exact duplicate: merges
    assert again["id"] == first["id"]
    assert again["relation_write_result"]["duplicate"] == 1
    assert again["relation_write_result"]["relation_ids"] == first["relation_write_result"]["relation_ids"]
    assert counts(database_url, ws) == (2, 2, 2)  # Ann, PLAT-77; responsible_for, owns; one evidence each


def test_an_exact_duplicate_merges_new_relations_into_the_existing_memory(http, ws, database_url):
    ticket(http, ws, assignee="Ann Lee", reviewers=["Bob Stone"])
    plain = remember(http, ws, "Status meeting")
    again = remember(
        http,
        ws,
        "Status meeting",
        relations=[
            {"source_entity_name": "Bob Stone", "target_entity_name": "PLAT-77", "relationship": "approved"}
        ],
    )
    assert again["id"] == plain["id"]
    assert again["relation_write_result"]["resolved"] == 1
    assert relations_of(database_url, plain["id"]) == [("approved", "Bob Stone", "PLAT-77", True, True)]


def test_text_patterns_link_known_entities_only(http, ws, database_url):
    remember(http, ws, "org chart", metadata={"knowledge_work": {"subject": {"name": "Platform Group", "type": "org"},
                                                                  "owner": "Alice Chen"}})  # fmt: skip
    hit = remember(http, ws, "Alice Chen works at Platform Group since May")
    miss = remember(http, ws, "Zed Unknown works at Nowhere Inc")
    assert relations_of(database_url, hit["id"]) == [
        ("employed_by", "Alice Chen", "Platform Group", True, True)
    ]
    assert hit["relation_write_result"]["resolved"] == 1
    assert miss["relation_write_result"] is None


# ------------------------------------------------------------------ connectors, batch, email
def test_a_jira_envelope_maps_the_allow_listed_fields(http, ws, database_url):
    record = {
        "key": "PLAT-77",
        "fields": {
            "summary": "Login fails after SSO change",
            "assignee": {"displayName": "Ann Lee", "accountId": "acc-1", "emailAddress": "ann@example.com"},
            "reporter": {"displayName": "Bob Stone"},
            "project": {"name": "Platform"},
            "labels": ["sso"],
            "status": "In Progress",
            "priority": {"name": "High"},
        },
    }
    memory = remember(http, ws, "Login fails after SSO change", metadata={"connector_type": "jira",
                                                                          "connector_record": record})  # fmt: skip
    kw = memory["metadata"]["knowledge_work"]
    assert kw["subject"] == {"name": "Login fails after SSO change", "type": "artifact", "aliases": ["PLAT-77"],
                             "external_ids": {"jira": "PLAT-77"}}  # fmt: skip
    assert kw["assignee"]["external_ids"] == {"jira": "acc-1"} and kw["status"] == "In Progress"
    assert "priority" not in kw  # not on the allow-list
    assert memory["metadata"]["knowledge_work_normalization"]["connector_type"] == "jira"
    assert memory["relation_write_result"]["resolved"] == 4
    r = http.get("/v1/entities/resolve", params={"name": "ann@example.com"}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200 and r.json()["resolution"]["matched_via"] == "alias"


def test_github_user_types_do_not_split_a_person(http, ws, database_url):
    meta = {"connector_type": "github", "github_title": "Fix login", "github_number": 42, "github_repo": "acme/app",
            "github_author": {"login": "ann", "name": "Ann Lee", "type": "User"}}  # fmt: skip
    memory = remember(http, ws, "Fix login (PR)", metadata=meta)
    assert memory["metadata"]["knowledge_work"]["author"]["type"] == "person"
    assert memory["metadata"]["knowledge_work"]["subject"]["aliases"] == ["acme/app#42"]


def test_batch_creates_write_their_profiles(http, ws, database_url):
    r = http.post(
        "/v1/memories/batch",
        json={
            "operations": [
                {
                    "op": "create",
                    "content": "PR 1",
                    "metadata": {"knowledge_work": {"subject": "PR 1", "reviewers": ["Bob"]}},
                },
                {
                    "op": "create",
                    "content": "PR 2",
                    "metadata": {
                        "connector_type": "github",
                        "github_title": "PR 2",
                        "github_reviewers": ["Bob"],
                    },
                },
                {"op": "create", "content": "plain"},
            ]
        },  # fmt: skip
        headers={"X-Workspace-ID": ws},
    )
    assert r.status_code == 200 and r.json()["successful"] == 3
    ids = [x["memory_id"] for x in r.json()["results"]]
    assert relations_of(database_url, ids[0]) == [("reviewed", "Bob", "PR 1", True, True)]
    assert relations_of(database_url, ids[1]) == [("reviewed", "Bob", "PR 2", True, True)]
    assert relations_of(database_url, ids[2]) == []


def test_email_ingest_writes_sent_to_once_per_recipient(http, ws, database_url):
    r = http.post(
        "/v1/ingest/email",
        json={
            "sender": "Ann Lee",
            "to": ["Bob Stone", "Cy Ng", "Ann Lee"],
            "subject": "Q3 plan",
            "body": "We ship in July.",
            "timestamp": "2026-05-01T10:00:00Z",
            "message_id": "m-1",
        },  # fmt: skip
        headers={"X-Workspace-ID": ws},
    )
    assert r.status_code == 201, r.text
    memory = r.json()["memory"]
    assert set(r.json()) == {"memory"}
    assert memory["content"] == "[2026-05-01] Q3 plan: We ship in July."
    assert memory["type"] == "semantic"
    result = memory["relation_write_result"]
    # The reference: resolved=3, duplicate=2 (each sent_to written twice). Here: authored + two sent_to, once.
    assert (result["resolved"], result["duplicate"]) == (3, 0)
    assert relations_of(database_url, memory["id"]) == [
        ("authored", "Ann Lee", "Q3 plan", True, True),
        ("sent_to", "Ann Lee", "Bob Stone", True, True),
        ("sent_to", "Ann Lee", "Cy Ng", True, True),
    ]


def test_email_spans_point_into_the_body(http, ws, database_url):
    ticket(http, ws, assignee="Ann Lee")
    r = http.post(
        "/v1/ingest/email",
        json={
            "sender": "Ann Lee",
            "to": ["Bob"],
            "subject": "Fix",
            "body": "I own PLAT-77 now.",
            "relations": [
                {
                    "source_entity_name": "Ann Lee",
                    "target_entity_name": "PLAT-77",
                    "relationship": "owns",
                    "source_span_start": 2,
                    "source_span_end": 17,
                }
            ],
        },  # fmt: skip
        headers={"X-Workspace-ID": ws},
    )
    assert r.status_code == 201, r.text
    with psycopg.connect(database_url) as conn:
        start, end = conn.execute(
            "SELECT v.source_span_start, v.source_span_end FROM entity_relation_evidence v "
            "JOIN entity_relations r ON r.id = v.relation_id WHERE r.relationship = 'owns' AND v.source_memory_id = %s",
            (r.json()["memory"]["id"],),
        ).fetchone()
    assert r.json()["memory"]["content"][start:end] == "own PLAT-77 now"


@pytest.mark.parametrize(
    "body",
    [
        {"sender": "", "body": "x"},
        {"sender": "Ann", "body": ""},
        {"sender": "Ann", "body": "x", "to": "Bob"},
        {"sender": "Ann", "body": "x", "importance": 2},
    ],
)
def test_bad_email_is_a_422(http, ws, database_url, body):
    r = http.post("/v1/ingest/email", json=body, headers={"X-Workspace-ID": ws})
    assert r.status_code == 422
    assert counts(database_url, ws) == (0, 0, 0)


def test_blank_email_fields_are_a_400_and_store_nothing(http, ws):
    r = http.post("/v1/ingest/email", json={"sender": "  ", "body": "x"}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_email"
    assert http.get("/v1/memories", headers={"X-Workspace-ID": ws}).json()["total_count"] == 0


@pytest.mark.parametrize(
    "relation",
    [
        {"target_entity_name": "B", "relationship": "owns"},
        {"source_entity_name": "A", "relationship": "owns"},
        {"source_entity_name": "A", "target_entity_name": "B", "relationship": ""},
        {"source_entity_name": "A", "target_entity_name": "B", "relationship": "x" * 129},
        {"source_entity_name": "A", "target_entity_name": "B", "relationship": "owns", "confidence": 1.5},
        {
            "source_entity_name": "A",
            "target_entity_name": "B",
            "relationship": "owns",
            "source_span_start": -1,
        },
        {"source_entity_name": "A", "target_entity_name": "B", "relationship": "owns", "source_span_end": 3},
        {
            "source_entity_name": "A",
            "target_entity_name": "B",
            "relationship": "owns",
            "source_span_start": 4,
            "source_span_end": 3,
        },
        {
            "source_entity_name": "A",
            "target_entity_name": "B",
            "relationship": "owns",
            "evidence_kind": "magic",
        },
        {
            "source_entity_name": "A",
            "target_entity_name": "B",
            "relationship": "owns",
            "source_entity_type": "9x",
        },
    ],
)
def test_bad_relations_are_a_422_and_store_nothing(http, ws, relation):
    r = http.post(
        "/v1/memories", json={"content": "A owns B", "relations": [relation]}, headers={"X-Workspace-ID": ws}
    )
    assert r.status_code == 422, r.text
    assert http.get("/v1/memories", headers={"X-Workspace-ID": ws}).json()["total_count"] == 0


def test_too_many_relations_is_a_422(http, ws):
    rel = {"source_entity_name": "A", "target_entity_name": "B", "relationship": "owns"}
    r = http.post(
        "/v1/memories", json={"content": "x", "relations": [rel] * 101}, headers={"X-Workspace-ID": ws}
    )
    assert r.status_code == 422


# ------------------------------------------------------------------ evidence follows the memory
def evidence_rows(database_url: str, memory_id: str) -> list[tuple]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT id, relation_id, active FROM entity_relation_evidence WHERE source_memory_id = %s ORDER BY id",
            (memory_id,),
        ).fetchall()


def relation_active(database_url: str, relation_id: str) -> bool:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT active FROM entity_relations WHERE id = %s", (relation_id,)).fetchone()[0]


def test_soft_delete_retires_the_evidence_and_a_relation_without_evidence(http, ws, database_url):
    h = {"X-Workspace-ID": ws}
    one = ticket(http, ws, "first mention", reviewers=["Bob"])
    two = ticket(http, ws, "second mention", reviewers=["Bob"])
    [relation_id] = one["relation_write_result"]["relation_ids"]
    assert two["relation_write_result"]["relation_ids"] == [relation_id]
    assert http.delete(f"/v1/memories/{one['id']}", headers=h).status_code == 204
    assert [row[2] for row in evidence_rows(database_url, one["id"])] == [False]
    assert relation_active(database_url, relation_id)  # the second memory still says so
    assert http.delete(f"/v1/memories/{two['id']}", headers=h).status_code == 204
    assert not relation_active(database_url, relation_id)


def test_hard_delete_removes_the_evidence_and_deactivates_the_relation(http, ws, database_url):
    one = ticket(http, ws, reviewers=["Bob"])
    [relation_id] = one["relation_write_result"]["relation_ids"]
    r = http.delete(f"/v1/memories/{one['id']}", params={"hard": "true"}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 204
    assert evidence_rows(database_url, one["id"]) == []
    assert not relation_active(database_url, relation_id)


def test_supersession_retires_and_restore_reactivates_the_same_rows(http, ws, database_url):
    """Any path that supersedes (the extraction writer) or restores a memory: the trigger of migration 0016."""
    one = ticket(http, ws, reviewers=["Bob"])
    [relation_id] = one["relation_write_result"]["relation_ids"]
    before = evidence_rows(database_url, one["id"])
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE memories SET valid_to = now() WHERE id = %s", (one["id"],))
    assert [r[2] for r in evidence_rows(database_url, one["id"])] == [False]
    assert not relation_active(database_url, relation_id)
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE memories SET valid_to = NULL, deleted_at = NULL WHERE id = %s", (one["id"],))
    assert evidence_rows(database_url, one["id"]) == [(before[0][0], relation_id, True)]
    assert relation_active(database_url, relation_id)
    assert counts(database_url, ws) == (2, 1, 1)


def test_a_put_that_changes_content_derives_the_relations_again(http, ws, database_url):
    h = {"X-Workspace-ID": ws}
    remember(http, ws, "org", metadata={"knowledge_work": {"subject": {"name": "Platform Group", "type": "org"},
                                                            "owner": "Alice Chen"}})  # fmt: skip
    memory = ticket(http, ws, "first draft", reviewers=["Bob"])
    [relation_id] = memory["relation_write_result"]["relation_ids"]
    r = http.put(
        f"/v1/memories/{memory['id']}", json={"content": "Alice Chen works at Platform Group"}, headers=h
    )
    assert r.status_code == 200, r.text
    # The reference dropped the memory's relations here; the profile and the new text's relation are live.
    assert relations_of(database_url, memory["id"]) == [
        ("employed_by", "Alice Chen", "Platform Group", True, True),
        ("reviewed", "Bob", "PLAT-77", True, False),
        ("reviewed", "Bob", "PLAT-77", True, True),
    ]
    assert relation_active(database_url, relation_id)


def test_a_put_that_changes_the_profile_replaces_its_relations(http, ws, database_url):
    memory = ticket(http, ws, reviewers=["Bob"])
    r = http.put(
        f"/v1/memories/{memory['id']}",
        json={
            "metadata": {
                "knowledge_work": {"subject": {"name": "PLAT-77", "type": "work_item"}, "reviewers": ["Cy"]}
            }
        },
        headers={"X-Workspace-ID": ws},
    )
    assert r.status_code == 200, r.text
    assert relations_of(database_url, memory["id"]) == [
        ("reviewed", "Bob", "PLAT-77", False, False),
        ("reviewed", "Cy", "PLAT-77", True, True),
    ]


def test_a_put_of_other_fields_keeps_the_evidence(http, ws, database_url):
    memory = ticket(http, ws, reviewers=["Bob"])
    r = http.put(
        f"/v1/memories/{memory['id']}",
        json={"tags": ["x"], "importance": 0.9},
        headers={"X-Workspace-ID": ws},
    )
    assert r.status_code == 200
    assert relations_of(database_url, memory["id"]) == [("reviewed", "Bob", "PLAT-77", True, True)]


def test_re_remembering_a_deleted_memory_reuses_the_relation(http, ws, database_url):
    one = ticket(http, ws, reviewers=["Bob"])
    assert http.delete(f"/v1/memories/{one['id']}", headers={"X-Workspace-ID": ws}).status_code == 204
    two = ticket(http, ws, reviewers=["Bob"])
    assert two["id"] != one["id"]
    assert two["relation_write_result"]["relation_ids"] == one["relation_write_result"]["relation_ids"]
    assert counts(database_url, ws)[1] == 1


# ------------------------------------------------------------------ /v1/entities
def test_entities_list_get_aliases_and_merge(http, ws, database_url):
    h = {"X-Workspace-ID": ws}
    ticket(http, ws, reviewers=["Bob Stone"], assignee="Robert Stone")
    ticket(http, ws, "other", approvers=["Bob Stone"])
    listed = http.get("/v1/entities", headers=h).json()
    assert listed["total_count"] == 3
    by_name = {e["canonical_name"]: e for e in listed["entities"]}
    bob, robert = by_name["Bob Stone"], by_name["Robert Stone"]
    assert set(bob) >= {"id", "workspace_id", "entity_type", "canonical_name", "normalized_name", "aliases",
                        "confidence", "provenance", "representative_memory_id", "status", "merged_into",
                        "created_at", "updated_at"}  # fmt: skip
    got = http.get(f"/v1/entities/{bob['id']}", headers=h).json()
    assert got["entity"]["normalized_name"] == "bob stone"
    assert sorted(r["relationship"] for r in got["relations"]) == ["approved", "reviewed"]

    r = http.post(
        f"/v1/entities/{robert['id']}/aliases", json={"aliases": ["Rob", "robert stone"]}, headers=h
    )
    assert r.status_code == 200 and r.json()["entity"]["aliases"] == ["Rob"]
    assert http.get(f"/v1/entities/{robert['id']}/aliases", headers=h).json()["aliases"] == ["Rob"]

    merged = http.post("/v1/entities/merge", json={"source_id": bob["id"], "target_id": robert["id"],
                                                   "reason": "same person"}, headers=h)  # fmt: skip
    assert merged.status_code == 200, merged.text
    survivor = merged.json()["entity"]
    assert survivor["id"] == robert["id"] and sorted(survivor["aliases"]) == ["Bob Stone", "Rob"]
    gone = http.get(f"/v1/entities/{bob['id']}", headers=h).json()["entity"]
    assert (gone["status"], gone["merged_into"]) == ("merged", robert["id"])
    rels = http.get(f"/v1/entities/{robert['id']}", headers=h).json()["relations"]
    assert sorted(r["relationship"] for r in rels) == ["approved", "responsible_for", "reviewed"]
    assert http.get("/v1/entities", params={"status": "merged"}, headers=h).json()["total_count"] == 1
    # Idempotent, and the old name now resolves to the survivor by alias.
    again = http.post(
        "/v1/entities/merge", json={"source_id": bob["id"], "target_id": robert["id"]}, headers=h
    )
    assert again.status_code == 200 and again.json()["entity"]["id"] == robert["id"]
    res = http.get("/v1/entities/resolve", params={"name": "bob stone"}, headers=h).json()["resolution"]
    assert (res["entity"]["id"], res["matched_via"]) == (robert["id"], "alias")


def test_merging_two_ends_of_one_relation_retires_it(http, ws, database_url):
    h = {"X-Workspace-ID": ws}
    memory = ticket(http, ws, reviewers=["Bob"])
    ids = {e["canonical_name"]: e["id"] for e in http.get("/v1/entities", headers=h).json()["entities"]}
    r = http.post(
        "/v1/entities/merge", json={"source_id": ids["Bob"], "target_id": ids["PLAT-77"]}, headers=h
    )
    assert r.status_code == 200
    assert relations_of(database_url, memory["id"]) == [("reviewed", "Bob", "PLAT-77", False, False)]


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "code"),
    [
        ("get", "/v1/entities/ent_missing", {}, 404, "entity_not_found"),
        ("get", "/v1/entities/resolve", {"params": {"name": "nobody"}}, 404, "entity_not_found"),
        ("get", "/v1/entities/resolve", {"params": {"name": "!!!"}}, 400, "invalid_entity_name"),
        (
            "get",
            "/v1/entities/resolve",
            {"params": {"name": "x", "entity_type": "9"}},
            400,
            "invalid_entity_type",
        ),
        ("get", "/v1/entities", {"params": {"limit": 0}}, 422, None),
        ("get", "/v1/entities", {"params": {"status": "zombie"}}, 422, None),
        ("post", "/v1/entities/merge", {"json": {"source_id": "ent_a"}}, 422, None),
        (
            "post",
            "/v1/entities/merge",
            {"json": {"source_id": "ent_a", "target_id": "ent_b"}},
            404,
            "entity_not_found",
        ),
        ("post", "/v1/entities/ent_a/aliases", {"json": {"aliases": []}}, 422, None),
    ],
)
def test_bad_entity_requests_are_clear_4xx(http, ws, method, path, kwargs, status, code):
    r = getattr(http, method)(path, headers={"X-Workspace-ID": ws}, **kwargs)
    assert r.status_code == status, r.text
    if code:
        assert r.json()["detail"]["code"] == code


# ------------------------------------------------------------------ walls
def test_one_workspace_never_sees_another_workspaces_entities(http, ws, other_ws, database_url):
    ticket(http, other_ws, reviewers=["Secret Person"])
    theirs = http.get("/v1/entities", headers={"X-Workspace-ID": other_ws}).json()["entities"]
    secret = next(e for e in theirs if e["canonical_name"] == "Secret Person")
    mine = {"X-Workspace-ID": ws}
    assert http.get("/v1/entities", headers=mine).json() == {"entities": [], "total_count": 0}
    assert http.get(f"/v1/entities/{secret['id']}", headers=mine).status_code == 404
    assert http.get("/v1/entities/resolve", params={"name": "Secret Person"}, headers=mine).status_code == 404
    # An explicit relation naming the other workspace's entity by id or name does not reach it.
    memory = remember(
        http,
        ws,
        "probe",
        relations=[
            {"source_entity_id": secret["id"], "target_entity_name": "Secret Person", "relationship": "owns"}
        ],
    )
    assert memory["relation_write_result"]["unresolved"] == 1
    r = http.post(
        "/v1/entities/merge", json={"source_id": secret["id"], "target_id": secret["id"]}, headers=mine
    )
    assert r.status_code == 404
    assert counts(database_url, ws) == (0, 0, 0)


def test_the_row_wall_hides_other_workspaces_relation_rows(services, http, ws, other_ws):
    from shared.db import rls

    ticket(http, ws, reviewers=[{"name": "Bob", "aliases": ["bobby"]}])
    ticket(http, other_ws, reviewers=[{"name": "Bob", "aliases": ["bobby"]}])
    with rls.visible((ws,)), services.db.connection() as conn:
        for table in ("entities", "entity_aliases", "entity_relations", "entity_relation_evidence"):
            seen = conn.execute(f"SELECT DISTINCT workspace_id FROM {table}").fetchall()
            assert {r["workspace_id"] for r in seen} == {ws}, table


def test_a_name_that_is_an_alias_of_the_same_kind_is_that_entity(http, ws, database_url):
    remember(http, ws, "Login fails", metadata={"connector_type": "jira",
                                               "connector_record": {"key": "PLAT-77", "fields": {"summary": "Login fails"}},
                                               "knowledge_work": {"assignee": "Ann"}})  # fmt: skip
    pr = remember(http, ws, "Fix login", metadata={"knowledge_work": {"subject": "PR 5", "subject_type": "artifact",
                                                                      "references": "PLAT-77"}})  # fmt: skip
    assert relations_of(database_url, pr["id"]) == [("references", "PR 5", "Login fails", True, True)]
    assert counts(database_url, ws)[0] == 3  # Ann, the ticket (alias PLAT-77), PR 5


# ------------------------------------------------------------------ extraction (item 6, the writer's part)
def test_extracted_memories_carry_their_proposed_and_plain_relations(services, http, ws, database_url):
    from shared.domain.extraction.candidates import Candidate, Provenance
    from shared.domain.extraction.writer import MemoryWriter
    from shared.domain.requests import EntityRelationInput

    remember(http, ws, "org", metadata={"knowledge_work": {"subject": {"name": "Platform Group", "type": "org"},
                                                            "owner": "Alice Chen"}})  # fmt: skip
    text = "Alice Chen works at Platform Group and leads it"
    proposed = [
        EntityRelationInput(source_entity_name="Alice Chen", target_entity_name="Platform Group",
                            relationship="member_of", evidence_kind="generated", extraction_method="llm",
                            source_span_start=0, source_span_end=34),
        EntityRelationInput(source_entity_name="Alice Chen", target_entity_name="Platform Group",
                            relationship="advises", evidence_kind="generated", source_span_start=0,
                            source_span_end=999),
    ]  # fmt: skip
    report = MemoryWriter(services.db, services.embedder).write(
        ws, None, [Candidate(content=text, subtype=None, relations=proposed)], Provenance()
    )
    [memory_id] = report.added
    assert relations_of(database_url, memory_id) == [
        ("employed_by", "Alice Chen", "Platform Group", True, True),
        ("member_of", "Alice Chen", "Platform Group", True, True),
    ]  # the span past the text's end was refused


def test_an_idempotent_replay_reports_the_relations_as_duplicates(http, ws):
    rel = {"source_entity_name": "Ann Lee", "target_entity_name": "PLAT-77", "relationship": "owns"}
    ticket(http, ws, assignee="Ann Lee")
    body = {"content": "Ann owns it", "relations": [rel]}
    headers = {"X-Workspace-ID": ws, "Idempotency-Key": "k-1"}
    first = http.post("/v1/memories", json=body, headers=headers)
    again = http.post("/v1/memories", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json()["replayed"] is True
    assert first.json()["memory"]["relation_write_result"]["resolved"] == 1
    assert again.json()["memory"]["relation_write_result"]["duplicate"] == 1


def test_deleting_a_workspace_removes_its_relations(http, ws, database_url):
    ticket(http, ws, reviewers=[{"name": "Bob", "aliases": ["bobby"]}], assignee="Ann")
    assert counts(database_url, ws) == (3, 2, 2)
    assert http.delete(f"/v1/workspaces/{ws}").status_code == 204
    assert counts(database_url, ws) == (0, 0, 0)


def test_llm_extraction_writes_grounded_relations(services, settings, ws, database_url, openai_stub):
    """The model's relations through the real openai SDK against a stub: grounded ones are written (their
    entities created by kind), an ungrounded quote or an unknown relationship is dropped."""
    from shared.domain.extraction.worker import ExtractionWorker
    from tests.integration.test_llm_paths import fact, llm_settings, make_job

    worker = ExtractionWorker(
        services.db,
        services.embedder,
        llm_settings(settings, "openai", openai_stub, enrichment_policy="generative"),
    )
    relation = {"source": "Dana Reyes", "source_type": "person", "relationship": "employed by",
                "target": "Acme Corp", "target_type": "org", "quote": "joined Acme Corp"}  # fmt: skip
    reply = fact("Dana works at Acme Corp", "employer", "Acme Corp")
    reply["relations"] = [
        relation,
        {**relation, "relationship": "frobnicates"},
        {**relation, "target": "Beta Inc", "quote": "joined Beta Inc"},
    ]
    openai_stub.replies.append({"facts": [reply], "summary": "Dana changed jobs."})
    result = worker.run(make_job(services, ws, "I'm Dana Reyes, I just joined Acme  Corp as an engineer."))
    assert result["extractor"] == "llm" and result["added"] >= 1
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT r.relationship, s.canonical_name, s.entity_type, t.canonical_name, t.entity_type, v.evidence_kind "
            "FROM entity_relation_evidence v JOIN entity_relations r ON r.id = v.relation_id "
            "JOIN entities s ON s.id = r.source_entity_id JOIN entities t ON t.id = r.target_entity_id "
            "WHERE v.workspace_id = %s",
            (ws,),
        ).fetchall()
    assert rows == [("employed_by", "Dana Reyes", "person", "Acme Corp", "org", "generated")]


def test_explicit_endpoints_with_a_kind_are_created(http, ws, database_url):
    memory = remember(
        http,
        ws,
        "Ann owns the roadmap",
        relations=[
            {
                "source_entity_name": "Ann Lee",
                "source_entity_type": "person",
                "target_entity_name": "Roadmap",
                "target_entity_type": "artifact",
                "relationship": "owns",
            }
        ],  # fmt: skip
    )
    assert memory["relation_write_result"]["resolved"] == 1
    assert relations_of(database_url, memory["id"]) == [("owns", "Ann Lee", "Roadmap", True, True)]
