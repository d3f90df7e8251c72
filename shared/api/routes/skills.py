"""/v1/skills: agent skills (a SKILL.md manifest plus bundle files) on the versioned-resource mechanism, as the
reference serves them: conditional writes (``Idempotency-Key`` with ``If-None-Match`` / ``If-Match``) and the
reference's unconditional ones (create without headers, PUT /{id}, DELETE /{id}), files, bundle, sync."""

from __future__ import annotations

import base64
import io
import json
import re
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response
from fastapi.responses import StreamingResponse
from pydantic import Field

from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.families import CONDITIONAL, ById, Family, Limit
from shared.api.routes.family_routes import serve
from shared.api.schemas import skills as wire
from shared.api.schemas.base import Wire
from shared.core.errors import InvalidInput
from shared.domain.resources import skills as sk
from shared.domain.resources.service import Precondition, Written
from shared.domain.resources.skill_service import SkillService

router = APIRouter(prefix="/v1/skills", tags=["skills"])

SkillId = Annotated[str, Path(description="The skill's id.", max_length=200)]
FilePath = Annotated[str, Path(description="The file's path in the bundle.", max_length=512)]


def _skills(svc: Any, workspace_id: str, rows: list[dict[str, Any]]) -> list[wire.Skill]:
    """Skills as answered: with their manifest hash and their files' bundle hash."""
    hashes = svc.skills.bundle_hashes(workspace_id, rows)
    return [
        wire.Skill.from_row({**row, "manifest_hash": sk.manifest_hash(row), "bundle_hash": hashes[row["id"]]})
        for row in rows
    ]


def _file(row: dict[str, Any]) -> wire.SkillFileInfo:
    return wire.SkillFileInfo.model_validate({name: row[name] for name in wire.SkillFileInfo.model_fields})


@dataclass(frozen=True)
class Skills(ById):
    """The skill service as the family's store: its create takes inline files, its replace keeps what the
    manifest does not say, and it has the reference's unconditional update and delete."""

    skills: SkillService

    def create(
        self,
        workspace_id: str,
        body: Any,
        pre: Precondition | None,
        *,
        tenant_id: str,
        actor: str | None = None,
    ) -> Written:
        return self.skills.create(workspace_id, body, pre, actor=actor, tenant_id=tenant_id)

    def replace(self, workspace_id: str, address: str, body: Any, pre: Precondition) -> Written:
        return self.skills.replace(workspace_id, address, body, pre)

    def update(self, workspace_id: str, address: str, body: Any, *, actor: str | None) -> Written:
        return self.skills.update(workspace_id, address, body, actor=actor)

    def remove(self, workspace_id: str, address: str, *, actor: str | None) -> None:
        self.skills.delete_now(workspace_id, address, actor=actor)


SKILLS = Family(
    sk.SKILLS,
    "",
    "skill_id",
    "skill",
    "skills",
    wire.Skill,
    create=sk.SkillCreate,
    replace=sk.SkillReplace,
    update=sk.SkillUpdate,
    routes=frozenset({"create", "revisions", "get", "replace", "update", "delete", "restore", "remove"}),
    optional_conditions=True,
    body_workspace=False,
    at={
        "replace": ("PUT", "/manifest", "replace_skill_manifest"),
        "delete": ("POST", "/delete", "delete_skill_manifest"),
        "restore": ("POST", "/restore", "restore_skill_manifest"),
        "remove": ("DELETE", "", "delete_skill"),
    },
    responses={"create": CONDITIONAL},
    params={"skill_id": Path(description="The skill's id.", max_length=200)},
    store=lambda svc: Skills(svc.resources, sk.SKILLS, svc.skills),
    items=_skills,
    named=False,
    listing_fields={"total_count": (int, Field(description="How many are in this answer."))},
    words={
        "revision": "The skill as this revision left it (its current `bundle_hash`).",
        "revisions": "Its manifest revisions, newest first.",
    },
    texts={
        "create": "Create a skill. With `Idempotency-Key` and `If-None-Match: *` a conditional create (no inline "
        "files);\nwithout them the reference's plain create (inline `files` allowed). A taken name is a 409.",
        "revisions": "Its manifest revisions (create, replace, delete, restore), newest first; files are not in "
        "them.",
        "get": "One skill; the `ETag` header is its manifest revision's.",
        "replace": "Replace its whole manifest: send `Idempotency-Key` and `If-Match` (a stale ETag is a 412).",
        "update": "Change the fields sent (metadata is merged): an unconditional write, still a revision.",
        "delete": "Tombstone it (files kept; `restore` revives it): send `Idempotency-Key` and `If-Match`.",
        "restore": "Revive a tombstone with its manifest and files: send `Idempotency-Key` and `If-Match`.",
        "remove": "The unconditional delete: a tombstone like `POST /{id}/delete` (files kept for a restore).",
    },
)


