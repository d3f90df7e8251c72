"""Write a memory's relations with evidence: the explicit inputs, its ``knowledge_work`` profile and the
relations its text states plainly. Runs inside the memory's own transaction, so a memory never exists without
the relations it was sent with, and no failure here surfaces after the memory was stored (the reference's
defect 13): every problem is a counted, per-item ``rejected``/``unresolved`` with a message.

    >>> with db.transaction() as conn:                                              # doctest: +SKIP
    ...     result = write_for_memory(conn, memory_row, [EntityRelationInput(...)])
    >>> result.as_wire()                                                            # doctest: +SKIP
    {'resolved': 1, 'unresolved': 0, 'rejected': 0, 'duplicate': 0, 'relation_ids': ['erel_…'], 'errors': []}
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from shared.core.names import normalize_entity_name
from shared.db import relations as repo
from shared.db.rows import Connection
from shared.domain.relations.canonical import canonicalize
from shared.domain.relations.profile import Candidate, EntityRef, parse
from shared.domain.requests import EntityRelationInput

# 1-4 capitalised tokens on one line; dots only inside a token ("Node.js"), so a sentence's full stop ends it.
_TOKEN = r"[A-Z][\w-]*(?:\.[\w-]+)*"
_ENTITY = rf"({_TOKEN}(?:[ \t]+{_TOKEN}){{0,3}})"
# The reference's resolve-only pattern extractors (l.87-97): both entities must already exist.
PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(_ENTITY + r"\s+works?\s+(?:at|for)\s+" + _ENTITY), "employed_by"),
    (re.compile(_ENTITY + r"\s+(?:is|serves\s+as)\s+an?\s+advis[eo]r\s+(?:at|to)\s+" + _ENTITY), "advises"),
    (re.compile(_ENTITY + r"\s+invested\s+in\s+" + _ENTITY), "invested_in"),
    (re.compile(_ENTITY + r"\s+founded\s+" + _ENTITY), "founded"),
    (re.compile(_ENTITY + r"\s+attended\s+" + _ENTITY), "attended"),
    (re.compile(_ENTITY + r"\s+owns\s+" + _ENTITY), "owns"),
    (re.compile(_ENTITY + r"\s+is\s+(?:a\s+)?member\s+of\s+" + _ENTITY), "member_of"),
    (re.compile(_ENTITY + r"\s+depends\s+on\s+" + _ENTITY), "depends_on"),
]
PATTERN_CONFIDENCE = 0.95
# An entity id of ours (``new_id("ent")``): a subject_id like this names an entity, never a person called so.
_ENTITY_ID = re.compile(r"^ent_[0-9a-f]{16}$")


@dataclass
class WriteResult:
    resolved: int = 0
    unresolved: int = 0
    rejected: int = 0
    duplicate: int = 0
    relation_ids: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def any(self) -> bool:
        return bool(self.resolved or self.unresolved or self.rejected or self.duplicate)

    def as_wire(self) -> dict[str, Any]:
        return {
            "resolved": self.resolved,
            "unresolved": self.unresolved,
            "rejected": self.rejected,
            "duplicate": self.duplicate,
            "relation_ids": list(self.relation_ids),
            "errors": list(self.errors),
        }


@dataclass(frozen=True)
class _Value:
    """One relation to write: endpoints by id or name, and its evidence."""

    source_id: str | None
    source_name: str | None
    target_id: str | None
    target_name: str | None
    relationship: str
    confidence: float
    span: tuple[int | None, int | None]
    kind: str
    method: str


def excerpt_hash(content: str, start: int | None, end: int | None) -> str:
    """sha256 of the span's text, or of the whole content (migration 0016 memorylayer_excerpt_hash agrees)."""
    text = content if start is None or end is None else content[start:end]
    return hashlib.sha256(text.encode()).hexdigest()


