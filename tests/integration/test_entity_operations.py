"""The entity operations beyond the registry over real HTTP and Postgres: seed, backfill, dedupe, enrich, and one
entity's card, provenance, related entities, insights and derive; their bad input and their walls."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import psycopg
import pytest

from tests.embed.stubs import StubServer
from tests.helpers.http import remember
from tests.secured import admin_client

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=100)


def h(ws: str) -> dict[str, str]:
    return {"X-Workspace-ID": ws}


def state(database_url: str, ws: str) -> tuple:
    """Everything these operations may change in a workspace: entities (with status), aliases, relations,
    evidence and memories."""
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT (SELECT array_agg(id || ':' || status || ':' || coalesce(merged_into, '') ORDER BY id) "
            "        FROM entities WHERE workspace_id = %(ws)s), "
            "(SELECT count(*) FROM entity_aliases WHERE workspace_id = %(ws)s), "
            "(SELECT count(*) FROM entity_relations WHERE workspace_id = %(ws)s), "
            "(SELECT count(*) FROM entity_relation_evidence WHERE workspace_id = %(ws)s), "
            "(SELECT count(*) FROM memories WHERE workspace_id = %(ws)s)",
            {"ws": ws},
        ).fetchone()


def resolve(http: httpx.Client, ws: str, name: str, entity_type: str | None = None) -> dict:
    params = {"name": name, **({"entity_type": entity_type} if entity_type else {})}
    r = http.get("/v1/entities/resolve", params=params, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()["resolution"]["entity"]


def ticket(http: httpx.Client, ws: str, content: str = "Login fails after the SSO change") -> dict:
    profile = {
        "subject": {"name": "PLAT-77", "type": "work_item"},
        "reviewers": ["Bob Stone"],
        "assignee": "Ann Lee",
    }
    return remember(http, ws, content, metadata={"knowledge_work": profile})


# ------------------------------------------------------------------ seed
def test_seed_creates_and_updates_a_catalog_idempotently(http, ws):
    body = {
        "entities": [
            {"name": "Acme Corp", "entity_type": "org", "aliases": ["Acme", "ACME Inc"],
             "description": "A maker of anvils", "external_ids": {"wikidata": "Q95", "crunchbase": 7}},
            {"name": "Paris", "entity_type": "Place"},
            {"name": "Widget", "entity_type": "!!!"},
            {"name": "???"},
        ]
    }  # fmt: skip
    r = http.post("/v1/entities/seed", json=body, headers=h(ws))
    assert r.status_code == 200, r.text
    first = r.json()
    assert (first["workspace_id"], first["seeded"], first["created"]) == (ws, 2, 2)
    assert first["failed"] == ["???"] and first["skipped_invalid_type"] == ["Widget"]
    acme = resolve(http, ws, "acme inc")
    assert acme["id"] == first["entity_ids"][0] and acme["entity_type"] == "org"
    assert sorted(acme["aliases"]) == ["ACME Inc", "Acme"]
    assert acme["external_ids"] == {"wikidata": "Q95", "crunchbase": "7"}
    assert resolve(http, ws, "paris")["entity_type"] == "place"
    # Again, with one more alias: the same entities, updated.
    body["entities"][0]["aliases"].append("Acme Anvils")
    again = http.post("/v1/entities/seed", json=body, headers=h(ws)).json()
    assert (again["seeded"], again["created"], again["entity_ids"]) == (2, 0, first["entity_ids"])
    assert resolve(http, ws, "Acme Anvils")["id"] == acme["id"]
    prov = http.get(f"/v1/entities/{acme['id']}/provenance", headers=h(ws)).json()
    assert (prov["origin"], prov["activity"], prov["source"]) == ("seeded", "entity.seed", "seed")
    assert prov["description"] == "A maker of anvils"
    assert prov["external_links"]["wikidata"] == {"id": "Q95"}
    assert prov["evidence"] == [] and prov["source_memory_ids"] == []


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"entities": []},
        {"entities": [{"entity_type": "org"}]},
        {"entities": [{"name": ""}]},
        {"entities": [{"name": "Acme", "confidence": 1.5}]},
        {"entities": [{"name": "Acme", "aliases": [""]}]},
        {"entities": [{"name": "Acme", "external_ids": {"x": {"nested": 1}}}]},
        {"entities": [{"name": f"E{i}"} for i in range(1001)]},
    ],
)
def test_seed_refuses_bad_input_and_changes_nothing(http, ws, database_url, body):
    remember(http, ws, "a memory, so the workspace exists")
    before = state(database_url, ws)
    r = http.post("/v1/entities/seed", json=body, headers=h(ws))
    assert r.status_code == 422, r.text
    assert state(database_url, ws) == before


# ------------------------------------------------------------------ backfill
def test_backfill_extracts_entities_from_existing_memories_once(http, ws, database_url):
    plain = remember(http, ws, "Today Bob Stone works at Acme Corp.")
    exchange = remember(http, ws, "User: Ann Lee lives in Paris.\nAssistant: Carol Diaz works at Initech.")
    remember(http, ws, "Does Dan work at Globex?")
    assert state(database_url, ws)[0] is None  # nothing extracted when they were stored
    r = http.post("/v1/entities/backfill", headers=h(ws))
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["workspace_id"] == ws and done["cleared"] == 0
    assert (done["scanned"], done["accreted"], done["relations_written"]) == (3, 2, 2)
    assert (done["entities_created"], done["complete"], done["next_after"]) == (4, True, None)
    bob = resolve(http, ws, "Bob Stone", "person")
    relations = http.get(f"/v1/entities/{bob['id']}", headers=h(ws)).json()["relations"]
    assert [r["relationship"] for r in relations] == ["employed_by"]
    assert resolve(http, ws, "Acme Corp")["entity_type"] == "org"
    assert resolve(http, ws, "Paris")["entity_type"] == "place"
    assert http.get("/v1/entities/resolve", params={"name": "Carol Diaz"}, headers=h(ws)).status_code == 404
    prov = http.get(f"/v1/entities/{bob['id']}/provenance", headers=h(ws)).json()
    assert prov["evidence_memory_ids"] == [plain["id"]]
    assert prov["evidence"][0]["excerpt"] == "Bob Stone works at Acme Corp"
    assert prov["evidence"][0]["extraction_method"] == "deterministic_extraction"
    ann = resolve(http, ws, "Ann Lee")
    ann_evidence = http.get(f"/v1/entities/{ann['id']}/provenance", headers=h(ws)).json()["evidence"]
    assert [(e["memory_id"], e["excerpt"]) for e in ann_evidence] == [
        (exchange["id"], "Ann Lee lives in Paris")
    ]
    # A rerun finds the same relations and writes nothing.
    before = state(database_url, ws)
    rerun = http.post("/v1/entities/backfill", headers=h(ws)).json()
    assert (rerun["scanned"], rerun["accreted"], rerun["relations_written"], rerun["entities_created"]) == (
        3,
        2,
        0,
        0,
    )
    assert state(database_url, ws) == before


def test_a_memory_about_someone_links_that_entity_at_write_time_and_in_backfill(http, ws, database_url):
    """As the reference's accretion anchors ``subject_id``: a name becomes (or resolves to) an entity whose
    member the memory is; an entity's id is that entity."""
    curie = remember(http, ws, "Discovered polonium and radium", subject_id="Marie Curie")
    marie = resolve(http, ws, "Marie Curie")
    assert marie["entity_type"] == "person" and marie["representative_memory_id"] == curie["id"]
    card = http.get(f"/v1/entities/{marie['id']}/card", headers=h(ws)).json()
    assert [m["id"] for m in card["evidence"]] == [curie["id"]] and card["counts"]["memories"] == 1
    # Another name of hers (case apart) and her id link the same entity; no second one is made.
    again = remember(http, ws, "Won two Nobel prizes", subject_id="marie curie")
    by_id = remember(http, ws, "Born in Warsaw", subject_id=marie["id"])
    entities = http.get("/v1/entities", headers=h(ws)).json()["entities"]
    assert [e["id"] for e in entities] == [marie["id"]]
    card = http.get(f"/v1/entities/{marie['id']}/card", headers=h(ws)).json()
    assert sorted(m["id"] for m in card["evidence"]) == sorted([curie["id"], again["id"], by_id["id"]])
    batch = http.post(
        "/v1/memories/batch",
        json={
            "operations": [
                {"op": "create", "content": "Taught at the Sorbonne", "subject_id": "Pierre Curie"}
            ]
        },
        headers=h(ws),
    )
    assert batch.status_code == 200, batch.text
    assert resolve(http, ws, "Pierre Curie")["entity_type"] == "person"

    # Memories stored before this (their entity gone): backfill makes it again and links them; a rerun is idempotent.
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("DELETE FROM entities WHERE workspace_id = %s", (ws,))
    done = http.post("/v1/entities/backfill", headers=h(ws)).json()
    assert (done["scanned"], done["accreted"], done["entities_created"]) == (4, 3, 2)
    marie = resolve(http, ws, "Marie Curie")
    related = http.get(f"/v1/entities/{marie['id']}/card", headers=h(ws)).json()["counts"]
    assert related["memories"] == 2  # the one about her id names an entity that is gone
    before = state(database_url, ws)
    rerun = http.post("/v1/entities/backfill", headers=h(ws)).json()
    assert rerun["entities_created"] == 0 and state(database_url, ws) == before


