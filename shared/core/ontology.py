"""The reference server's relationship ontology: 85 lowercase types in 12 categories.

>>> RELATIONSHIPS["parent_of"]["inverse"], RELATIONSHIPS["parent_of"]["transitive"]
('child_of', True)
>>> is_relationship("SOLVES")
False
"""

from __future__ import annotations

from typing import Any

# (category, [(type, inverse, symmetric, transitive, description)])
_ONTOLOGY: list[tuple[str, list[tuple[str, str | None, bool, bool, str]]]] = [
    (
        "hierarchical",
        [
            ("parent_of", "child_of", False, True, "Source is a parent of target"),
            ("child_of", "parent_of", False, True, "Source is a child of target"),
            ("part_of", "has_part", False, True, "Source is a part of target"),
            ("has_part", "part_of", False, True, "Source has target as a part"),
            ("instance_of", "type_of", False, False, "Source is an instance of target"),
            ("type_of", "instance_of", False, False, "Source is the type of target"),
        ],
    ),
    (
        "causal",
        [
            ("causes", "caused_by", False, True, "Source causes target"),
            ("caused_by", "causes", False, True, "Source is caused by target"),
            ("enables", "enabled_by", False, False, "Source enables target"),
            ("enabled_by", "enables", False, False, "Source is enabled by target"),
            ("triggers", "triggered_by", False, False, "Source triggers target"),
            ("triggered_by", "triggers", False, False, "Source is triggered by target"),
            ("leads_to", "led_to_by", False, True, "Source leads to target"),
            ("led_to_by", "leads_to", False, True, "Source is led to by target"),
            ("prevents", "prevented_by", False, False, "Source prevents target"),
            ("prevented_by", "prevents", False, False, "Source is prevented by target"),
        ],
    ),
    (
        "temporal",
        [
            ("before", "after", False, True, "Source happens before target"),
            ("after", "before", False, True, "Source happens after target"),
            ("during", None, False, False, "Source happens during target"),
        ],
    ),
    (
        "similarity",
        [
            ("similar_to", "similar_to", True, False, "Source is similar to target"),
            ("duplicate_of", "duplicate_of", True, True, "Source duplicates target"),
            ("related_to", "related_to", True, False, "Source is related to target"),
            ("variant_of", "variant_of", True, False, "Source is a variant of target"),
        ],
    ),
    (
        "learning",
        [
            ("contradicts", "contradicts", True, False, "Source contradicts target"),
            ("supports", "supported_by", False, False, "Source supports target"),
            ("supported_by", "supports", False, False, "Source is supported by target"),
            ("builds_on", "built_upon_by", False, True, "Source builds on target"),
            ("built_upon_by", "builds_on", False, True, "Source is built upon by target"),
            ("confirms", "confirms", True, False, "Source confirms target"),
            ("supersedes", "superseded_by", False, True, "Source supersedes target"),
            ("superseded_by", "supersedes", False, True, "Source is superseded by target"),
        ],
    ),
    (
        "refinement",
        [
            ("refines", "refined_by", False, True, "Source refines target"),
            ("refined_by", "refines", False, True, "Source is refined by target"),
            ("replaces", "replaced_by", False, True, "Source replaces target"),
            ("replaced_by", "replaces", False, True, "Source is replaced by target"),
        ],
    ),
    (
        "reference",
        [
            ("references", "referenced_by", False, False, "Source references target"),
            ("referenced_by", "references", False, False, "Source is referenced by target"),
        ],
    ),
    (
        "solution",
        [
            ("solves", "solved_by", False, False, "Source solves target"),
            ("solved_by", "solves", False, False, "Source is solved by target"),
            ("addresses", "addressed_by", False, False, "Source addresses target"),
            ("addressed_by", "addresses", False, False, "Source is addressed by target"),
            ("alternative_to", "alternative_to", True, False, "Source is an alternative to target"),
            ("improves", "improved_by", False, False, "Source improves target"),
            ("improved_by", "improves", False, False, "Source is improved by target"),
        ],
    ),
    (
        "context",
        [
            ("occurs_in", "contains_occurrence", False, False, "Source occurs in target"),
            ("contains_occurrence", "occurs_in", False, False, "Source contains an occurrence of target"),
            ("applies_to", "has_applicable", False, False, "Source applies to target"),
            ("has_applicable", "applies_to", False, False, "Target applies to source"),
            ("works_with", "works_with", True, False, "Source works with target"),
            ("requires", "required_by", False, True, "Source requires target"),
            ("required_by", "requires", False, True, "Source is required by target"),
        ],
    ),
    (
        "workflow",
        [
            ("follows", "followed_by", False, True, "Source follows target"),
            ("followed_by", "follows", False, True, "Source is followed by target"),
            ("depends_on", "depended_on_by", False, True, "Source depends on target"),
            ("depended_on_by", "depends_on", False, True, "Source is depended on by target"),
            ("blocks", "blocked_by", False, False, "Source blocks target"),
            ("blocked_by", "blocks", False, False, "Source is blocked by target"),
        ],
    ),
    (
        "quality",
        [
            ("effective_for", "has_effective", False, False, "Source is effective for target"),
            ("has_effective", "effective_for", False, False, "Target is effective for source"),
            ("preferred_over", "less_preferred_than", False, True, "Source is preferred over target"),
            ("less_preferred_than", "preferred_over", False, True, "Source is less preferred than target"),
            ("deprecated_by", "deprecates", False, False, "Source is deprecated by target"),
            ("deprecates", "deprecated_by", False, False, "Source deprecates target"),
        ],
    ),
    (
        "knowledge_work",
        [
            ("owns", "owned_by", False, False, "Source owns target"),
            ("owned_by", "owns", False, False, "Source is owned by target"),
            ("responsible_for", "assigned_to", False, False, "Source is responsible for target"),
            ("assigned_to", "responsible_for", False, False, "Source is assigned to target"),
            ("authored", "authored_by", False, False, "Source authored target"),
            ("authored_by", "authored", False, False, "Source was authored by target"),
            ("contributed_to", "has_contributor", False, False, "Source contributed to target"),
            ("has_contributor", "contributed_to", False, False, "Target contributed to source"),
            ("reviewed", "reviewed_by", False, False, "Source reviewed target"),
            ("reviewed_by", "reviewed", False, False, "Source was reviewed by target"),
            ("approved", "approved_by", False, False, "Source approved target"),
            ("approved_by", "approved", False, False, "Source was approved by target"),
            ("decided", "decided_by", False, False, "Source decided target"),
            ("decided_by", "decided", False, False, "Source was decided by target"),
            ("based_on", "basis_for", False, True, "Source is based on target"),
            ("basis_for", "based_on", False, True, "Source is the basis for target"),
            ("affects", "affected_by", False, False, "Source affects target"),
            ("affected_by", "affects", False, False, "Source is affected by target"),
            ("about", "subject_of", False, False, "Source is about target"),
            ("subject_of", "about", False, False, "Source is the subject of target"),
            ("member_of", "has_member", False, False, "Source is a member of target"),
            ("has_member", "member_of", False, False, "Target is a member of source"),
        ],
    ),
]