serve(router, SKILLS, {"create"})


@router.get("", response_model=SKILLS.listing)
def list_skills(
    caller: CallerDep,
    svc: ServicesDep,
    name: Annotated[str | None, Query(max_length=64, description="Only the skill of this name.")] = None,
    enabled: Annotated[
        bool | None, Query(description="Only enabled (true) or disabled (false) ones.")
    ] = None,
    include_shadowed: Annotated[bool, Query(description="Accepted: one workspace shadows nothing.")] = False,
    include_addenda: Annotated[bool, Query(description="Accepted: skills here have no addenda.")] = False,
    include_global: Annotated[bool, Query(description="Accepted: skills are per workspace here.")] = True,
    limit: Limit = 100,
    offset: Annotated[int, Query(ge=0, le=10000, description="How many to skip (0-10000).")] = 0,
) -> Wire:
    """Live skills of the workspace, most recently changed first."""
    workspace = caller.workspace()
    rows = svc.skills.listing(workspace, name=name, enabled=enabled, limit=limit, offset=offset)
    return SKILLS.listing.model_validate({"skills": _skills(svc, workspace, rows), "total_count": len(rows)})


@router.post("/resolve", response_model=wire.SkillResolveResponse)
def resolve_skill(body: sk.SkillResolve, caller: CallerDep, svc: ServicesDep) -> wire.SkillResolveResponse:
    """By `name`: that skill if live and enabled (`skill: null` otherwise). By `query`: the skills whose name,
    description and body share most of its words (`candidates`, best first; `skill` the first)."""
    workspace = caller.workspace(body.workspace_id)
    found = svc.skills.resolve(workspace, body)
    candidates = _skills(svc, workspace, found.candidates)
    skill = _skills(svc, workspace, [found.skill])[0] if found.skill is not None else None
    return wire.SkillResolveResponse(skill=skill, candidates=candidates)


serve(router, SKILLS, {"revisions", "get"})


@router.get(
    "/{skill_id}/manifest", response_class=Response, responses={200: {"content": {"text/markdown": {}}}}
)
def get_skill_manifest(
    skill_id: SkillId,
    caller: CallerDep,
    svc: ServicesDep,
    include_addenda: Annotated[bool, Query(description="Accepted: skills here have no addenda.")] = False,
) -> Response:
    """Its SKILL.md: frontmatter (name, description, version, …) and body, as text/markdown."""
    row = svc.skills.get(caller.workspace(), skill_id)
    return Response(content=sk.manifest_text(row), media_type="text/markdown")


serve(router, SKILLS, {"replace", "update", "delete", "restore", "remove"})


@router.post("/{skill_id}/sync", response_model=wire.SkillSyncResponse)
def sync_skill(
    skill_id: SkillId, body: sk.SkillSync, caller: CallerDep, svc: ServicesDep
) -> wire.SkillSyncResponse:
    """Compare a mirror's hashes with the server's: push, pull, conflict or in_sync (nothing is written)."""
    workspace = caller.workspace(body.workspace_id)
    row = svc.skills.get(workspace, skill_id)
    server_manifest = sk.manifest_hash(row)
    server_bundle = svc.skills.bundle_hashes(workspace, [row])[row["id"]]
    action, reason = sk.sync_action(server_manifest, server_bundle, body.manifest_hash, body.bundle_hash)
    return wire.SkillSyncResponse(
        action=action, reason=reason, server_manifest_hash=server_manifest, server_bundle_hash=server_bundle
    )


# ------------------------------------------------------------------------------------------------------- files
@router.get("/{skill_id}/files", response_model=wire.SkillFilesListResponse)
def list_skill_files(skill_id: SkillId, caller: CallerDep, svc: ServicesDep) -> wire.SkillFilesListResponse:
    """Its bundle files, by path."""
    _, files = svc.skills.files(caller.workspace(), skill_id)
    return wire.SkillFilesListResponse(files=[_file(f) for f in files])


