"""Connector envelopes: an allow-list of source fields mapped onto a ``knowledge_work`` profile.

    >>> meta = normalize({"connector_type": "jira", "connector_record": {"key": "PLAT-77",
    ...     "fields": {"summary": "Login fails", "assignee": {"displayName": "Ann Lee", "accountId": "a1"}}}})
    >>> meta["knowledge_work"]["subject"]["name"], meta["knowledge_work"]["assignee"]["name"]
    ('Login fails', 'Ann Lee')

Only a *declared* envelope is read: ``connector_type``, ``source_kind`` or ``connector_record`` in the metadata,
or a connector type passed by an adapter (email). Unlike the reference, a bare ``knowledge_work`` profile does
not license reading undeclared top-level fields (``user``, ``team``, ``tags`` …): such metadata is stored as
given and never interpreted. A vendor's identity ``type`` (GitHub's ``"User"``) is not an entity type either.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from shared.core.names import ENTITY_TYPES, normalize_entity_type

DECLARATIONS = ("connector_type", "source_kind", "connector_record")
SUBJECT_PATHS = (
    "title", "summary", "name", "subject", "fields.summary", "fields.title", "github_title", "filename",
    "source_path",
)  # fmt: skip
RECORD_ID_PATHS = (
    "record_id", "external_id", "key", "number", "id", "fields.key", "github_number", "gdrive_file_id",
    "slack_message_id", "teams_message_id", "message_id",
)  # fmt: skip
RECORD_KIND_PATHS = ("record_type", "object_type", "item_type", "kind", "github_type", "type")
# profile field -> (default entity type, source paths): the reference's allow-list (knowledge_work.py l.76-147).
PROFILE_PATHS: dict[str, tuple[str, tuple[str, ...]]] = {
    "owner": ("person", ("owner", "owners", "owned_by", "fields.owner", "github_owner")),
    "assignee": (
        "person",
        (
            "assignee",
            "assignees",
            "assigned_to",
            "responsible",
            "fields.assignee",
            "fields.assignees",
            "github_assignees",
        ),
    ),
    "author": (
        "person",
        (
            "author",
            "authors",
            "creator",
            "created_by",
            "createdBy",
            "fields.creator",
            "fields.reporter",
            "reporter",
            "user",
            "sender",
            "from",
            "github_author",
            "slack_sender",
            "teams_sender",
        ),
    ),
    "contributor": ("person", ("contributor", "contributors", "collaborators", "fields.contributors")),
    "reviewer": (
        "person",
        (
            "reviewer",
            "reviewers",
            "reviewed_by",
            "requested_reviewers",
            "fields.reviewers",
            "github_reviewers",
        ),
    ),
    "approver": ("person", ("approver", "approvers", "approved_by", "fields.approvers", "github_approvers")),
    "decision_maker": (
        "person",
        ("decision_maker", "decision_makers", "decided_by", "fields.decision_maker"),
    ),
    "project": (
        "project",
        ("project", "projects", "fields.project", "repository", "repo", "github_repo", "space", "workspace"),
    ),
    "organization": ("org", ("organization", "organizations", "org", "team", "fields.organization")),
    "part_of": ("work_item", ("part_of", "parent", "parent_item", "fields.parent")),
    "member_of": ("org", ("member_of", "membership", "fields.member_of")),
    "depends_on": (
        "work_item",
        (
            "depends_on",
            "dependencies",
            "requires",
            "prerequisites",
            "fields.depends_on",
            "fields.dependencies",
        ),
    ),
    "blocks": ("work_item", ("blocks", "fields.blocks")),
    "blocked_by": ("work_item", ("blocked_by", "blockers", "fields.blocked_by", "fields.blockers")),
    "references": ("artifact", ("references", "cites", "related_documents", "fields.references")),
    "supersedes": (
        "artifact",
        ("supersedes", "replaces", "previous_version", "fields.supersedes", "fields.replaces"),
    ),
    "based_on": ("artifact", ("based_on", "basis", "source_documents", "fields.based_on")),
    "affects": (
        "concept",
        (
            "affects",
            "affected_resources",
            "components",
            "component",
            "service",
            "services",
            "fields.affects",
            "fields.components",
        ),
    ),
    "supports": ("concept", ("supports", "evidence_for", "fields.supports")),
    "supported_by": ("artifact", ("supported_by", "evidence", "fields.supported_by")),
    "contradicts": ("concept", ("contradicts", "conflicts_with", "fields.contradicts")),
    "about": ("topic", ("about", "topics", "topic", "labels", "tags", "fields.labels", "github_labels")),
}
# Profile keys that already state a field (the explicit profile wins, never overwritten).
PROFILE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "owner": ("owner", "owners", "owned_by"), "assignee": ("assignee", "assignees", "assigned_to", "responsible"),
    "author": ("author", "authors", "creator", "creators", "created_by"),
    "contributor": ("contributor", "contributors"), "reviewer": ("reviewer", "reviewers", "reviewed_by"),
    "approver": ("approver", "approvers", "approved_by"),
    "decision_maker": ("decision_maker", "decision_makers", "decided_by"),
    "project": ("project", "projects"), "organization": ("organization", "organizations"),
    "depends_on": ("depends_on", "dependencies"), "supersedes": ("supersedes", "replaces"),
    "based_on": ("based_on", "basis"), "about": ("about", "topics"),
}  # fmt: skip
QUALIFIER_PATHS: dict[str, tuple[str, ...]] = {
    "status": ("status", "state", "fields.status", "github_state"),
    "role": ("role", "fields.role"),
    "valid_from": ("valid_from", "start_at", "start_date", "fields.start_date"),
    "valid_to": ("valid_to", "due_at", "due_date", "end_date", "fields.due_date"),
    "source_created_at": ("created_at", "created", "createdDateTime", "fields.created"),
    "source_updated_at": ("updated_at", "updated", "modifiedTime", "fields.updated"),
}
IDENTITY_WRAPPERS = ("user", "account", "person", "actor")
NAME_KEYS = (
    "name", "display_name", "displayName", "full_name", "title", "label", "username", "login", "emailAddress",
    "email", "mail", "value",
)  # fmt: skip
ALIAS_KEYS = ("username", "login", "emailAddress", "email", "mail")
EXTERNAL_ID_KEYS = ("id", "accountId", "account_id", "user_id", "key")
SENTINELS = {"", "none", "null", "n/a", "na", "unknown", "unassigned"}
WORK_ITEM_KINDS = {
    "issue", "task", "ticket", "incident", "change_request", "code_review", "pull_request", "pr", "bug", "story",
}  # fmt: skip
PROJECT_KINDS = {"project", "program", "repository", "repo"}
DECISION_KINDS = {"decision", "architecture_decision", "adr"}

_LOOSE = re.compile(r"[^a-z0-9]")
_SOURCE_KEY = re.compile(r"[^a-z0-9_]+")


def declared(metadata: dict[str, Any]) -> bool:
    """Whether the metadata declares a connector envelope (the only metadata this module ever reads)."""
    return any(metadata.get(k) not in (None, "", {}) for k in DECLARATIONS)


def _get(root: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(root, dict):
            return None
        if part in root:
            root = root[part]
            continue
        loose = _LOOSE.sub("", part.casefold())
        root = next((v for k, v in root.items() if _LOOSE.sub("", str(k).casefold()) == loose), None)
    return root


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _first(roots: list[Any], paths: tuple[str, ...]) -> Any:
    for root in roots:
        for path in paths:
            value = _get(root, path)
            if not _empty(value):
                return value
    return None


def _identity(value: Any, default_type: str, source: str, warnings: list[str], path: str) -> dict | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str):
        if value.strip().casefold() in SENTINELS:
            warnings.append(f"{path}: empty or placeholder value dropped")
            return None
        return {"name": value.strip(), "type": default_type}
    if not isinstance(value, dict):
        warnings.append(f"{path}: unsupported value dropped")
        return None
    for wrapper in IDENTITY_WRAPPERS:
        if isinstance(value.get(wrapper), dict):
            value = value[wrapper]
            break
    name = next(
        (value[k].strip() for k in NAME_KEYS if isinstance(value.get(k), str) and value[k].strip()), ""
    )
    if name.casefold() in SENTINELS:
        warnings.append(f"{path}: nameless object dropped")
        return None
    # Only an explicit entity_type, or a ``type`` that is one of our kinds: vendor types ("User", "Bot") are
    # account kinds, not entity kinds, and would split one person into several entities.
    given = value.get("entity_type")
    if not isinstance(given, str) and isinstance(value.get("type"), str):
        given = value["type"] if normalize_entity_type(value["type"]) in ENTITY_TYPES else None
    entity_type = (normalize_entity_type(given) if isinstance(given, str) else None) or default_type
    aliases = value.get("aliases", [])
    aliases = [aliases] if isinstance(aliases, str) else [a for a in aliases if isinstance(a, str)]
    aliases += [value[k] for k in ALIAS_KEYS if isinstance(value.get(k), str) and value[k] != name]
    ref: dict[str, Any] = {"name": name, "type": entity_type}
    if aliases:
        ref["aliases"] = list(dict.fromkeys(aliases))
    external = dict(value["external_ids"]) if isinstance(value.get("external_ids"), dict) else {}
    ident = next((value[k] for k in EXTERNAL_ID_KEYS if isinstance(value.get(k), str | int)), None)
    if ident is not None:
        external.setdefault(source, str(ident))
    if external:
        ref["external_ids"] = external
    if isinstance(value.get("confidence"), int | float):
        ref["confidence"] = value["confidence"]
    return ref


def _refs(value: Any, default_type: str, source: str, warnings: list[str], path: str) -> Any:
    items = value if isinstance(value, list) else [value]
    out: list[dict] = []
    seen: set[tuple[str, str]] = set()
    for i, item in enumerate(items):
        ref = _identity(
            item, default_type, source, warnings, f"{path}[{i}]" if isinstance(value, list) else path
        )
        if ref and (ref["type"], ref["name"].casefold()) not in seen:
            seen.add((ref["type"], ref["name"].casefold()))
            out.append(ref)
    return None if not out else out[0] if len(out) == 1 else out


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime | date) else value


def subject_type_for(kind: str) -> str:
    if kind in WORK_ITEM_KINDS:
        return "work_item"
    if kind in PROJECT_KINDS:
        return "project"
    if kind in DECISION_KINDS:
        return "decision"
    return "artifact"


def normalize(
    metadata: dict[str, Any],
    *,
    connector_type: str | None = None,
    subject_name: str | None = None,
    subject_type: str | None = None,
    record_id: str | None = None,
) -> dict[str, Any]:
    """The metadata with a ``knowledge_work`` profile filled from a declared envelope; unchanged otherwise."""
    if connector_type is None and not declared(metadata):
        return metadata
    profile_in = metadata.get("knowledge_work")
    if profile_in is not None and not isinstance(profile_in, dict):
        return metadata  # the malformed profile is reported by the writer as rejected
    record = metadata.get("connector_record")
    roots = [r for r in (record, metadata) if isinstance(r, dict)]
    warnings: list[str] = []
    ctype = connector_type or _first(roots, ("connector_type", "source_kind", "provider", "source"))
    ctype = str(ctype).casefold().strip() if not _empty(ctype) else "generic"
    source = _SOURCE_KEY.sub("_", ctype).strip("_") or "generic"
    profile: dict[str, Any] = dict(profile_in or {})
    mapped: list[str] = []

    raw_kind = _first(roots, RECORD_KIND_PATHS)
    kind = normalize_entity_type(str(raw_kind)) if isinstance(raw_kind, str | int) else None
    kind = kind or normalize_entity_type(ctype) or "generic"
    if source == "github":
        kind = {"pr": "code_review", "pull_request": "code_review", "readme": "document"}.get(kind, kind)

    if "subject" not in profile:
        name = subject_name or _first(roots, SUBJECT_PATHS)
        if isinstance(name, str | int) and str(name).strip():
            subject: dict[str, Any] = {
                "name": str(name).strip(),
                "type": subject_type or subject_type_for(kind),
            }
            rid = record_id or _first(roots, RECORD_ID_PATHS)
            if isinstance(rid, str | int) and str(rid).strip() and str(rid).strip() != subject["name"]:
                rid = str(rid).strip()
                subject["external_ids"] = {source: rid}
                repo = _first(roots, ("github_repo", "repository", "repo")) if source == "github" else None
                # A bare GitHub number ("42") names a different PR in every repository: only repo#42 is an alias.
                subject["aliases"] = [f"{repo}#{rid}"] if isinstance(repo, str) and repo else [rid]
            profile["subject"] = subject
            mapped.append("subject")

    found_relation = False
    for fieldname, (default_type, paths) in PROFILE_PATHS.items():
        if any(k in profile for k in PROFILE_SYNONYMS.get(fieldname, (fieldname,))):
            continue
        value = _first(roots, paths)
        if _empty(value):
            continue
        refs = _refs(value, default_type, source, warnings, fieldname)
        if refs is not None:
            profile[fieldname] = refs
            mapped.append(fieldname)
            found_relation = True
    for fieldname, paths in QUALIFIER_PATHS.items():
        value = _first(roots, paths)
        if fieldname not in profile and not _empty(value):
            profile[fieldname] = _iso(value)
            mapped.append(fieldname)

    if source in ("email", "mail") and "relations" not in profile:
        sender = _first(roots, ("sender", "from"))
        recipients = _first(roots, ("to", "recipients"))
        sender_ref = _refs(sender, "person", source, warnings, "sender") if not _empty(sender) else None
        to_refs = _refs(recipients, "person", source, warnings, "to") if not _empty(recipients) else None
        if isinstance(sender_ref, dict) and to_refs:
            to_list = to_refs if isinstance(to_refs, list) else [to_refs]
            sent = [
                {"source": sender_ref, "relationship": "sent_to", "target": t}
                for t in to_list
                if t["name"].casefold() != sender_ref["name"].casefold()
            ]
            if sent:
                profile["relations"] = sent
                mapped.append("relations")
                found_relation = True

    out = dict(metadata)
    if connector_type is not None:
        out.setdefault("connector_type", connector_type)
    if profile_in is not None or ("subject" in profile and found_relation):
        out["knowledge_work"] = profile
    else:
        if found_relation:
            warnings.append("relation fields were ignored because no subject could be identified")
        mapped = []
    if mapped or warnings:
        note: dict[str, Any] = {"version": "1.0", "connector_type": ctype, "record_kind": kind,
                                "mapped_fields": mapped}  # fmt: skip
        if warnings:
            note["warnings"] = warnings
        out.setdefault("knowledge_work_normalization", note)
    return out
