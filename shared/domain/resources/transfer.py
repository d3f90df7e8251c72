"""Versioned resources in a workspace export and back: one NDJSON ``resource`` line per resource, its head and
its whole history; an import writes them as they were (ids, revisions, ETags, Idempotency-Keys, timestamps).

    >>> lines = list(export_items(db, "ws_a"))                     # doctest: +SKIP
    >>> import_items(db, "ws_b", [line["data"] for line in lines], tenant_id="_default")   # doctest: +SKIP
    {'imported': 3, 'skipped': 0, 'details': []}

A skill's line also carries its bundle files (``files``: path, MIME type, content in base64). Secrets (MCP
servers' ``env`` and ``headers`` values, data providers' passwords and tokens) are exported masked, as the API
answers them, unless ``secrets=True`` (the route allows that to a key that may write, asking explicitly).

A resource whose id or key is taken in the target workspace is skipped (nothing of it written); one that is not
a valid document of a served family, or whose parent (an observation's view) is not in the workspace, is reported
in ``details`` by its index. Parents are imported before their children, whatever the order of the lines.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shared.core.errors import InvalidInput
from shared.core.wire import iso
from shared.db import resources as repo
from shared.db import skill_files
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.domain.resources import data_providers, mcp_servers
from shared.domain.resources.catalog import family
from shared.domain.resources.skills import SKILLS, MimeType, file_row

EXPORT_PAGE = 200


class _Snapshot(BaseModel):
    model_config = ConfigDict(extra="ignore")

    kind: str = Field(max_length=200)
    id: str = Field(min_length=1, max_length=200)
    key: str = Field(min_length=1, max_length=200)
    schema_version: int = Field(ge=1)
    content: dict[str, Any]
    metadata: dict[str, Any] = Field(default_factory=dict)
    revision: int = Field(ge=1)
    etag: str = Field(min_length=1, max_length=300)
    created_by: str | None = Field(default=None, max_length=300)
    updated_by: str | None = Field(default=None, max_length=300)
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None = None


class _Revision(_Snapshot):
    action: Literal["create", "replace", "delete", "restore"]
    operation_id: str = Field(min_length=1, max_length=300)
    request_hash: str = Field(min_length=1, max_length=200)


class _File(BaseModel):
    model_config = ConfigDict(extra="ignore")

    path: str = Field(min_length=1, max_length=512)
    mime_type: MimeType = None
    content_b64: str


class ExportedResource(_Snapshot):
    revisions: list[_Revision] = Field(min_length=1)
    files: list[_File] = Field(default_factory=list, max_length=256)


def _file_out(row: dict[str, Any]) -> dict[str, Any]:
    content = base64.b64encode(bytes(row["content"])).decode()
    return {"path": row["path"], "mime_type": row["mime_type"], "content_b64": content}


def _file_rows(index: int, resource: ExportedResource) -> list[dict[str, Any]]:
    try:
        return [
            file_row(f.path, base64.b64decode(f.content_b64, validate=True), f.mime_type)
            for f in resource.files
        ]
    except (binascii.Error, ValueError, InvalidInput) as exc:
        raise InvalidInput(f"resources[{index}]: a bad skill file ({exc})", code="invalid_import") from exc


def _wire(row: dict[str, Any], secrets: bool) -> dict[str, Any]:
    out = {k: v for k, v in row.items() if k not in ("workspace_id", "tenant_id", "sequence")}
    for name in ("created_at", "updated_at", "deleted_at"):
        out[name] = iso(out[name])
    if not secrets:
        out["content"] = without_secrets(row["kind"], row["content"])
    return out


def without_secrets(kind: str, content: dict[str, Any]) -> dict[str, Any]:
    """A resource's content with its secret values masked (only the fields it has; other kinds as they are).

    >>> without_secrets("mcp_server", {"command": "x", "env": {"TOKEN": "t"}})
    {'command': 'x', 'env': {'TOKEN': '***'}}
    """
    masked: dict[str, Any] = {}
    if kind == mcp_servers.MCP_SERVERS.name:
        masked = {
            k: mcp_servers.mask(content[k]) for k in ("env", "headers") if isinstance(content.get(k), dict)
        }
    elif kind == data_providers.DATA_PROVIDERS.name and isinstance(content.get("connection_args"), dict):
        masked = {"connection_args": data_providers.mask_secrets(content["connection_args"])}
    return {**content, **masked} if masked else content


def export_items(db: Database, workspace_id: str, *, secrets: bool = False) -> Iterator[dict[str, Any]]:
    """Each resource of the workspace (tombstones too) with its revisions, oldest change first, in pages;
    secrets masked unless ``secrets``."""
    after: int | None = None
    while True:
        with db.connection() as conn:
            page = repo.export_page(conn, workspace_id, after=after, limit=EXPORT_PAGE)
            histories = [repo.history(conn, workspace_id, h["kind"], h["id"]) for h in page]
            files = {
                h["id"]: [
                    _file_out(f) for f in skill_files.listing(conn, workspace_id, h["id"], content=True)
                ]
                for h in page
                if h["kind"] == SKILLS.name
            }
        if not page:
            return
        after = page[-1]["sequence"]
        for head, history in zip(page, histories, strict=True):
            extra = {"files": files[head["id"]]} if head["id"] in files else {}
            revisions = [_wire(r, secrets) for r in history]
            yield {**_wire(head, secrets), "revisions": revisions, **extra}


def _validated(index: int, item: Any) -> ExportedResource:
    resource = ExportedResource.model_validate(item)
    found = family(resource.kind)
    if found is None:
        raise InvalidInput(f"resources[{index}]: no resource family {resource.kind!r}", code="invalid_import")
    model = found[0]
    fields = {**resource.content, "key": resource.key, "schema_version": resource.schema_version}
    model.model_validate({**fields, "metadata": resource.metadata})
    if any(r.id != resource.id or r.kind != resource.kind for r in resource.revisions):
        raise InvalidInput(f"resources[{index}]: a revision of another resource", code="invalid_import")
    if resource.files and resource.kind != SKILLS.name:
        raise InvalidInput(f"resources[{index}]: only a skill has files", code="invalid_import")
    return resource


def import_items(db: Database, workspace_id: str, items: list[Any], *, tenant_id: str) -> dict[str, Any]:
    """Write each exported resource into ``workspace_id``; counts and the refused ones (by index)."""
    imported, skipped = 0, 0
    details: list[dict[str, Any]] = []
    for index in sorted(range(len(items)), key=lambda i: _is_child(items[i])):
        try:
            resource = _validated(index, items[index])
            rows = _file_rows(index, resource)
        except (ValidationError, InvalidInput) as exc:
            details.append({"resource": index, "error": str(exc)[:500]})
            continue
        with db.transaction() as conn:
            ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
            if missing := _missing_parent(conn, workspace_id, resource.kind):
                error = f"resources[{index}]: its parent {missing} is not in the workspace"
                details.append({"resource": index, "error": error})
                continue
            written = _restore(conn, workspace_id, resource, rows, tenant_id)
        if written:
            imported += 1
        else:
            skipped += 1
    details.sort(key=lambda detail: detail["resource"])
    return {"imported": imported, "skipped": skipped, "details": details}


def restore_one(conn: Connection, workspace_id: str, item: Any, *, tenant_id: str) -> bool:
    """Write one exported resource in the caller's transaction; False if its id or key is taken there. A
    resource that is not valid raises ``InvalidInput`` (the caller's import then writes nothing). A whole
    workspace's file brings every parent in the same transaction, so no parent is looked up here."""
    try:
        resource = _validated(0, item)
    except ValidationError as exc:
        raise InvalidInput(f"a resource that is not valid: {str(exc)[:300]}", code="invalid_import") from exc
    return _restore(conn, workspace_id, resource, _file_rows(0, resource), tenant_id)


def _restore(
    conn: Connection,
    workspace_id: str,
    resource: ExportedResource,
    rows: list[dict[str, Any]],
    tenant_id: str,
) -> bool:
    place = {"workspace_id": workspace_id, "tenant_id": tenant_id}
    head = {**resource.model_dump(exclude={"revisions", "files"}), **place}
    revisions = [{**r.model_dump(), **place} for r in resource.revisions]
    written = repo.restore_exported(conn, head, revisions)
    for row in rows if written is not None else []:
        skill_files.upsert(conn, workspace_id, resource.id, row)
    return written is not None


def _is_child(item: Any) -> bool:
    """Whether an import line is a child resource (imported after every parent)."""
    found = family(str(item.get("kind", ""))) if isinstance(item, dict) else None
    return found is not None and found[1] is not None


def _missing_parent(conn: Connection, workspace_id: str, kind_name: str) -> str | None:
    """The id of a child's parent when the workspace does not hold it (deleted or not); None otherwise, and for
    a kind without a parent."""
    found = family(kind_name)
    if found is None or found[1] is None or found[2] is None:
        return None
    present = repo.get(conn, workspace_id, found[1].name, found[2], include_deleted=True)
    return None if present is not None else found[2]
