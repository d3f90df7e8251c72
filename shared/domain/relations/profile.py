"""The ``metadata.knowledge_work`` profile: who owns, reviewed, decided… what, declared on a memory.

    >>> cands, errors = parse({"subject": "PLAT-77", "subject_type": "work_item", "reviewers": ["Bob", ""]})
    >>> [(c.source.name, c.relationship, c.target.name, c.path) for c in cands], errors
    ([('Bob', 'reviewed', 'PLAT-77', 'knowledge_work.reviewers[0]')], ['knowledge_work.reviewers[1]: entity name must not be empty'])

Field names and edges are the reference's (services/entity_relation/metadata.py); only the fields listed here
are read. Qualifiers (status, role, dates, …) stay on the memory and are never interpreted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.core.names import normalize_entity_type

# field -> (relationship, default type of the other end). Actor fields: actor -> subject.
ACTOR_FIELDS: dict[str, str] = {
    **dict.fromkeys(("owners", "owner", "owned_by"), "owns"),
    **dict.fromkeys(("assignees", "assignee", "assigned_to", "responsible"), "responsible_for"),
    **dict.fromkeys(("authors", "author", "creators", "creator", "created_by"), "authored"),
    **dict.fromkeys(("contributors", "contributor"), "contributed_to"),
    **dict.fromkeys(("reviewers", "reviewer", "reviewed_by"), "reviewed"),
    **dict.fromkeys(("approvers", "approver", "approved_by"), "approved"),
    **dict.fromkeys(("decision_makers", "decision_maker", "decided_by"), "decided"),
}
# Subject fields: subject -> target.
SUBJECT_FIELDS: dict[str, tuple[str, str]] = {
    "projects": ("part_of", "project"), "project": ("part_of", "project"),
    "organizations": ("part_of", "org"), "organization": ("part_of", "org"),
    "part_of": ("part_of", "concept"), "member_of": ("member_of", "org"),
    "depends_on": ("depends_on", "work_item"), "dependencies": ("depends_on", "work_item"),
    "blocks": ("blocks", "work_item"), "references": ("references", "artifact"),
    "supersedes": ("supersedes", "artifact"), "replaces": ("supersedes", "artifact"),
    "based_on": ("based_on", "artifact"), "basis": ("based_on", "artifact"),
    "affects": ("affects", "concept"), "supports": ("supports", "concept"),
    "contradicts": ("contradicts", "concept"), "about": ("about", "topic"), "topics": ("about", "topic"),
}  # fmt: skip
# Reverse fields: target -> subject.
REVERSE_FIELDS: dict[str, tuple[str, str]] = {
    "blocked_by": ("blocks", "work_item"),
    "superseded_by": ("supersedes", "artifact"), "replaced_by": ("supersedes", "artifact"),
    "supported_by": ("supports", "concept"), "affected_by": ("affects", "concept"),
    "referenced_by": ("references", "artifact"),
    "has_parts": ("part_of", "concept"), "has_part": ("part_of", "concept"),
}  # fmt: skip
RELATION_FIELDS = set(ACTOR_FIELDS) | set(SUBJECT_FIELDS) | set(REVERSE_FIELDS) | {"relations"}
SUBJECT = "$subject"


@dataclass(frozen=True)
class EntityRef:
    name: str
    entity_type: str
    entity_id: str | None = None
    aliases: tuple[str, ...] = ()
    confidence: float = 1.0
    external_ids: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    def key(self) -> tuple[str | None, str]:
        return self.entity_id, f"{self.entity_type}:{self.name.casefold()}"


@dataclass(frozen=True)
class Candidate:
    source: EntityRef
    relationship: str
    target: EntityRef
    path: str


class ProfileError(ValueError):
    pass


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def entity_ref(value: Any, default_type: str, path: str) -> EntityRef:
    """A string or ``{name|title|display_name, entity_id?, type|entity_type?, aliases?, confidence?,
    external_ids?}``. Raises ProfileError with the entry's path."""
    if isinstance(value, str):
        name, raw = value.strip(), {}
    elif isinstance(value, dict):
        raw = value
        found = next((raw[k] for k in ("name", "title", "display_name") if isinstance(raw.get(k), str)), "")
        name = found.strip()
    else:
        raise ProfileError(f"{path}: entity must be a string or an object")
    if not name:
        raise ProfileError(f"{path}: entity name must not be empty")
    if len(name) > 512:
        raise ProfileError(f"{path}: entity name is longer than 512 characters")
    type_value = raw.get("entity_type", raw.get("type", default_type))
    entity_type = normalize_entity_type(type_value) if isinstance(type_value, str) else None
    if entity_type is None:
        raise ProfileError(f"{path}: invalid entity type {str(type_value)[:64]!r}")
    aliases = raw.get("aliases", [])
    aliases = [aliases] if isinstance(aliases, str) else aliases
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise ProfileError(f"{path}: aliases must be strings")
    confidence = raw.get("confidence", 1.0)
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
        raise ProfileError(f"{path}: confidence must be a number in [0, 1]")
    external = raw.get("external_ids", {})
    if not isinstance(external, dict):
        raise ProfileError(f"{path}: external_ids must be an object")
    entity_id = raw.get("entity_id")
    if entity_id is not None and not isinstance(entity_id, str):
        raise ProfileError(f"{path}: entity_id must be a string")
    return EntityRef(
        name=name,
        entity_type=entity_type,
        entity_id=entity_id,
        aliases=tuple(a.strip() for a in aliases if a.strip() and a.strip() != name),
        confidence=float(confidence),
        external_ids={str(k): str(v) for k, v in external.items() if v is not None},
    )


