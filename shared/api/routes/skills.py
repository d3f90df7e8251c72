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
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response
from fastapi.responses import StreamingResponse

from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.resources import (
    CONDITIONAL,
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    IncludeDeleted,
    Limit,
    PageToken,
    actor,
    required,
)
from shared.api.schemas import skills as wire
from shared.core.errors import InvalidInput
from shared.domain.resources import skills as sk
from shared.domain.resources.service import Precondition, Written

router = APIRouter(prefix="/v1/skills", tags=["skills"])

SkillId = Annotated[str, Path(description="The skill's id.", max_length=200)]
FilePath = Annotated[str, Path(description="The file's path in the bundle.", max_length=512)]


def _skills(svc: Any, workspace_id: str, rows: list[dict[str, Any]]) -> list[wire.Skill]:
    hashes = svc.skills.bundle_hashes(workspace_id, rows)
    return [
        wire.Skill.from_row({**row, "manifest_hash": sk.manifest_hash(row), "bundle_hash": hashes[row["id"]]})
        for row in rows
    ]


def _answer(svc: Any, workspace_id: str, written: Written, response: Response) -> wire.SkillResponse:
    response.headers["ETag"] = written.row["etag"]
    return wire.SkillResponse(skill=_skills(svc, workspace_id, [written.row])[0], replayed=written.replayed)


def _file(row: dict[str, Any]) -> wire.SkillFileInfo:
    return wire.SkillFileInfo.model_validate({name: row[name] for name in wire.SkillFileInfo.model_fields})


def _conditional(caller: Any, idempotency_key: str | None, if_match: str | None) -> Precondition:
    return Precondition(
        required(idempotency_key, "Idempotency-Key"), required(if_match, "If-Match"), actor(caller)
    )


@router.post("", status_code=201, response_model=wire.SkillResponse, responses=CONDITIONAL)
def create_skill(
    body: sk.SkillCreate,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_none_match: IfNoneMatch = None,
) -> wire.SkillResponse:
    """Create a skill. With `Idempotency-Key` and `If-None-Match: *` a conditional create (no inline files);
    without them the reference's plain create (inline `files` allowed). A taken name is a 409."""
    pre = None
    if idempotency_key or if_none_match:
        pre = Precondition(
            required(idempotency_key, "Idempotency-Key"),
            required(if_none_match, "If-None-Match"),
            actor(caller),
        )
    workspace = caller.workspace(body.workspace_id)
    written = svc.skills.create(workspace, body, pre, actor=actor(caller), tenant_id=caller.tenant_id)
    return _answer(svc, workspace, written, response)


@router.get("", response_model=wire.SkillListResponse)
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
) -> wire.SkillListResponse:
    """Live skills of the workspace, most recently changed first."""
    workspace = caller.workspace()
    rows = svc.skills.listing(workspace, name=name, enabled=enabled, limit=limit, offset=offset)
    return wire.SkillListResponse(skills=_skills(svc, workspace, rows), total_count=len(rows))


@router.post("/resolve", response_model=wire.SkillResolveResponse)
def resolve_skill(body: sk.SkillResolve, caller: CallerDep, svc: ServicesDep) -> wire.SkillResolveResponse:
    """By `name`: that skill if live and enabled (`skill: null` otherwise). By `query`: the skills whose name,
    description and body share most of its words (`candidates`, best first; `skill` the first)."""
    workspace = caller.workspace(body.workspace_id)
    found = svc.skills.resolve(workspace, body)
    candidates = _skills(svc, workspace, found.candidates)
    skill = _skills(svc, workspace, [found.skill])[0] if found.skill is not None else None
    return wire.SkillResolveResponse(skill=skill, candidates=candidates)


@router.get("/{skill_id}/revisions", response_model=wire.SkillRevisionListResponse)
def list_skill_revisions(
    skill_id: SkillId, caller: CallerDep, svc: ServicesDep, limit: Limit = 100, page_token: PageToken = None
) -> wire.SkillRevisionListResponse:
    """Its manifest revisions (create, replace, delete, restore), newest first; files are not in them."""
    workspace = caller.workspace()
    page = svc.resources.revisions(sk.SKILLS, workspace, skill_id, limit=limit, page_token=page_token)
    skills = _skills(svc, workspace, page.rows)
    items = [
        wire.SkillRevision(skill=skill, action=row["action"], operation_id=row["operation_id"])
        for skill, row in zip(skills, page.rows, strict=True)
    ]
    return wire.SkillRevisionListResponse(revisions=items, next_page_token=page.next_page_token)


@router.get("/{skill_id}", response_model=wire.SkillResponse)
def get_skill(
    skill_id: SkillId,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    include_deleted: IncludeDeleted = False,
) -> wire.SkillResponse:
    """One skill; the `ETag` header is its manifest revision's."""
    workspace = caller.workspace()
    row = svc.skills.get(workspace, skill_id, include_deleted=include_deleted)
    return _answer(svc, workspace, Written(row), response)


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


@router.put("/{skill_id}/manifest", response_model=wire.SkillResponse, responses=CONDITIONAL)
def replace_skill_manifest(
    skill_id: SkillId,
    body: sk.SkillReplace,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> wire.SkillResponse:
    """Replace its whole manifest: send `Idempotency-Key` and `If-Match` (a stale ETag is a 412)."""
    pre = _conditional(caller, idempotency_key, if_match)
    workspace = caller.workspace()
    return _answer(svc, workspace, svc.skills.replace(workspace, skill_id, body, pre), response)


@router.put("/{skill_id}", response_model=wire.SkillResponse)
def update_skill(
    skill_id: SkillId, body: sk.SkillUpdate, caller: CallerDep, svc: ServicesDep, response: Response
) -> wire.SkillResponse:
    """Change the fields sent (metadata is merged): an unconditional write, still a revision."""
    workspace = caller.workspace()
    return _answer(
        svc, workspace, svc.skills.update(workspace, skill_id, body, actor=actor(caller)), response
    )


@router.post("/{skill_id}/delete", response_model=wire.SkillResponse, responses=CONDITIONAL)
def delete_skill_manifest(
    skill_id: SkillId,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> wire.SkillResponse:
    """Tombstone it (files kept; `restore` revives it): send `Idempotency-Key` and `If-Match`."""
    pre = _conditional(caller, idempotency_key, if_match)
    workspace = caller.workspace()
    return _answer(svc, workspace, svc.resources.delete(sk.SKILLS, workspace, skill_id, pre), response)


@router.post("/{skill_id}/restore", response_model=wire.SkillResponse, responses=CONDITIONAL)
def restore_skill_manifest(
    skill_id: SkillId,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> wire.SkillResponse:
    """Revive a tombstone with its manifest and files: send `Idempotency-Key` and `If-Match`."""
    pre = _conditional(caller, idempotency_key, if_match)
    workspace = caller.workspace()
    return _answer(svc, workspace, svc.resources.restore(sk.SKILLS, workspace, skill_id, pre), response)


@router.delete("/{skill_id}", status_code=204, response_class=Response)
def delete_skill(skill_id: SkillId, caller: CallerDep, svc: ServicesDep) -> Response:
    """The unconditional delete: a tombstone like `POST /{id}/delete` (files kept for a restore)."""
    svc.skills.delete_now(caller.workspace(), skill_id, actor=actor(caller))
    return Response(status_code=204)


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
