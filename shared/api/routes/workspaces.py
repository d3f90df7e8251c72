"""/v1/workspaces: CRUD, schema, contexts, NDJSON export and import."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from typing import IO, Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from shared.api import schemas, wire
from shared.api.deps import Caller, CallerDep, ServicesDep, secrets_shown, valid_workspace
from shared.api.openapi import body_schema
from shared.api.routes.params import ContextIdPath, Offset, WorkspaceIdPath
from shared.core import ontology
from shared.core.errors import InvalidInput
from shared.core.settings import RESERVED_WORKSPACES
from shared.core.wire import strict_json
from shared.domain.requests import ContextCreate, WorkspaceCreate, WorkspaceImportRequest, WorkspaceUpdate

router = APIRouter(prefix="/v1/workspaces", tags=["workspaces"])


def _mine(caller: Caller, workspace_id: str) -> str:
    """A workspace named in the path: valid, and within the caller's key."""
    return caller.principal.require_workspace(valid_workspace(workspace_id))


def _wrapped(row: dict, **extra: Any) -> schemas.WorkspaceEnvelope:
    workspace = schemas.Workspace.from_row(row)
    # Wrapped for the API, flat for SDK 0.2.1's `Workspace(**data)`.
    return schemas.WorkspaceEnvelope.model_construct(workspace=workspace, **dict(workspace), **extra)


@router.post("", status_code=201, response_model=schemas.WorkspaceEnvelope)
def create_workspace(body: WorkspaceCreate, caller: CallerDep, svc: ServicesDep) -> schemas.WorkspaceEnvelope:
    """Create a workspace (an id is generated when none is given)."""
    if caller.allowed is not None:  # a scoped key may only create a workspace it already names
        caller.principal.require_workspace(body.id or "")
    return _wrapped(svc.workspaces.create(body.id, body.name, body.settings, body.tags, caller.tenant_id))


@router.get("", response_model=schemas.WorkspaceList)
def list_workspaces(
    caller: CallerDep,
    svc: ServicesDep,
    tags: Annotated[list[str] | None, Query(description="Only workspaces with these tags.")] = None,
    match: Annotated[
        str,
        Query(pattern="^(all|any)$", description="all (default): every tag must match; any: one is enough."),
    ] = "all",
) -> schemas.WorkspaceList:
    """The key's workspaces (and the reserved ones, for an unscoped key), optionally by tags."""
    # The key's own workspaces; the tenant's user space is reachable but not one of them.
    named = caller.principal.workspaces
    only = list(named) if named is not None else None
    rows = svc.workspaces.list(tags or [], match == "all", only)
    listed = [schemas.Workspace.from_row(r) for r in rows]
    known = {w.id for w in listed}
    missing = [r for r in RESERVED_WORKSPACES if r not in known] if not tags and only is None else []
    if missing:
        # The reserved workspaces always exist, as the reference lists them, even before first use: dated from
        # when the database was set up (the official SDK refuses a workspace without its timestamps).
        since = svc.workspaces.installed_at()
        listed += [
            schemas.Workspace.model_construct(
                id=reserved,
                tenant_id="_default",
                name=reserved,
                settings={},
                tags=[],
                embedding_model=None,
                created_at=since,
                updated_at=since,
            )
            for reserved in missing
        ]
    return schemas.WorkspaceList.model_construct(workspaces=listed)


@router.get("/{workspace_id}", response_model=schemas.WorkspaceEnvelope)
def get_workspace(
    workspace_id: WorkspaceIdPath, caller: CallerDep, svc: ServicesDep
) -> schemas.WorkspaceEnvelope:
    """One workspace, with counts of its memories."""
    workspace_id = _mine(caller, workspace_id)
    return _wrapped(svc.workspaces.get(workspace_id), stats=svc.workspaces.stats(workspace_id))


@router.put("/{workspace_id}", response_model=schemas.WorkspaceEnvelope)
def update_workspace(
    workspace_id: WorkspaceIdPath, body: WorkspaceUpdate, caller: CallerDep, svc: ServicesDep
) -> schemas.WorkspaceEnvelope:
    """Rename a workspace or replace its settings or tags."""
    return _wrapped(svc.workspaces.update(_mine(caller, workspace_id), body.model_dump(exclude_unset=True)))