def test_backfill_pages_with_max_memories_and_after(http, ws):
    ids = sorted(remember(http, ws, f"Person{n} Alpha works at Company{n} Beta.")["id"] for n in range(3))
    first = http.post(
        "/v1/entities/backfill", params={"max_memories": 2, "batch_size": 1}, headers=h(ws)
    ).json()
    assert (first["scanned"], first["complete"], first["next_after"]) == (2, False, ids[1])
    rest = http.post("/v1/entities/backfill", params={"after": first["next_after"]}, headers=h(ws)).json()
    assert (rest["scanned"], rest["complete"], rest["relations_written"]) == (1, True, 1)
    assert len(http.get("/v1/entities", headers=h(ws)).json()["entities"]) == 6


def test_backfill_has_a_default_cap_and_a_time_budget_and_continues_by_cursor(
    http, ws, settings, monkeypatch
):
    ids = sorted(remember(http, ws, f"Person{n} Gamma works at Company{n} Delta.")["id"] for n in range(5))
    monkeypatch.setattr(settings, "entity_backfill_max_memories", 2)
    for params in ({}, {"max_memories": 100}):  # no max_memories, or one past the cap: the cap
        capped = http.post("/v1/entities/backfill", params=params, headers=h(ws)).json()
        assert (capped["scanned"], capped["complete"], capped["next_after"]) == (2, False, ids[1])
        assert capped["stopped_by"] == "max_memories"

    # A budget spent after the first memory: every call still moves on by one, and the cursor gets to the end.
    monkeypatch.setattr(settings, "entity_backfill_max_memories", 500)
    monkeypatch.setattr(settings, "entity_backfill_time_budget_s", 1e-9)
    calls, after, seen = 0, "", []
    while True:
        r = http.post("/v1/entities/backfill", params={"after": after}, headers=h(ws))
        assert r.status_code == 200, r.text
        calls += 1
        page = r.json()
        if page["complete"]:
            assert page["next_after"] is None and page["stopped_by"] is None
            break
        assert page["scanned"] == 1 and page["stopped_by"] == "time_budget"
        seen.append(page["next_after"])
        after = page["next_after"]
        assert calls <= 10
    assert seen == ids
    assert len(http.get("/v1/entities", headers=h(ws)).json()["entities"]) == 10


