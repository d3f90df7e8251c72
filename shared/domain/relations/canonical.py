"""Relationship canonicalisation: the reference's 103 accepted names (56 explicit spellings and the 85 ontology
types, 38 of them shared), each folded to one stored direction.

    >>> canonicalize("Reviewed By")
    Canonical(relationship='reviewed', reversed=True, symmetric=False)
    >>> canonicalize("author_of"), canonicalize("nonsense") is None
    (Canonical(relationship='authored', reversed=False, symmetric=False), True)

Unlike the reference (its defect 7), ontology inverse pairs outside the explicit table are folded too
(``caused_by(B, A)`` is stored as ``causes(A, B)``), and every symmetric type, not only ``sibling_of``, has its
endpoints ordered, so one fact is one edge whichever way it was written.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from shared.core import ontology

# spelling -> (canonical, reversed): the reference's table (services/entity_relation/default.py l.26-83).
EXPLICIT: dict[str, tuple[str, bool]] = {
    "employed_by": ("employed_by", False), "employs": ("employed_by", True),
    "invested_in": ("invested_in", False), "investor_of": ("invested_in", True),
    "advises": ("advises", False), "advised_by": ("advises", True),
    "attended": ("attended", False), "attended_by": ("attended", True),
    "founded": ("founded", False), "founded_by": ("founded", True),
    "owns": ("owns", False), "owned_by": ("owns", True),
    "responsible_for": ("responsible_for", False), "assigned_to": ("responsible_for", True),
    "responsibility_of": ("responsible_for", True),
    "authored": ("authored", False), "author_of": ("authored", False), "authored_by": ("authored", True),
    "contributed_to": ("contributed_to", False), "has_contributor": ("contributed_to", True),
    "reviewed": ("reviewed", False), "reviewed_by": ("reviewed", True),
    "approved": ("approved", False), "approved_by": ("approved", True),
    "decided": ("decided", False), "decided_by": ("decided", True),
    "member_of": ("member_of", False), "has_member": ("member_of", True),
    "part_of": ("part_of", False), "has_part": ("part_of", True),
    "parent_of": ("parent_of", False), "child_of": ("parent_of", True),
    "sibling_of": ("sibling_of", False),
    "located_in": ("located_in", False), "location_of": ("located_in", True),
    "depends_on": ("depends_on", False), "dependency_of": ("depends_on", True),
    "depended_on_by": ("depends_on", True),
    "blocks": ("blocks", False), "blocked_by": ("blocks", True),
    "references": ("references", False), "referenced_by": ("references", True),
    "supersedes": ("supersedes", False), "superseded_by": ("supersedes", True),
    "replaces": ("supersedes", False), "replaced_by": ("supersedes", True),
    "based_on": ("based_on", False), "basis_for": ("based_on", True),
    "affects": ("affects", False), "affected_by": ("affects", True),
    "supports": ("supports", False), "supported_by": ("supports", True),
    "about": ("about", False), "subject_of": ("about", True),
    "sent_to": ("sent_to", False), "received_from": ("sent_to", True),
}  # fmt: skip

SYMMETRIC_EXPLICIT = {"sibling_of"}


class Canonical(NamedTuple):
    relationship: str
    reversed: bool  # swap source and target
    symmetric: bool  # order the endpoints by id


def _ontology_folds() -> dict[str, Canonical]:
    """The ontology types the explicit table does not name: inverse pairs fold onto the form listed first."""
    order = list(ontology.RELATIONSHIPS)
    explicit_targets = set(EXPLICIT) | {c for c, _ in EXPLICIT.values()}
    folds: dict[str, Canonical] = {}
    for name, info in ontology.RELATIONSHIPS.items():
        if name in EXPLICIT:
            continue
        inverse = info["inverse"]
        symmetric = bool(info["symmetric"]) or inverse == name
        if symmetric or not inverse or inverse not in ontology.RELATIONSHIPS or inverse in explicit_targets:
            folds[name] = Canonical(name, False, symmetric)
        elif order.index(inverse) < order.index(name):
            folds[name] = Canonical(inverse, True, False)
        else:
            folds[name] = Canonical(name, False, False)
    return folds


TABLE: dict[str, Canonical] = {
    **{k: Canonical(c, r, c in SYMMETRIC_EXPLICIT) for k, (c, r) in EXPLICIT.items()},
    **_ontology_folds(),
}

_NON_WORD = re.compile(r"[^a-z0-9_]+")


def normalize_relationship(name: str) -> str:
    """The reference's spelling key: casefold, runs of other characters to ``_``, ``_`` stripped.

    >>> normalize_relationship(" Depends-On ")
    'depends_on'
    """
    return _NON_WORD.sub("_", name.casefold()).strip("_")


def canonicalize(name: str) -> Canonical | None:
    """The stored form of ``name``, or None when it is none of the 103 accepted names."""
    return TABLE.get(normalize_relationship(name))