def _explicit(conn: Connection, memory: dict, inputs: list[EntityRelationInput]) -> list[_Value]:
    def typed(name: str | None, entity_type: str | None, entity_id: str | None) -> str | None:
        if entity_id or not name or not entity_type:
            return entity_id
        provenance = {"source": "relation_input", "source_memory_id": memory["id"]}
        return repo.upsert_entity(
            conn, memory["workspace_id"], name, entity_type, provenance=provenance,
            representative_memory_id=memory["id"],
        )["id"]  # fmt: skip

    inputs = [
        i.model_copy(
            update={
                "source_entity_id": typed(i.source_entity_name, i.source_entity_type, i.source_entity_id),
                "target_entity_id": typed(i.target_entity_name, i.target_entity_type, i.target_entity_id),
            }
        )
        for i in inputs
    ]
    return [
        _Value(
            i.source_entity_id,
            i.source_entity_name,
            i.target_entity_id,
            i.target_entity_name,
            i.relationship,
            i.confidence,
            (i.source_span_start, i.source_span_end),
            i.evidence_kind,
            i.extraction_method,
        )  # fmt: skip
        for i in inputs
    ]


def _patterns(content: str) -> list[_Value]:
    found = []
    for pattern, relationship in PATTERNS:
        for match in pattern.finditer(content):
            found.append(
                _Value(
                    None,
                    match.group(1),
                    None,
                    match.group(2),
                    relationship,
                    PATTERN_CONFIDENCE,
                    (match.start(), match.end()),
                    "pattern",
                    f"pattern:{relationship}",
                )  # fmt: skip
            )
    return found


def _materialize(conn: Connection, memory: dict, result: WriteResult) -> list[_Value]:
    """The profile's candidates with both ends upserted in the registry (the profile creates entities)."""
    profile = (memory.get("metadata") or {}).get("knowledge_work")
    if profile is None:
        return []
    candidates, errors = parse(profile)
    result.rejected += len(errors)
    result.errors.extend(errors)
    ids: dict[tuple, str | None] = {}

    def entity(ref: EntityRef, path: str) -> str | None:
        key = ref.key()
        if key not in ids:
            if ref.entity_id:
                known = repo.active_entity_ids(conn, memory["workspace_id"], [ref.entity_id])
                ids[key] = ref.entity_id if known else None
            else:
                provenance = {"source": "knowledge_work_metadata", "source_memory_id": memory["id"],
                              "metadata_path": path}  # fmt: skip
                if ref.external_ids:
                    provenance["external_ids"] = ref.external_ids
                ids[key] = repo.upsert_entity(
                    conn, memory["workspace_id"], ref.name, ref.entity_type, aliases=ref.aliases,
                    confidence=ref.confidence, provenance=provenance, external_ids=ref.external_ids,
                    representative_memory_id=memory["id"],
                )["id"]  # fmt: skip
        return ids[key]

    values = []
    for cand in candidates:
        values.append(_from_candidate(cand, entity(cand.source, cand.path), entity(cand.target, cand.path)))
    return values


def _from_candidate(cand: Candidate, source_id: str | None, target_id: str | None) -> _Value:
    return _Value(
        source_id, None if source_id else cand.source.name, target_id, None if target_id else cand.target.name,
        cand.relationship, min(cand.source.confidence, cand.target.confidence), (None, None), "adapter",
        f"metadata:{cand.path}"[:128],
    )  # fmt: skip