@pytest.mark.parametrize(
    "params, status, code",
    [
        ({"reset": "true"}, 422, "reset_not_supported"),
        ({"batch_size": 0}, 422, None),
        ({"batch_size": 2001}, 422, None),
        ({"max_memories": 0}, 422, None),
    ],
)
def test_backfill_refuses_bad_input_and_changes_nothing(http, ws, database_url, params, status, code):
    remember(http, ws, "Bob Stone works at Acme Corp.")
    before = state(database_url, ws)
    r = http.post("/v1/entities/backfill", params=params, headers=h(ws))
    assert r.status_code == status, r.text
    if code:
        assert r.json()["detail"]["code"] == code
    assert state(database_url, ws) == before


# ------------------------------------------------------------------ dedupe
def test_dedupe_merges_colliding_names_keeping_aliases_and_evidence(http, ws, database_url):
    acme_memory = remember(http, ws, "Acme roadmap", metadata={"knowledge_work": {
        "subject": {"name": "Acme", "type": "org"}, "owners": ["Dana Reyes"]}})  # fmt: skip
    seeded = http.post("/v1/entities/seed", headers=h(ws), json={"entities": [
        {"name": "Acme Corp", "entity_type": "org", "aliases": ["Acme"]},
        {"name": "Acme", "entity_type": "person"},  # another kind: never merged with the org
    ]}).json()  # fmt: skip
    corp_memory = remember(http, ws, "Acme Corp budget", metadata={"knowledge_work": {
        "subject": {"name": "Acme Corp", "type": "org"}, "owners": ["Eve Park"]}})  # fmt: skip
    acme = resolve(http, ws, "Acme", "org")
    corp_id = seeded["entity_ids"][0]
    assert acme["id"] != corp_id  # "Acme" is both an org's name and the other org's alias
    r = http.post("/v1/entities/dedupe", headers=h(ws))
    assert r.status_code == 200, r.text
    done = r.json()
    assert (done["workspace_id"], done["clusters"], done["merged"]) == (ws, 1, 1)
    # The survivor is the more established: as much evidence, more aliases.
    assert done["merges"] == [{"target_id": corp_id, "merged_ids": [acme["id"]]}]
    survivor = http.get(f"/v1/entities/{corp_id}", headers=h(ws)).json()
    assert {"Acme"} <= set(survivor["entity"]["aliases"])
    assert len(survivor["relations"]) == 2  # Dana's and Eve's, rewired
    gone = http.get(f"/v1/entities/{acme['id']}", headers=h(ws)).json()["entity"]
    assert (gone["status"], gone["merged_into"]) == ("merged", corp_id)
    prov = http.get(f"/v1/entities/{corp_id}/provenance", headers=h(ws)).json()
    assert set(prov["evidence_memory_ids"]) == {acme_memory["id"], corp_memory["id"]}
    assert resolve(http, ws, "Acme", "person")["id"] == seeded["entity_ids"][1]
    # Nothing collides any more.
    before = state(database_url, ws)
    again = http.post("/v1/entities/dedupe", headers=h(ws)).json()
    assert (again["clusters"], again["merged"], again["merges"]) == (0, 0, [])
    assert state(database_url, ws) == before


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 10001}, {"threshold": 1.5}, {"threshold": -0.1}])
def test_dedupe_refuses_bad_input_and_changes_nothing(http, ws, database_url, params):
    http.post("/v1/entities/seed", headers=h(ws), json={"entities": [
        {"name": "Acme Corp", "entity_type": "org", "aliases": ["Acme"]}, {"name": "Acme", "entity_type": "org"}]})  # fmt: skip
    before = state(database_url, ws)
    assert http.post("/v1/entities/dedupe", params=params, headers=h(ws)).status_code == 422
    assert state(database_url, ws) == before


