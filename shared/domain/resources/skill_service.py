"""Skills on the resource mechanism: the manifest is a versioned resource (``SKILLS``), its bundle files rows
beside it. The reference's unconditional writes (create without headers, PUT /v1/skills/{id}, DELETE) are the
same conditional writes with an Idempotency-Key made here and the current ETag: every write is still a revision.

    >>> skills = SkillService(db, resources)                                        # doctest: +SKIP
    >>> written = skills.create("ws_a", SkillCreate(name="pdf", description="PDFs"), None, actor=None,
    ...                         tenant_id="_default")                               # doctest: +SKIP
"""

from __future__ import annotations

import base64
import binascii
import uuid
from dataclasses import dataclass
from typing import Any

from shared.core.errors import InvalidInput
from shared.db import skill_files as files_repo
from shared.db.pool import Database
from shared.domain.resources import skills as sk
from shared.domain.resources.service import Precondition, ResourceService, Written

SCAN_LIMIT = 1000


@dataclass(frozen=True)
class Resolved:
    skill: dict[str, Any] | None
    candidates: list[dict[str, Any]]


def _auto(actor: str | None, etag: str) -> Precondition:
    """The precondition of an unconditional write: a fresh Idempotency-Key, the ETag it read."""
    return Precondition(f"auto:{uuid.uuid4().hex}", etag, actor)


