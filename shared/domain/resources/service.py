"""The versioned-resource mechanism: typed documents with revisions, optimistic concurrency and idempotent writes.

    >>> svc = ResourceService(db)                                                          # doctest: +SKIP
    >>> written = svc.create(NOTES, "ws_a", "style", Document(1, {"title": "t"}, {}),
    ...                      Precondition("op-1", "*", actor=None), tenant_id="_default")  # doctest: +SKIP
    >>> svc.replace(NOTES, "ws_a", written.row["id"], Document(1, {"title": "u"}, {}),
    ...             Precondition("op-2", written.row["etag"], actor=None))                 # doctest: +SKIP

Every write names an ``Idempotency-Key`` and the ETag it expects (``*`` for a create): a retry with the same key
and the same request answers the revision it made (``replayed``), the same key with another request is a 409, a
stale ETag a 412. A delete leaves a tombstone that ``restore`` revives; every accepted write is a revision. A
family (prompt notes, agent specifications, ...) is a ``Kind`` plus its own fields: it never touches SQL.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from shared.core import metering
from shared.core.errors import Conflict, NotFound, PreconditionFailed
from shared.db import resources as repo
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.domain.resources import tokens


@dataclass(frozen=True)
class Kind:
    """One family of resources: its stored kind (may carry a parent, e.g. one view's observations), the noun its
    messages use, and the prefix of its ids."""

    name: str
    label: str
    id_prefix: str

    @property
    def not_found_code(self) -> str:
        return f"{self.label.replace(' ', '_').lower()}_not_found"

    def not_found(self, resource_id: str) -> NotFound:
        return NotFound(f"{self.label} {resource_id} not found", code=self.not_found_code)


@dataclass(frozen=True)
class Document:
    """What a write stores: the family's fields (``content``), their schema version and free metadata.
    ``sent``: the content as the client sent it, when the server fills in values (a default timestamp): the
    request hash is taken over it, so a retry still matches its first attempt."""

    schema_version: int
    content: dict[str, Any]
    metadata: dict[str, Any]
    sent: dict[str, Any] | None = None


@dataclass(frozen=True)
class Precondition:
    """A write's conditions: its Idempotency-Key, the ETag it expects (``*``: none yet) and who writes."""

    operation_id: str
    expected_etag: str
    actor: str | None


@dataclass(frozen=True)
class Written:
    row: dict[str, Any]
    replayed: bool = False


@dataclass(frozen=True)
class Page:
    rows: list[dict[str, Any]]
    next_page_token: str | None
    scanned: int = 0
    truncated: bool = False


def _state(kind: Kind, key: str, doc: Document, deleted: bool) -> dict[str, Any]:
    return {
        "kind": kind.name,
        "key": key,
        "schema_version": doc.schema_version,
        "content": doc.content,
        "metadata": doc.metadata,
        "deleted": deleted,
    }


def _request_hash(action: str, kind: Kind, target: str, pre: Precondition, doc: Document | None) -> str:
    parts: dict[str, Any] = {"action": action, "kind": kind.name, "target": target, "etag": pre.expected_etag}
    if doc is not None:
        content = doc.content if doc.sent is None else doc.sent
        parts |= {"schema_version": doc.schema_version, "content": content, "metadata": doc.metadata}
    return tokens.canonical_hash(parts)


def _document(row: dict[str, Any]) -> Document:
    return Document(row["schema_version"], row["content"], row["metadata"])


class ResourceService:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------------------------------------ writes
    def create(
        self, kind: Kind, workspace_id: str, key: str, doc: Document, pre: Precondition, *, tenant_id: str
    ) -> Written:
        if pre.expected_etag != "*":
            raise PreconditionFailed("create requires If-None-Match: *", code="if_none_match_not_star")
        request_hash = _request_hash("create", kind, key, pre, doc)
        with self.db.transaction() as conn:
            if replay := self._replay(conn, kind, workspace_id, pre, request_hash):
                return replay
            ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
            head = {
                "workspace_id": workspace_id,
                "kind": kind.name,
                "id": f"{kind.id_prefix}_{uuid.uuid4().hex}",
                "key": key,
                "tenant_id": tenant_id,
                "schema_version": doc.schema_version,
                "content": doc.content,
                "metadata": doc.metadata,
                "revision": 1,
                "etag": tokens.etag(1, _state(kind, key, doc, deleted=False)),
                "created_by": pre.actor,
                "updated_by": pre.actor,
            }
            row = repo.insert(conn, head)
            # A retry racing its first attempt waited for it on the key: it finds its revision now.
            if row is None and (replay := self._replay(conn, kind, workspace_id, pre, request_hash)):
                return replay
            if row is None:
                raise Conflict(f"a {kind.label} with key {key!r} already exists", code="resource_key_exists")
            repo.add_revision(conn, row, "create", pre.operation_id, request_hash)
        return Written(row)

    def replace(
        self,
        kind: Kind,
        workspace_id: str,
        resource_id: str,
        doc: Document,
        pre: Precondition,
        *,
        check: Callable[[dict[str, Any]], None] | None = None,
    ) -> Written:
        """Replace a live resource's document; ``check`` may refuse the change given the current head."""
        return self._write(kind, workspace_id, resource_id, "replace", pre, doc, check=check)

    def delete(self, kind: Kind, workspace_id: str, resource_id: str, pre: Precondition) -> Written:
        """Tombstone a live resource (its id and key stay taken; ``restore`` revives it)."""
        return self._write(kind, workspace_id, resource_id, "delete", pre, None)

    def restore(self, kind: Kind, workspace_id: str, resource_id: str, pre: Precondition) -> Written:
        """Revive a tombstone with the document it had."""
        return self._write(kind, workspace_id, resource_id, "restore", pre, None)

    def purge(self, kind: Kind, workspace_id: str, resource_id: str) -> None:
        """Remove a resource and its history for good (a family without tombstones, e.g. MCP servers): its id
        and key are free again."""
        with self.db.transaction() as conn:
            if not repo.purge(conn, workspace_id, kind.name, resource_id):
                raise kind.not_found(resource_id)

    def _write(
        self,
        kind: Kind,
        workspace_id: str,
        resource_id: str,
        action: str,
        pre: Precondition,
        doc: Document | None,
        *,
        check: Callable[[dict[str, Any]], None] | None = None,
    ) -> Written:
        request_hash = _request_hash(action, kind, resource_id, pre, doc)
        with self.db.transaction() as conn:
            head = repo.lock(conn, workspace_id, kind.name, resource_id)
            # After the lock: a retry racing its first attempt waits for it, then finds its revision.
            if replay := self._replay(conn, kind, workspace_id, pre, request_hash):
                return replay
            if head is None or (head["deleted_at"] is not None) != (action == "restore"):
                if head is not None and action == "restore":
                    raise Conflict(f"{kind.label} {resource_id} is not deleted", code="resource_not_deleted")
                raise kind.not_found(resource_id)
            if pre.expected_etag != head["etag"]:
                raise PreconditionFailed(
                    "ETag does not match the current revision", code="etag_mismatch", etag=head["etag"]
                )
            if check is not None:
                check(head)
            new = doc or _document(head)
            revision = head["revision"] + 1
            changes: dict[str, Any] = {
                "schema_version": new.schema_version,
                "content": new.content,
                "metadata": new.metadata,
                "revision": revision,
                "etag": tokens.etag(revision, _state(kind, head["key"], new, deleted=action == "delete")),
                "updated_by": pre.actor,
            }
            if action == "delete":
                changes["deleted_at"] = datetime.now(UTC)
            elif action == "restore":
                changes["deleted_at"] = None
            row = repo.update(conn, head, changes)
            repo.add_revision(conn, row, action, pre.operation_id, request_hash)
        return Written(row)

    @staticmethod
    def _replay(
        conn: Connection, kind: Kind, workspace_id: str, pre: Precondition, request_hash: str
    ) -> Written | None:
        found = repo.operation(conn, workspace_id, kind.name, pre.operation_id)
        if found is None:
            return None
        if found["request_hash"] != request_hash:
            raise Conflict(
                "idempotency key was already used for a different request", code="idempotency_key_reused"
            )
        metering.replayed()
        return Written(found, replayed=True)

    # ------------------------------------------------------------------------------------------------- reads
    def get(
        self, kind: Kind, workspace_id: str, resource_id: str, *, include_deleted: bool = False
    ) -> dict[str, Any]:
        with self.db.connection() as conn:
            row = repo.get(conn, workspace_id, kind.name, resource_id, include_deleted=include_deleted)
        if row is None:
            raise kind.not_found(resource_id)
        return row

    def get_by_key(
        self, kind: Kind, workspace_id: str, key: str, *, include_deleted: bool = False
    ) -> dict[str, Any]:
        """A resource by its stable key (how views and skills are addressed)."""
        with self.db.connection() as conn:
            row = repo.get_by_key(conn, workspace_id, kind.name, key, include_deleted=include_deleted)
        if row is None:
            raise kind.not_found(key)
        return row

    def page(
        self,
        kind: Kind,
        workspace_id: str,
        *,
        limit: int,
        page_token: str | None = None,
        include_deleted: bool = False,
    ) -> Page:
        """Heads, most recently changed first."""
        scope = tokens.cursor_scope("heads", workspace_id, kind.name, str(include_deleted))
        before = tokens.decode_cursor(page_token, scope) if page_token else None
        with self.db.connection() as conn:
            rows = repo.heads(
                conn,
                workspace_id,
                kind.name,
                limit=limit + 1,
                before_sequence=before,
                include_deleted=include_deleted,
            )
        more, rows = len(rows) > limit, rows[:limit]
        token = tokens.encode_cursor(rows[-1]["sequence"], scope) if more else None
        return Page(rows, token, scanned=len(rows))

    def filtered_page(
        self,
        kind: Kind,
        workspace_id: str,
        *,
        limit: int,
        matches: Callable[[dict[str, Any]], bool],
        filter_scope: str,
        page_token: str | None = None,
        scan_limit: int = 1000,
    ) -> Page:
        """A page of the heads ``matches`` accepts, scanning at most ``scan_limit`` of them: the token continues
        after the last head looked at (not the last match), so sparse filters still make progress; ``truncated``
        says the scan stopped before the page filled."""
        scope = tokens.cursor_scope("filtered-heads", workspace_id, kind.name, filter_scope)
        before = tokens.decode_cursor(page_token, scope) if page_token else None
        with self.db.connection() as conn:
            candidates = repo.heads(
                conn, workspace_id, kind.name, limit=scan_limit + 1, before_sequence=before
            )
        source_more, candidates = len(candidates) > scan_limit, candidates[:scan_limit]
        found: list[dict[str, Any]] = []
        inspected = 0
        for row in candidates:
            inspected += 1
            if matches(row):
                found.append(row)
                if len(found) == limit:
                    break
        stopped_early = inspected < len(candidates)
        more = stopped_early or source_more
        token = (
            tokens.encode_cursor(candidates[inspected - 1]["sequence"], scope) if more and inspected else None
        )
        truncated = more and len(found) < limit and not stopped_early
        return Page(found, token, scanned=inspected, truncated=truncated)

    def revisions(
        self, kind: Kind, workspace_id: str, resource_id: str, *, limit: int, page_token: str | None = None
    ) -> Page:
        """A resource's revisions (tombstoned ones too), newest first."""
        scope = tokens.cursor_scope("revisions", workspace_id, kind.name, resource_id)
        before = tokens.decode_cursor(page_token, scope) if page_token else None
        with self.db.connection() as conn:
            if repo.get(conn, workspace_id, kind.name, resource_id, include_deleted=True) is None:
                raise kind.not_found(resource_id)
            rows = repo.revisions(
                conn, workspace_id, kind.name, resource_id, limit=limit + 1, before_sequence=before
            )
        more, rows = len(rows) > limit, rows[:limit]
        token = tokens.encode_cursor(rows[-1]["sequence"], scope) if more else None
        return Page(rows, token, scanned=len(rows))