# ------------------------------------------------------------------ enrich
def test_enrich_counts_eligible_entities_and_links_nothing(http, ws, database_url):
    http.post("/v1/entities/seed", headers=h(ws), json={"entities": [
        {"name": "Acme Corp", "entity_type": "org"}, {"name": "Paris", "entity_type": "place"},
        {"name": "Roadmap", "entity_type": "document"}]})  # fmt: skip
    before = state(database_url, ws)
    r = http.post("/v1/entities/enrich", headers=h(ws))
    assert r.status_code == 200, r.text
    assert r.json() == {"workspace_id": ws, "source": "wikidata", "checked": 2, "enriched": 0, "skipped": 2,
                        "linker_configured": False}  # fmt: skip
    only_docs = http.post("/v1/entities/enrich", params={"types": "document"}, headers=h(ws)).json()
    assert only_docs["checked"] == 1
    assert http.post("/v1/entities/enrich", params={"types": "org,!!"}, headers=h(ws)).status_code == 400
    assert http.post("/v1/entities/enrich", params={"limit": 0}, headers=h(ws)).status_code == 422
    assert state(database_url, ws) == before


# ------------------------------------------------------------------ one entity's views
def test_the_card_shows_the_entity_its_relations_and_evidence(http, ws):
    memory = ticket(http, ws)
    work = resolve(http, ws, "PLAT-77")
    r = http.get(f"/v1/entities/{work['id']}/card", headers=h(ws))
    assert r.status_code == 200, r.text
    card = r.json()
    assert (card["entity_id"], card["workspace_id"], card["cached"]) == (work["id"], ws, False)
    assert card["entity"]["canonical_name"] == "PLAT-77"
    named = {(rel["source_name"], rel["relationship"], rel["target_name"]) for rel in card["relations"]}
    assert named == {("Bob Stone", "reviewed", "PLAT-77"), ("Ann Lee", "responsible_for", "PLAT-77")}
    assert card["source_memories"] == [memory["id"]] and card["evidence"][0]["id"] == memory["id"]
    assert card["reflection"].startswith("PLAT-77 (work_item).")
    assert "Bob Stone reviewed it" in card["reflection"] and "Seen in 1 memory." in card["reflection"]
    assert card["counts"] == {"aliases": 0, "relations": 2, "memories": 1, "evidence": 2, "insights": 0}
    assert card["insights"] == [] and card["generated_at"].endswith("Z")