@router.get(
    "/{skill_id}/bundle",
    response_class=Response,
    responses={200: {"content": {"application/x-ndjson": {}, "application/gzip": {}}}},
)
def get_skill_bundle(
    skill_id: SkillId,
    caller: CallerDep,
    svc: ServicesDep,
    format: Annotated[str, Query(description="`ndjson` (default) or `tar.gz`.")] = "ndjson",
) -> Response:
    """Its files in one answer: NDJSON (a header line, one line per file with `content_b64`, a footer with the
    bundle hash) or a tar.gz. Streamed file by file, each read from the database as its turn comes: a bundle
    (up to 256 files of 1 MiB) never sits in memory whole."""
    if format not in ("ndjson", "tar.gz"):
        raise InvalidInput("format must be ndjson or tar.gz", code="invalid_bundle_format")
    workspace = caller.workspace()
    head, files = svc.skills.files(workspace, skill_id)
    name = head["key"]

    def contents() -> Iterator[dict[str, Any]]:
        for info in files:
            row = svc.skills.file_content(workspace, head["id"], info["path"])
            if row is not None:  # deleted while the bundle streamed: it is left out, and the footer says so
                yield row

    if format == "tar.gz":
        disposition = {"Content-Disposition": f'attachment; filename="{name}.tar.gz"'}
        return StreamingResponse(_tar_chunks(contents()), media_type="application/gzip", headers=disposition)

    def lines() -> Iterator[str]:
        yield (
            json.dumps(
                {
                    "type": "header",
                    "skill_id": head["id"],
                    "skill_name": name,
                    "version": head["content"].get("version"),
                    "file_count": len(files),
                }
            )
            + "\n"
        )
        sent: list[tuple[str, str]] = []
        for f in contents():
            yield (
                json.dumps(
                    {
                        "type": "file",
                        "path": f["path"],
                        "kind": f["kind"],
                        "content_b64": base64.b64encode(bytes(f["content"])).decode(),
                        "content_hash": f["content_hash"],
                        "size_bytes": f["size_bytes"],
                        "mime_type": f["mime_type"],
                    }
                )
                + "\n"
            )
            sent.append((f["path"], f["content_hash"]))
        # The hash of what was sent (the same as the listing's unless a file changed meanwhile).
        yield (
            json.dumps({"type": "footer", "file_count": len(sent), "bundle_hash": sk.bundle_hash(sent)})
            + "\n"
        )

    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}.ndjson"'},
    )


class _Sink(io.RawIOBase):
    """Where the streaming tar writer puts its bytes until the response takes them."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.buffer += data
        return len(data)

    def take(self) -> bytes:
        out, self.buffer = bytes(self.buffer), bytearray()
        return out


def _tar_chunks(files: Iterator[dict[str, Any]]) -> Iterator[bytes]:
    """A tar.gz written as a stream (``w|gz``), one file at a time: each file's compressed bytes leave before
    the next file is read."""
    sink = _Sink()
    with tarfile.open(fileobj=sink, mode="w|gz") as tar:
        for f in files:
            content = bytes(f["content"])
            info = tarfile.TarInfo(name=f["path"])
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
            if sink.buffer:
                yield sink.take()
    yield sink.take()


@router.get(
    "/{skill_id}/files/{file_path:path}",
    response_class=Response,
    responses={200: {"content": {"application/octet-stream": {}}}},
)
def get_skill_file(skill_id: SkillId, file_path: FilePath, caller: CallerDep, svc: ServicesDep) -> Response:
    """One file's bytes: with the MIME type it was uploaded with if that type is inert (plain text, Markdown,
    CSV, JSON, PNG, JPEG, GIF, WebP), else as an `application/octet-stream` attachment."""
    row = svc.skills.file(caller.workspace(), skill_id, file_path)
    served = sk.served_type(row["mime_type"])
    # An uploaded page must not run on the API's origin: other types download, nothing is sniffed, and the
    # sandbox policy gives whatever a browser renders an origin of its own, without scripts.
    headers = {"X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; sandbox"}
    if served == "application/octet-stream":
        name = re.sub(r"[^A-Za-z0-9._-]", "_", file_path.rsplit("/", 1)[-1])[:200] or "file"
        headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return Response(content=bytes(row["content"]), media_type=served, headers=headers)


@router.put("/{skill_id}/files/{file_path:path}", response_model=wire.SkillFileInfo)
def upsert_skill_file(
    skill_id: SkillId, file_path: FilePath, body: sk.SkillFileUpsert, caller: CallerDep, svc: ServicesDep
) -> wire.SkillFileInfo:
    """Write one file (`content_b64`; up to 1 MiB, 256 files a skill); its `bundle_hash` follows, its manifest
    ETag does not change."""
    workspace = caller.workspace(body.workspace_id)
    row = svc.skills.put_file(workspace, skill_id, file_path, body.content_b64, body.mime_type)
    return _file(row)


@router.delete("/{skill_id}/files/{file_path:path}", status_code=204, response_class=Response)
def delete_skill_file(
    skill_id: SkillId, file_path: FilePath, caller: CallerDep, svc: ServicesDep
) -> Response:
    """Remove one file (one already absent is no error; an unknown skill is a 404)."""
    svc.skills.delete_file(caller.workspace(), skill_id, file_path)
    return Response(status_code=204)