@router.delete("/{workspace_id}", status_code=204)
def delete_workspace(workspace_id: WorkspaceIdPath, caller: CallerDep, svc: ServicesDep) -> Response:
    """Delete a workspace and everything in it."""
    svc.workspaces.delete(_mine(caller, workspace_id))
    return Response(status_code=204)


@router.get("/{workspace_id}/schema")
def workspace_schema(workspace_id: WorkspaceIdPath, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """The relationship types and subtypes this workspace accepts (the reference server's ontology)."""
    svc.workspaces.get(_mine(caller, workspace_id))
    return {"workspace_id": workspace_id, **ontology.schema()}


@router.get("/{workspace_id}/export")
def export_workspace(
    workspace_id: WorkspaceIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    offset: Offset = 0,
    limit: Annotated[int, Query(ge=0, description="How many memories at most (0 means all).")] = 0,
    include_associations: Annotated[
        bool, Query(description="Also export the associations (default true).")
    ] = True,
    version: Annotated[
        Literal["1.0", "2.0"],
        Query(
            description="2.0 (default): the whole workspace, row for row (docs/export-format.md); 1.0: memories "
            "and associations only. A slice (offset, limit) or include_associations=false is always 1.0."
        ),
    ] = "2.0",
    include_secrets: Annotated[
        bool,
        Query(
            description="Export MCP servers' `env` and `headers` values and data providers' passwords as stored "
            "(default: masked, `***`); a key that may write only."
        ),
    ] = False,
) -> StreamingResponse:
    """The workspace as NDJSON: a header line, then one line per row, then (2.0) an end line with the counts."""
    workspace_id = _mine(caller, workspace_id)
    secrets = secrets_shown(caller.principal, include_secrets, option="include_secrets")
    if version == "2.0" and not offset and not limit and include_associations:
        lines = wire.export_lines_v2(*svc.roundtrip.export(workspace_id, secrets=secrets))
    else:
        header, records = svc.workspaces.export_rows(
            workspace_id,
            include_associations=include_associations,
            offset=offset,
            limit=limit,
            secrets=secrets,
        )
        lines = wire.export_lines(header, records)
    return StreamingResponse(lines, media_type="application/x-ndjson")


# Declared, not parsed by FastAPI: the content type decides how the body is read (``_parse_import``).
IMPORT_BODY = {
    "requestBody": {
        "required": False,  # an empty body imports nothing
        "content": {
            "application/json": {"schema": body_schema(WorkspaceImportRequest)},
            "application/x-ndjson": {
                "schema": {
                    "type": "string",
                    "description": "The NDJSON export: a header line, then one line per row, and (format 2, "
                    "docs/export-format.md) an end line with the counts.",
                }
            },
        },
    }
}


@router.post("/{workspace_id}/import", response_model=schemas.ImportResult, openapi_extra=IMPORT_BODY)
async def import_workspace(
    workspace_id: WorkspaceIdPath, request: Request, caller: CallerDep, svc: ServicesDep
) -> dict[str, Any]:
    """Accepts ``{"data": {...export...}}``, a bare export object, or the NDJSON export itself (a version-2
    file is read line by line, all of it written or nothing)."""
    _mine(caller, workspace_id)
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY) as spool:
        async for chunk in request.stream():
            spool.write(chunk)
        spool.seek(0)
        if "ndjson" in request.headers.get("content-type", "") and _is_version_2(spool):
            # Keeping ids asks whether they are taken anywhere: only for a caller who sees every workspace.
            return await run_in_threadpool(
                svc.roundtrip.import_lines,
                workspace_id,
                lambda: _lines(spool),
                tenant_id=caller.tenant_id,
                keep_ids=caller.principal.workspaces is None,
            )
        raw = spool.read()
    # Parsing up to max_request_bytes of JSON takes a while: on the threadpool, as the import itself.
    data = await run_in_threadpool(_parse_import, raw, request.headers.get("content-type", ""))
    if any(isinstance(m, dict) and m.get("scope") == "user" for m in data.get("memories") or []):
        caller.require_shared_write()  # before anything is written, not at the first such item
    return await run_in_threadpool(svc.workspaces.import_data, workspace_id, data, caller.tenant_id)