def test_provenance_names_the_memories_and_messages_that_are_evidence(http, ws):
    memory = ticket(http, ws)
    bob = resolve(http, ws, "Bob Stone")
    r = http.get(f"/v1/entities/{bob['id']}/provenance", headers=h(ws))
    assert r.status_code == 200, r.text
    prov = r.json()
    assert (prov["entity_id"], prov["origin"], prov["source"]) == (
        bob["id"],
        "created",
        "knowledge_work_metadata",
    )
    assert prov["source_memory_ids"] == [memory["id"]] and prov["evidence_memory_ids"] == [memory["id"]]
    [evidence] = prov["evidence"]
    assert (evidence["relationship"], evidence["source_entity_id"], evidence["evidence_kind"]) == (
        "reviewed",
        bob["id"],
        "adapter",
    )
    assert evidence["excerpt"] == memory["content"] and evidence["thread_id"] is None
    # Deleting the memory retires the evidence.
    assert http.delete(f"/v1/memories/{memory['id']}", headers=h(ws)).status_code in (200, 204)
    assert http.get(f"/v1/entities/{bob['id']}/provenance", headers=h(ws)).json()["evidence"] == []


def test_related_entities_share_memories_and_say_how_they_relate(http, ws):
    ticket(http, ws)
    ticket(http, ws, "Logout fails too")  # a second memory about the same three
    remember(http, ws, "Billing", metadata={"knowledge_work": {"subject": {"name": "PLAT-88", "type": "work_item"},
                                                               "reviewers": ["Bob Stone"]}})  # fmt: skip
    bob = resolve(http, ws, "Bob Stone")
    r = http.get(f"/v1/entities/{bob['id']}/related", headers=h(ws))
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["entity_id"] == bob["id"]
    rows = [
        (x["entity"]["canonical_name"], x["shared_memories"], x["score"], x["relationships"])
        for x in got["related"]
    ]
    assert rows == [
        ("Ann Lee", 2, 0.667, []),
        ("PLAT-77", 2, 0.667, ["reviewed"]),
        ("PLAT-88", 1, 0.333, ["reviewed"]),
    ]
    two = http.get(
        f"/v1/entities/{bob['id']}/related", params={"min_shared": 2, "limit": 1}, headers=h(ws)
    ).json()
    assert [x["entity"]["canonical_name"] for x in two["related"]] == ["Ann Lee"]
    for params in ({"limit": 0}, {"limit": 101}, {"min_shared": 0}):
        assert http.get(f"/v1/entities/{bob['id']}/related", params=params, headers=h(ws)).status_code == 422