RELATIONSHIPS: dict[str, dict[str, Any]] = {
    name: {
        "description": description,
        "symmetric": symmetric,
        "transitive": transitive,
        "inverse": inverse,
        "category": category,
    }
    for category, entries in _ONTOLOGY
    for name, inverse, symmetric, transitive, description in entries
}

SUBTYPES = (
    "solution", "problem", "code_pattern", "fix", "error", "workflow", "preference", "decision", "profile",
    "entity", "event", "directive", "inference", "fact", "skill", "skill_reference", "skill_addendum",
    "mcp_server",
)  # fmt: skip

MEMORY_TYPES = ("episodic", "semantic", "procedural", "working")


def is_relationship(name: str) -> bool:
    return name in RELATIONSHIPS


def schema() -> dict[str, Any]:
    """The ontology as ``GET /v1/workspaces/{id}/schema`` returns it."""
    categories: dict[str, list[str]] = {}
    for name, entry in RELATIONSHIPS.items():
        categories.setdefault(entry["category"], []).append(name)
    # The reference's keys first, as it shapes them (names, sorted); the definitions are ours, beside them.
    return {
        "relationship_types": sorted(RELATIONSHIPS),
        "memory_subtypes": sorted(SUBTYPES),
        "can_customize": False,
        "relationship_definitions": RELATIONSHIPS,
        "relationship_categories": categories,
        "memory_types": list(MEMORY_TYPES),
    }