# Up to this much of an import body stays in memory; past it the body waits on disk (/tmp on Lambda).
SPOOL_IN_MEMORY = 1 << 20


def _is_version_2(spool: IO[bytes]) -> bool:
    """Whether the first non-blank line is a header of a version other than 1.0 (version 2, or one this server
    refuses with a 400 naming it); the file is left at its start."""
    try:
        for line in _lines(spool):
            if line.strip():
                header = strict_json(line)
                return (
                    isinstance(header, dict)
                    and header.get("type") == "header"
                    and header.get("version", "1.0") != "1.0"
                )
        return False
    except ValueError:
        return False  # the version-1 parser names the bad line
    finally:
        spool.seek(0)


def _lines(spool: IO[bytes]) -> Iterator[str]:
    """The spooled body's lines, one at a time, from its start."""
    spool.seek(0)
    for number, raw in enumerate(spool, start=1):
        try:
            yield raw.decode()
        except UnicodeDecodeError as exc:
            raise InvalidInput(
                f"import line {number} is not UTF-8", code="invalid_import", line=number
            ) from exc


def _parse_import(raw: bytes, content_type: str) -> dict[str, Any]:
    """The import body as ``{"memories": [...], "associations": [...]}``, or 400 before anything is written.

    All or nothing for the shape: a line or item that is not a JSON object rejects the whole import (nothing is
    committed half-way). Items that are objects but not valid
    memories are still reported one by one in the response's ``details``, as the wire has always done.
    """
    try:
        if "ndjson" in content_type:
            memories, associations, resources = [], [], []
            for number, line in enumerate(raw.decode().splitlines(), start=1):
                if not line.strip():
                    continue
                item = strict_json(line)
                if not isinstance(item, dict) or ("data" in item and not isinstance(item["data"], dict)):
                    raise InvalidInput(
                        f"import line {number} is not an export object", code="invalid_import", line=number
                    )
                if item.get("type") == "memory":
                    memories.append(item["data"])
                elif item.get("type") == "association":
                    associations.append(item["data"])
                elif item.get("type") == "resource":
                    resources.append(item["data"])
            data: Any = {"memories": memories, "associations": associations, "resources": resources}
        else:
            body = json.loads(raw or b"{}")
            if not isinstance(body, dict):
                raise InvalidInput("import body must be a JSON object", code="invalid_import")
            data = body.get("data", body)
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(f"import body is not valid JSON or NDJSON: {exc}", code="invalid_import") from exc
    if not isinstance(data, dict):
        raise InvalidInput("import data must be a JSON object", code="invalid_import")
    for name in ("memories", "associations", "resources"):
        items = data.get(name) or []
        if not isinstance(items, list):
            raise InvalidInput(f"import data's {name!r} must be a list", code="invalid_import")
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                raise InvalidInput(
                    f"import {name}[{index}] is not an object", code="invalid_import", field=name, index=index
                )
    return data


@router.post("/{workspace_id}/contexts", status_code=201, response_model=schemas.ContextEnvelope)
def create_context(
    workspace_id: WorkspaceIdPath, body: ContextCreate, caller: CallerDep, svc: ServicesDep
) -> schemas.ContextEnvelope:
    """Create a context in the workspace (a named sub-space; reserved by the reference, not a filter)."""
    row = svc.workspaces.create_context(_mine(caller, workspace_id), body.id, body.model_dump())
    return schemas.ContextEnvelope.model_construct(context=schemas.Context.model_construct(**row), **row)


@router.get("/{workspace_id}/contexts", response_model=schemas.ContextList)
def list_contexts(workspace_id: WorkspaceIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.ContextList:
    """The workspace's contexts."""
    rows = svc.workspaces.list_contexts(_mine(caller, workspace_id))
    return schemas.ContextList.model_construct(contexts=[schemas.Context.model_construct(**r) for r in rows])


@router.delete("/{workspace_id}/contexts/{context_id}", status_code=204)
def delete_context(
    workspace_id: WorkspaceIdPath, context_id: ContextIdPath, caller: CallerDep, svc: ServicesDep
) -> Response:
    """Delete a context."""
    svc.workspaces.delete_context(_mine(caller, workspace_id), context_id)
    return Response(status_code=204)