def test_insights_list_inference_memories_with_counts_and_recent_facts(http, ws):
    memory = ticket(http, ws)
    bob = resolve(http, ws, "Bob Stone")
    insight = remember(http, ws, "Bob reviews SSO changes carefully", subtype="inference", subject_id=bob["id"],
                       observer_id="agent_1")  # fmt: skip
    remember(http, ws, "Bob prefers small PRs", subtype="preference", subject_id=bob["id"])
    r = http.get(f"/v1/entities/{bob['id']}/insights", headers=h(ws))
    assert r.status_code == 200, r.text
    got = r.json()
    assert (got["entity_id"], got["workspace_id"], got["total_count"]) == (bob["id"], ws, 1)
    assert [m["id"] for m in got["insights"]] == [insight["id"]]
    assert got["counts"] == {"aliases": 0, "relations": 1, "memories": 3, "evidence": 1, "insights": 1}
    assert memory["id"] in {m["id"] for m in got["recent_facts"]} and len(got["recent_facts"]) == 3
    other = http.get(f"/v1/entities/{bob['id']}/insights", params={"observer_id": "agent_2"}, headers=h(ws))
    assert other.json()["insights"] == [] and other.json()["total_count"] == 0
    card = http.get(f"/v1/entities/{bob['id']}/card", headers=h(ws)).json()
    assert [m["id"] for m in card["insights"]] == [insight["id"]]
    assert (
        http.get(f"/v1/entities/{bob['id']}/insights", params={"limit": 0}, headers=h(ws)).status_code == 422
    )


def test_derive_without_an_llm_is_generation_not_allowed_and_stores_nothing(http, ws, database_url):
    ticket(http, ws)
    bob = resolve(http, ws, "Bob Stone")
    before = state(database_url, ws)
    r = http.post(f"/v1/entities/{bob['id']}/derive", json={"force": True}, headers=h(ws))
    assert r.status_code == 403 and r.json()["detail"]["code"] == "generation_not_allowed"
    assert (
        http.post(f"/v1/entities/{bob['id']}/derive", json={"force": "x"}, headers=h(ws)).status_code == 422
    )
    assert state(database_url, ws) == before


@pytest.mark.parametrize("view", ["card", "provenance", "related", "insights"])
def test_an_unknown_entity_is_404(http, ws, view):
    r = http.get(f"/v1/entities/ent_0000000000000000/{view}", headers=h(ws))
    assert r.status_code == 404 and r.json()["detail"]["code"] == "entity_not_found"


# ------------------------------------------------------------------ walls
def key_for(secured: str, ws: str) -> httpx.Client:
    with admin_client(secured) as admin:
        r = admin.post("/v1/admin/api-keys", json={"workspaces": [ws]})
        assert r.status_code == 201, r.text
        key = r.json()["key"]
    return httpx.Client(base_url=secured, headers={"Authorization": f"Bearer {key}"}, timeout=30)


