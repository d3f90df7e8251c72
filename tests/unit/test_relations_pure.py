"""The pure parts of typed relations: canonical names, entity-name keys, the knowledge_work profile, connector
envelopes, the email mapping and the recall intent (no database)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared.core import ontology
from shared.core.names import normalize_entity_name, normalize_entity_type
from shared.domain.relations import connectors
from shared.domain.relations.canonical import EXPLICIT, TABLE, Canonical, canonicalize
from shared.domain.relations.email import email_to_memory
from shared.domain.relations.intent import classify
from shared.domain.relations.profile import parse
from shared.domain.relations.writer import _patterns, excerpt_hash
from shared.domain.requests import EmailIngest


# ------------------------------------------------------------------ canonical names
def test_the_reference_accepts_103_names():
    assert len(EXPLICIT) == 56 and len(ontology.RELATIONSHIPS) == 85
    assert len(set(EXPLICIT) & set(ontology.RELATIONSHIPS)) == 38
    assert len(TABLE) == 103


@pytest.mark.parametrize(
    ("spelling", "canonical", "reversed_"),
    [
        ("employs", "employed_by", True), ("investor_of", "invested_in", True), ("advised_by", "advises", True),
        ("attended_by", "attended", True), ("founded_by", "founded", True), ("owned_by", "owns", True),
        ("assigned_to", "responsible_for", True), ("responsibility_of", "responsible_for", True),
        ("author_of", "authored", False), ("authored_by", "authored", True),
        ("has_contributor", "contributed_to", True), ("reviewed_by", "reviewed", True),
        ("approved_by", "approved", True), ("decided_by", "decided", True), ("has_member", "member_of", True),
        ("has_part", "part_of", True), ("child_of", "parent_of", True), ("location_of", "located_in", True),
        ("dependency_of", "depends_on", True), ("depended_on_by", "depends_on", True),
        ("blocked_by", "blocks", True), ("referenced_by", "references", True),
        ("superseded_by", "supersedes", True), ("replaces", "supersedes", False),
        ("replaced_by", "supersedes", True), ("basis_for", "based_on", True), ("affected_by", "affects", True),
        ("supported_by", "supports", True), ("subject_of", "about", True), ("received_from", "sent_to", True),
        ("Reviewed-By", "reviewed", True), (" OWNS ", "owns", False),
        # Ontology inverse pairs fold too (the reference stored both directions: its defect 7).
        ("caused_by", "causes", True), ("required_by", "requires", True), ("causes", "causes", False),
    ],
)  # fmt: skip
def test_reverse_forms_fold_onto_one_direction(spelling, canonical, reversed_):
    found = canonicalize(spelling)
    assert found is not None and (found.relationship, found.reversed) == (canonical, reversed_)


def test_every_accepted_name_maps_to_an_accepted_canonical_form():
    for name, found in TABLE.items():
        assert TABLE[found.relationship] == Canonical(found.relationship, False, found.symmetric), name


def test_symmetric_types_order_their_endpoints_and_unknown_names_are_refused():
    assert canonicalize("sibling_of").symmetric and canonicalize("similar_to").symmetric
    assert not canonicalize("owns").symmetric
    assert canonicalize("frobnicates") is None and canonicalize("") is None


# ------------------------------------------------------------------ names
@pytest.mark.parametrize(
    ("raw", "key"),
    [("Zoë", "zoe"), ("  ACME  Corp. ", "acme corp"), ("Alice's", "alice"), ("Ops’", "ops"),
     ("PLAT-77", "plat 77"), ("a_b", "a b"), ("!!!", "")],
)  # fmt: skip
def test_entity_names_normalise_as_the_reference(raw, key):
    assert normalize_entity_name(raw) == key


def test_entity_types():
    assert normalize_entity_type("Work Item") == "work_item" and normalize_entity_type("_x") == "x"
    assert normalize_entity_type("") is None and normalize_entity_type("9a") is None
    assert normalize_entity_type("a" * 65) is None


# ------------------------------------------------------------------ profile
def test_profile_fields_give_directed_edges():
    cands, errors = parse(
        {
            "subject": "PLAT-77",
            "subject_type": "work_item",
            "owner": "Ann",
            "blocked_by": ["PLAT-1"],
            "depends_on": {"name": "Auth", "type": "Service", "aliases": "auth-svc", "confidence": 0.5},
            "relations": [{"source": "$subject", "relationship": "causes", "target": "Outage"}],
            "status": "open",
        }
    )
    assert errors == []
    edges = [(c.source.name, c.relationship, c.target.name) for c in cands]
    assert edges == [
        ("Ann", "owns", "PLAT-77"),
        ("PLAT-1", "blocks", "PLAT-77"),
        ("PLAT-77", "depends_on", "Auth"),
        ("PLAT-77", "causes", "Outage"),
    ]
    dep = cands[2].target
    assert (dep.entity_type, dep.aliases, dep.confidence) == ("service", ("auth-svc",), 0.5)
    assert cands[0].source.entity_type == "person" and cands[1].source.entity_type == "work_item"


@pytest.mark.parametrize(
    ("profile", "error"),
    [
        ({"subject": "S", "owner": 5}, "knowledge_work.owner: entity must be a string or an object"),
        ({"subject": "S", "owner": {"name": "A", "type": "9"}}, "knowledge_work.owner: invalid entity type '9'"),
        ({"subject": "S", "owner": {"name": "A", "confidence": 2}}, "knowledge_work.owner: confidence must be a number in [0, 1]"),
        ({"subject": "S", "relations": [{"source": "A"}]}, "knowledge_work.relations[0]: needs source, relationship and target"),
        ({"subject": ""}, None),
    ],
)  # fmt: skip
def test_profile_errors_are_per_entry(profile, error):
    cands, errors = parse(profile)
    assert cands == []
    assert errors == ([error] if error else [])


def test_profile_duplicates_keep_the_first_path():
    cands, _ = parse({"subject": "S", "reviewers": ["Bob"], "reviewer": "bob"})
    assert [c.path for c in cands] == ["knowledge_work.reviewers[0]"]


# ------------------------------------------------------------------ connectors
def test_undeclared_metadata_is_returned_as_is():
    meta = {"user": "Carol", "team": "Infra", "knowledge_work": {"subject": "Cap"}}
    assert connectors.normalize(meta) is meta


def test_explicit_profile_fields_win_over_the_envelope():
    out = connectors.normalize(
        {
            "connector_type": "linear",
            "title": "T",
            "assignee": "Zed",
            "knowledge_work": {"assignees": ["Ann"]},
        }
    )
    assert out["knowledge_work"]["assignees"] == ["Ann"] and "assignee" not in out["knowledge_work"]


def test_sentinels_are_dropped_with_a_warning_and_lists_deduplicated():
    out = connectors.normalize(
        {"connector_type": "linear", "title": "T", "assignee": "Unassigned", "reviewers": ["Bo", "bo", "Cy"]}
    )
    kw = out["knowledge_work"]
    assert "assignee" not in kw and [r["name"] for r in kw["reviewer"]] == ["Bo", "Cy"]
    assert out["knowledge_work_normalization"]["warnings"] == ["assignee: empty or placeholder value dropped"]


def test_no_subject_means_no_profile():
    out = connectors.normalize({"connector_type": "slack", "slack_sender": "Ann", "text": "hi"})
    assert "knowledge_work" not in out
    assert out["knowledge_work_normalization"]["warnings"] == [
        "relation fields were ignored because no subject could be identified"
    ]


def test_github_kinds_and_qualifiers():
    out = connectors.normalize(
        {"connector_type": "github", "github_type": "pr", "github_title": "Fix", "github_number": 7,
         "github_repo": "acme/app", "github_state": "merged", "created_at": datetime(2026, 1, 2, tzinfo=UTC)}
    )  # fmt: skip
    kw = out["knowledge_work"]
    assert kw["subject"]["type"] == "work_item" and kw["subject"]["aliases"] == ["acme/app#7"]
    assert kw["status"] == "merged" and kw["source_created_at"] == "2026-01-02T00:00:00+00:00"
    assert out["knowledge_work_normalization"]["record_kind"] == "code_review"


def test_email_mapping():
    memory = email_to_memory(
        EmailIngest(
            sender="Ann", to=["Bob", "ann"], body="Ship it", timestamp=datetime(2026, 5, 1, tzinfo=UTC)
        )
    )
    assert memory.content == "[2026-05-01] Ship it"
    kw = memory.metadata["knowledge_work"]
    assert kw["subject"]["name"] == "Email from Ann on 2026-05-01"
    assert [r["target"]["name"] for r in kw["relations"]] == ["Bob"]
    assert memory.observer_id == "Ann" and memory.type == "semantic"


# ------------------------------------------------------------------ writer helpers, intent
def test_patterns_and_excerpt_hash():
    text = "Alice Chen works at Platform Group. Svc A depends on Svc B."
    found = [
        (v.source_name, v.relationship, v.target_name, text[v.span[0] : v.span[1]]) for v in _patterns(text)
    ]
    assert found == [
        ("Alice Chen", "employed_by", "Platform Group", "Alice Chen works at Platform Group"),
        ("Svc A", "depends_on", "Svc B", "Svc A depends on Svc B"),
    ]
    assert excerpt_hash("abc", 1, 2) == excerpt_hash("b", None, None) != excerpt_hash("abc", None, None)


@pytest.mark.parametrize(
    ("query", "types"),
    [
        ("Who reviewed PLAT-77?", ("reviewed",)),
        ("what depends on the billing service", ("depends_on", "requires")),
        ("What did Zed decide about caching?", ("decided", "about")),
        ("which project is PLAT-77 part of", ("part_of",)),
        ("what is connected to Kafka and who owns it", ()),
    ],
)
def test_intent(query, types):
    intent = classify(query)
    assert intent.is_relation_query and intent.relationships == types


def test_intent_phrases_and_non_relation_queries():
    assert classify("tea preferences").is_relation_query is False
    phrases = classify('Who owns "the checkout service"?').phrases
    assert phrases[0] == "the checkout service" and "checkout service" in phrases
    assert all(p not in ("who", "the") for p in phrases)