def parse(profile: Any) -> tuple[list[Candidate], list[str]]:
    """The profile's relation candidates (first path wins on duplicates) and its per-entry errors. Without a
    ``subject`` nothing is emitted (the reference's rule)."""
    if not isinstance(profile, dict):
        return [], ["knowledge_work: the profile must be an object"]
    if profile.get("subject") in (None, "", [], {}):
        return [], []
    declared = profile.get("subject_type")
    subject_type = declared if isinstance(declared, str) else "concept"
    errors: list[str] = []
    try:
        subject = entity_ref(profile["subject"], subject_type, "knowledge_work.subject")
    except ProfileError as exc:
        return [], [str(exc)]
    found: list[Candidate] = []

    def each(name: str, default_type: str):
        values = _as_list(profile[name])
        for i, value in enumerate(values):
            path = (
                f"knowledge_work.{name}[{i}]" if isinstance(profile[name], list) else f"knowledge_work.{name}"
            )
            try:
                yield entity_ref(value, default_type, path), path
            except ProfileError as exc:
                errors.append(str(exc))

    for name in profile:
        if name in ACTOR_FIELDS:
            for ref, path in each(name, "person"):
                found.append(Candidate(ref, ACTOR_FIELDS[name], subject, path))
        elif name in SUBJECT_FIELDS:
            rel, default_type = SUBJECT_FIELDS[name]
            for ref, path in each(name, default_type):
                found.append(Candidate(subject, rel, ref, path))
        elif name in REVERSE_FIELDS:
            rel, default_type = REVERSE_FIELDS[name]
            for ref, path in each(name, default_type):
                found.append(Candidate(ref, rel, subject, path))
    for i, entry in enumerate(_as_list(profile.get("relations", []))):
        path = f"knowledge_work.relations[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("relationship"), str):
            errors.append(f"{path}: needs source, relationship and target")
            continue
        try:
            ends = [
                subject
                if entry.get(end) == SUBJECT
                else entity_ref(entry.get(end), "concept", f"{path}.{end}")
                for end in ("source", "target")
            ]
        except ProfileError as exc:
            errors.append(str(exc))
            continue
        found.append(Candidate(ends[0], entry["relationship"], ends[1], path))
    seen: set[tuple] = set()
    unique = []
    for cand in found:
        key = (cand.source.key(), cand.target.key(), cand.relationship)
        if key not in seen:
            seen.add(key)
            unique.append(cand)
    return unique, errors