def write_for_memory(
    conn: Connection,
    memory: dict,
    inputs: list[EntityRelationInput],
    *,
    patterns: bool = True,
) -> WriteResult:
    """Write the explicit ``inputs``, the memory's profile and (``patterns``) its text's plain relations.
    ``memory`` is the stored row (id, workspace_id, content, metadata)."""
    result = WriteResult()
    workspace_id, content = memory["workspace_id"], memory["content"]
    values = _explicit(conn, memory, inputs) + _materialize(conn, memory, result)
    pattern_values = _patterns(content) if patterns else []
    # Names resolve only against existing entities (never created here), all in one statement.
    names = [n for v in values + pattern_values for n in (v.source_name, v.target_name) if n]
    by_name = repo.resolve_names(conn, [workspace_id], names) if names else {}
    given_ids = [i for v in values for i in (v.source_id, v.target_id) if i]
    live = repo.active_entity_ids(conn, workspace_id, given_ids) if given_ids else set()
    touched: list[str] = []

    def endpoint(entity_id: str | None, name: str | None) -> str | None:
        if entity_id:
            return entity_id if entity_id in live else None
        found = by_name.get(normalize_entity_name(name or ""))
        return found["id"] if found else None

    for value in values + [v for v in pattern_values if _both_known(v, by_name)]:
        canonical = canonicalize(value.relationship)
        if canonical is None:
            result.rejected += 1
            result.errors.append(f"unregistered relationship type: {value.relationship[:128]}")
            continue
        source, target = (
            endpoint(value.source_id, value.source_name),
            endpoint(value.target_id, value.target_name),
        )
        if source is None or target is None:
            result.unresolved += 1
            result.errors.append(f"unresolved endpoints for {canonical.relationship}")
            continue
        if canonical.reversed:
            source, target = target, source
        if canonical.symmetric and target < source:
            source, target = target, source
        if source == target:
            result.rejected += 1
            result.errors.append("self-relations are not allowed")
            continue
        start, end = value.span
        if start is not None and (end is None or end > len(content)):
            result.rejected += 1
            result.errors.append(f"invalid source span for {canonical.relationship}")
            continue
        relation_id = repo.upsert_relation(conn, workspace_id, source, target, canonical.relationship)
        stored = repo.upsert_evidence(
            conn, workspace_id, relation_id, memory["id"], kind=value.kind, span=(start, end),
            excerpt_hash=excerpt_hash(content, start, end), confidence=value.confidence, method=value.method,
        )  # fmt: skip
        if stored:
            result.resolved += 1
            touched.append(relation_id)
        else:
            result.duplicate += 1
        if relation_id not in result.relation_ids:
            result.relation_ids.append(relation_id)
    repo.refresh_relations(conn, touched)
    return result


def link_subject(conn: Connection, memory: dict) -> str | None:
    """The entity the memory is about, as the reference's accretion anchors ``subject_id``: an entity id is that
    entity (None when it is not an active one); a name resolves (name first, then alias, any kind) or creates a ``person`` of that name.
    The memory is then one of its members (members match ``subject_id`` by id or name). None without one."""
    subject = (memory.get("subject_id") or "").strip()
    workspace_id = memory["workspace_id"]
    if not subject or not normalize_entity_name(subject):
        return None
    if _ENTITY_ID.match(subject):
        return subject if repo.active_entity_ids(conn, workspace_id, [subject]) else None
    found = repo.resolve_names(conn, [workspace_id], [subject]).get(normalize_entity_name(subject))
    if found is not None:
        return str(found["id"])
    provenance = {"source": "subject_id", "source_memory_id": memory["id"]}
    return str(
        repo.upsert_entity(
            conn,
            workspace_id,
            subject,
            "person",
            provenance=provenance,
            representative_memory_id=memory["id"],
        )["id"]
    )


def _both_known(value: _Value, by_name: dict[str, dict]) -> bool:
    """Pattern matches are guesses: one whose names are not both entities is silently skipped, not counted."""
    return all(normalize_entity_name(n or "") in by_name for n in (value.source_name, value.target_name))


def needs_write(memory: dict, inputs: list[Any]) -> bool:
    """Cheap pre-check so plain memories cost no relation statements: inputs, a profile, or a pattern hit."""
    if inputs or (memory.get("metadata") or {}).get("knowledge_work") is not None:
        return True
    return any(p.search(memory["content"]) for p, _ in PATTERNS)