def test_another_workspaces_key_sees_and_changes_nothing(secured, ws, other_ws, database_url):
    with key_for(secured, ws) as mine, key_for(secured, other_ws) as theirs:
        r = mine.post("/v1/memories", json={"content": "Bob Stone works at Acme Corp.", "metadata": {
            "knowledge_work": {"subject": {"name": "PLAT-77", "type": "work_item"}, "reviewers": ["Bob Stone"]}}})  # fmt: skip
        assert r.status_code == 201, r.text
        assert mine.post("/v1/entities/backfill").status_code == 200
        mine.post("/v1/entities/seed", json={"entities": [{"name": "Acme", "entity_type": "org",
                                                           "aliases": ["Acme Corp"]}]})  # fmt: skip
        bob = mine.get("/v1/entities/resolve", params={"name": "Bob Stone"}).json()["resolution"]["entity"]
        assert mine.get(f"/v1/entities/{bob['id']}/card").status_code == 200
        before = state(database_url, ws)
        for view in ("card", "provenance", "related", "insights"):
            assert theirs.get(f"/v1/entities/{bob['id']}/{view}").status_code == 404, view
            named = theirs.get(f"/v1/entities/{bob['id']}/{view}", params={"workspace_id": ws})
            assert named.status_code == 403, view
        assert theirs.post(f"/v1/entities/{bob['id']}/derive", json={"workspace_id": ws}).status_code == 403
        for op in ("backfill", "dedupe", "enrich"):
            assert theirs.post(f"/v1/entities/{op}", params={"workspace_id": ws}).status_code == 403, op
            done = theirs.post(f"/v1/entities/{op}").json()
            assert done["workspace_id"] == other_ws, op
            assert done.get("scanned", 0) == 0 and done.get("merged", 0) == 0 and done.get("checked", 0) == 0
        seed = theirs.post("/v1/entities/seed", json={"workspace_id": ws, "entities": [{"name": "Mallory"}]})
        assert seed.status_code == 403
        assert state(database_url, ws) == before


# ------------------------------------------------------------------ derive with an LLM
@pytest.fixture()
def openai_stub() -> Iterator[StubServer]:
    from tests.integration.test_llm_paths import openai_chat_wire

    stub = StubServer(openai_chat_wire)
    stub.replies = []
    stub.start()
    yield stub
    stub.stop()


def test_derive_stores_the_grounded_insights_as_inference_memories(http, services, settings, ws, openai_stub):
    """Through the real openai SDK against a stub: an insight citing a memory it was shown is stored (once), one
    citing nothing it was shown is dropped; the policy can still refuse before any call."""
    from shared.domain.extraction.derive import EntityDeriver
    from shared.providers.llm import create_llm
    from tests.integration.test_llm_paths import llm_settings

    first = ticket(http, ws)
    second = ticket(http, ws, "Logout fails too")
    bob = resolve(http, ws, "Bob Stone")
    configured = llm_settings(settings, "openai", openai_stub, enrichment_policy="generative")
    deriver = EntityDeriver(services.db, services.memories, create_llm(configured, "inference"), configured)
    reply = {"insights": [
        {"content": "Bob reviews the SSO work", "citations": [1, 2, 2], "confidence": 0.8},
        {"content": "Bob likes cats", "citations": [9], "confidence": 0.9},
    ]}  # fmt: skip
    openai_stub.replies.append(reply)
    done = deriver.derive(ws, bob["id"], observer_id=None, tenant_id="_default")
    assert (done["insights_created"], done["insights_updated"], done["source_memory_count"]) == (1, 0, 2)
    [stored] = done["insights"]
    assert (stored["subtype"], stored["subject_id"], stored["content"]) == (
        "inference",
        bob["id"],
        reply["insights"][0]["content"],
    )
    assert set(stored["metadata"]["derived_from"]) == {first["id"], second["id"]}
    prompt = openai_stub.requests[-1].body["messages"][-1]["content"]
    assert "Bob Stone (person)" in prompt and "Logout fails too" in prompt
    listed = http.get(f"/v1/entities/{bob['id']}/insights", headers=h(ws)).json()
    assert [m["id"] for m in listed["insights"]] == [stored["id"]]
    # The same insight again is found, not stored twice; the insight itself is not a source.
    openai_stub.replies.append(reply)
    again = deriver.derive(ws, bob["id"], observer_id=None, tenant_id="_default")
    assert (again["insights_created"], again["insights_updated"], again["source_memory_count"]) == (0, 1, 2)
    # Under the deterministic policy nothing is asked.
    calls = len(openai_stub.requests)
    strict = configured.model_copy(update={"enrichment_policy": "deterministic"})
    refusing = EntityDeriver(services.db, services.memories, create_llm(strict, "inference"), strict)
    with pytest.raises(Exception) as refused:
        refusing.derive(ws, bob["id"], observer_id=None, tenant_id="_default")
    assert (
        getattr(refused.value, "code", None) == "generation_not_allowed"
        and len(openai_stub.requests) == calls
    )