class SkillService:
    def __init__(self, db: Database, resources: ResourceService) -> None:
        self.db = db
        self.resources = resources

    # ------------------------------------------------------------------------------------------- manifest writes
    def create(
        self,
        workspace_id: str,
        body: sk.SkillCreate,
        pre: Precondition | None,
        *,
        actor: str | None,
        tenant_id: str,
    ) -> Written:
        """Create a skill (and, unconditionally, its inline files: validated before anything is written)."""
        if pre is not None and body.files:
            raise InvalidInput(
                "a conditional create takes no bundle files: upload them after the manifest",
                code="conditional_create_with_files",
            )
        rows = [sk.file_row(f.path, f.content.encode(), f.mime_type) for f in body.files]
        if len({row["path"] for row in rows}) != len(rows):
            raise InvalidInput("bundle file paths must be unique", code="duplicate_skill_file_path")
        written = self.resources.create(
            sk.SKILLS, workspace_id, body.name, body.document(), pre or _auto(actor, "*"), tenant_id=tenant_id
        )
        if rows and not written.replayed:
            with self.db.transaction() as conn:
                for row in rows:
                    files_repo.upsert(conn, workspace_id, written.row["id"], row)
        return written

    def update(self, workspace_id: str, skill_id: str, body: sk.SkillUpdate, *, actor: str | None) -> Written:
        head = self.resources.get(sk.SKILLS, workspace_id, skill_id)
        return self.resources.replace(
            sk.SKILLS, workspace_id, skill_id, sk.updated(head, body), _auto(actor, head["etag"])
        )

    def replace(self, workspace_id: str, skill_id: str, body: sk.SkillReplace, pre: Precondition) -> Written:
        head = self.resources.get(sk.SKILLS, workspace_id, skill_id, include_deleted=True)
        return self.resources.replace(sk.SKILLS, workspace_id, skill_id, sk.replaced(head, body), pre)

    def delete_now(self, workspace_id: str, skill_id: str, *, actor: str | None) -> Written:
        """The unconditional delete: a tombstone like the conditional one (files kept for a restore)."""
        head = self.resources.get(sk.SKILLS, workspace_id, skill_id)
        return self.resources.delete(sk.SKILLS, workspace_id, skill_id, _auto(actor, head["etag"]))

    # --------------------------------------------------------------------------------------------------- reads
    def get(self, workspace_id: str, skill_id: str, *, include_deleted: bool = False) -> dict[str, Any]:
        return self.resources.get(sk.SKILLS, workspace_id, skill_id, include_deleted=include_deleted)

    def listing(
        self, workspace_id: str, *, name: str | None, enabled: bool | None, limit: int, offset: int
    ) -> list[dict[str, Any]]:
        """Live skills, most recently changed first, filtered by name and enabled; offset then limit."""

        def matches(row: dict[str, Any]) -> bool:
            content = row["content"]
            return (name is None or row["key"] == name) and (
                enabled is None or content.get("enabled") == enabled
            )

        page = self.resources.filtered_page(
            sk.SKILLS,
            workspace_id,
            limit=offset + limit,
            matches=matches,
            filter_scope=repr((name, enabled)),
            scan_limit=max(offset + limit, SCAN_LIMIT),
        )
        return page.rows[offset:]

    def resolve(self, workspace_id: str, body: sk.SkillResolve) -> Resolved:
        """By name: that skill (live, enabled) or none. By query: the skills sharing most of its words."""
        if not body.name and not body.query:
            raise InvalidInput("Either 'name' or 'query' must be provided", code="name_or_query_required")
        if body.name:
            page = self.resources.filtered_page(
                sk.SKILLS,
                workspace_id,
                limit=1,
                matches=lambda row: row["key"] == body.name and row["content"].get("enabled", True),
                filter_scope=f"resolve:{body.name}",
                scan_limit=SCAN_LIMIT,
            )
            return Resolved(page.rows[0] if page.rows else None, [])
        wanted = sk.words(body.query or "")
        page = self.resources.page(sk.SKILLS, workspace_id, limit=SCAN_LIMIT)
        scored = [
            (sk.relevance(row, wanted), row) for row in page.rows if row["content"].get("enabled", True)
        ]
        ranked = [row for score, row in sorted(scored, key=lambda pair: -pair[0]) if score > 0][:10]
        return Resolved(ranked[0] if ranked else None, ranked)

    def bundle_hashes(self, workspace_id: str, rows: list[dict[str, Any]]) -> dict[str, str]:
        with self.db.connection() as conn:
            found = files_repo.hashes(conn, workspace_id, [row["id"] for row in rows])
        return {row["id"]: sk.bundle_hash(found.get(row["id"], [])) for row in rows}

    # ---------------------------------------------------------------------------------------------------- files
    def files(self, workspace_id: str, skill_id: str, *, content: bool = False) -> tuple[dict, list[dict]]:
        head = self.get(workspace_id, skill_id)
        with self.db.connection() as conn:
            return head, files_repo.listing(conn, workspace_id, skill_id, content=content)

    def file(self, workspace_id: str, skill_id: str, path: str) -> dict[str, Any]:
        self.get(workspace_id, skill_id)
        with self.db.connection() as conn:
            row = files_repo.get(conn, workspace_id, skill_id, path)
        if row is None:
            raise sk.file_not_found(path)
        return row

    def file_content(self, workspace_id: str, skill_id: str, path: str) -> dict[str, Any] | None:
        """One file with its bytes, the skill not looked up again (a bundle streams its files one by one
        after the skill was found); None when the file went away meanwhile."""
        with self.db.connection() as conn:
            return files_repo.get(conn, workspace_id, skill_id, path)

    def put_file(
        self, workspace_id: str, skill_id: str, path: str, content_b64: str | None, mime_type: str | None
    ) -> dict[str, Any]:
        if not content_b64:
            raise InvalidInput("content_b64 is required", code="content_b64_required")
        try:
            content = base64.b64decode(content_b64, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise InvalidInput("content_b64 is not base64", code="invalid_base64") from exc
        row = sk.file_row(path, content, mime_type)
        self.get(workspace_id, skill_id)
        with self.db.transaction() as conn:
            if (
                len(files_repo.listing(conn, workspace_id, skill_id)) >= sk.MAX_FILES
                and files_repo.get(conn, workspace_id, skill_id, path) is None
            ):
                raise InvalidInput("a skill has at most 256 files", code="too_many_skill_files")
            return files_repo.upsert(conn, workspace_id, skill_id, row)

    def delete_file(self, workspace_id: str, skill_id: str, path: str) -> None:
        """Remove a file; one already absent is no error (a mirror prunes without racing)."""
        self.get(workspace_id, skill_id)
        with self.db.transaction() as conn:
            files_repo.delete(conn, workspace_id, skill_id, path)
