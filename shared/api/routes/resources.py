"""/v1/prompt-notes, /v1/agent-specifications, /v1/refinement-records: versioned resources, each family a
``Family`` (its kind, request models and wire models) served by the same seven routes (three when append-only).

Writes are conditional, as the reference's: ``Idempotency-Key`` always, ``If-None-Match: *`` to create,
``If-Match: <etag>`` to replace, delete or restore; a missing one is a 428, a stale ETag a 412.
"""

# No ``from __future__ import annotations``: the routes are built per family, and FastAPI reads each endpoint's
# annotations (the family's body model among them) as objects when it is declared.

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

from fastapi import APIRouter, Header, Path, Query, Response

from shared.api import schemas
from shared.api.deps import Caller, CallerDep, ServicesDep
from shared.api.schemas.base import Wire
from shared.core.errors import InvalidInput, PreconditionRequired
from shared.domain.requests import RequestModel
from shared.domain.resources import refinement_records as refinements
from shared.domain.resources.agent_specifications import (
    AGENT_SPECIFICATIONS,
    AgentSpecificationCreate,
    AgentSpecificationReplace,
)
from shared.domain.resources.prompt_notes import PROMPT_NOTES, PromptNoteCreate, PromptNoteReplace
from shared.domain.resources.service import Document, Kind, Page, Precondition, Written

router = APIRouter(prefix="/v1")

MAX_HEADER = 200
IdempotencyKey = Annotated[
    str | None,
    Header(
        description="Required on every write: a retry with the same key and body answers the first result."
    ),
]
IfMatch = Annotated[str | None, Header(description="Required: the ETag of the revision this write replaces.")]
IfNoneMatch = Annotated[str | None, Header(description="Required: `*` (create only if the key is free).")]
Limit = Annotated[int, Query(ge=1, le=500, description="How many at most (1-500, default 100).")]
PageToken = Annotated[str | None, Query(description="The `next_page_token` of the previous page.")]
IncludeDeleted = Annotated[
    bool, Query(description="Also deleted ones (tombstones, which `restore` revives).")
]
CONDITIONAL: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such resource in the workspace (or it is deleted)."},
    409: {
        "description": "The key is taken, the Idempotency-Key was used for another request, or not deleted."
    },
    412: {"description": "If-Match is not the current ETag (or If-None-Match is not `*`)."},
    428: {"description": "Idempotency-Key, If-Match or If-None-Match is missing."},
}


@dataclass(frozen=True)
class Family:
    """One family on the wire: its kind, path, envelope keys and models; ``replace`` None: append-only."""

    kind: Kind
    path: str
    id_name: str
    one: str
    many: str
    item: type[schemas.ResourceHead]
    envelope: type[Wire]
    listing: type[Wire]
    create: type[RequestModel]
    replace: type[RequestModel] | None = None
    revision: type[Wire] | None = None
    revisions: type[Wire] | None = None


class Writes(Protocol):
    """What a family's write body offers (its model is put on the endpoint with ``_with_body``)."""

    workspace_id: str | None

    def document(self) -> Document: ...


class Creates(Writes, Protocol):
    key: str


def _with_body(endpoint: Callable[..., Wire], model: type[RequestModel]) -> Callable[..., Wire]:
    """The endpoint with its body declared as the family's model: FastAPI validates and documents that one."""
    endpoint.__annotations__["body"] = model
    return endpoint


def required(value: str | None, header: str) -> str:
    value = (value or "").strip()
    if not value:
        code = header.lower().replace("-", "_") + "_required"
        raise PreconditionRequired(f"{header} header is required", code=code, header=header)
    if len(value) > MAX_HEADER:
        raise InvalidInput(f"{header} header is too long", code="header_too_long", header=header)
    return value


def actor(caller: Caller) -> str | None:
    """Who writes, as revisions record it: the API key's id (none when auth is off)."""
    key_id = caller.principal.key_id
    return f"key:{key_id}" if key_id else None


def _written(family: Family, written: Written, response: Response) -> Wire:
    response.headers["ETag"] = written.row["etag"]
    item = family.item.from_row(written.row)
    return family.envelope.model_validate({family.one: item, "replayed": written.replayed})


def _listing(family: Family, page: Page, **extra: Any) -> Wire:
    items = [family.item.from_row(row) for row in page.rows]
    return family.listing.model_validate(
        {family.many: items, "next_page_token": page.next_page_token, **extra}
    )


def serve(family: Family, *, plain_list: bool = True) -> None:
    """Declare the family's routes on ``router``: create, list, get, and (unless append-only) replace, delete,
    restore and revisions. ``plain_list`` False: the family declares its own list (with filters)."""
    kind, label = family.kind, family.kind.label
    one = f"{family.path}/{{{family.id_name}}}"
    ResourceId = Annotated[str, Path(alias=family.id_name, description=f"The {label}'s id.")]

    def create(
        body: Creates,
        caller: CallerDep,
        svc: ServicesDep,
        response: Response,
        idempotency_key: IdempotencyKey = None,
        if_none_match: IfNoneMatch = None,
    ) -> Wire:
        pre = Precondition(
            required(idempotency_key, "Idempotency-Key"),
            required(if_none_match, "If-None-Match"),
            actor(caller),
        )
        workspace = caller.workspace(body.workspace_id)
        written = svc.resources.create(
            kind, workspace, body.key, body.document(), pre, tenant_id=caller.tenant_id
        )
        return _written(family, written, response)

    router.post(
        family.path,
        status_code=201,
        response_model=family.envelope,
        tags=[family.path.strip("/")],
        summary=f"Create a {label}",
        description="Send `Idempotency-Key` and `If-None-Match: *`; the `ETag` header is revision 1's. A retry "
        "with the same key and body answers the first result (`replayed: true`).",
        operation_id=f"create_{kind.name}",
        responses={k: v for k, v in CONDITIONAL.items() if k != 404},
    )(_with_body(create, family.create))

    if plain_list:

        @router.get(
            family.path,
            response_model=family.listing,
            tags=[family.path.strip("/")],
            summary=f"List {label}s",
            description="Most recently changed first; `next_page_token` continues (tombstones with "
            "`include_deleted`).",
            operation_id=f"list_{kind.name}s",
        )
        def list_all(
            caller: CallerDep,
            svc: ServicesDep,
            limit: Limit = 100,
            page_token: PageToken = None,
            include_deleted: IncludeDeleted = False,
        ) -> Wire:
            page = svc.resources.page(
                kind, caller.workspace(), limit=limit, page_token=page_token, include_deleted=include_deleted
            )
            return _listing(family, page)

    if family.replace is not None:
        _serve_history(family, one, ResourceId)

    if family.replace is None:  # append-only: nothing is ever deleted

        @router.get(
            one,
            response_model=family.envelope,
            tags=[family.path.strip("/")],
            summary=f"Get a {label}",
            description="One by id; the `ETag` header is its current revision's.",
            operation_id=f"get_{kind.name}",
        )
        def get_record(
            resource_id: ResourceId,
            caller: CallerDep,
            svc: ServicesDep,
            response: Response,
        ) -> Wire:
            row = svc.resources.get(kind, caller.workspace(), resource_id)
            return _written(family, Written(row), response)

    else:

        @router.get(
            one,
            response_model=family.envelope,
            tags=[family.path.strip("/")],
            summary=f"Get a {label}",
            description="One by id; the `ETag` header is its current revision's.",
            operation_id=f"get_{kind.name}",
        )
        def get(
            resource_id: ResourceId,
            caller: CallerDep,
            svc: ServicesDep,
            response: Response,
            include_deleted: IncludeDeleted = False,
        ) -> Wire:
            row = svc.resources.get(kind, caller.workspace(), resource_id, include_deleted=include_deleted)
            return _written(family, Written(row), response)

    if family.replace is not None:
        _serve_writes(family, one, ResourceId)


def _serve_history(family: Family, one: str, ResourceId: Any) -> None:
    kind, label, tag = family.kind, family.kind.label, family.path.strip("/")
    revision, revisions = family.revision, family.revisions
    assert revision is not None and revisions is not None

    @router.get(
        f"{one}/revisions",
        response_model=revisions,
        tags=[tag],
        summary=f"A {label}'s revisions",
        description="Every accepted write (create, replace, delete, restore), newest first, with the resource "
        "as it left it and the write's `Idempotency-Key`.",
        operation_id=f"list_{kind.name}_revisions",
    )
    def history(
        resource_id: ResourceId,
        caller: CallerDep,
        svc: ServicesDep,
        limit: Limit = 100,
        page_token: PageToken = None,
    ) -> Wire:
        page = svc.resources.revisions(
            kind, caller.workspace(), resource_id, limit=limit, page_token=page_token
        )
        items = [
            revision.model_validate(
                {
                    family.one: family.item.from_row(row),
                    "action": row["action"],
                    "operation_id": row["operation_id"],
                }
            )
            for row in page.rows
        ]
        return revisions.model_construct(revisions=items, next_page_token=page.next_page_token)


def _serve_writes(family: Family, one: str, ResourceId: Any) -> None:
    kind, label, tag = family.kind, family.kind.label, family.path.strip("/")
    assert family.replace is not None

    def replace(
        resource_id: ResourceId,
        body: Writes,
        caller: CallerDep,
        svc: ServicesDep,
        response: Response,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Wire:
        pre = Precondition(
            required(idempotency_key, "Idempotency-Key"), required(if_match, "If-Match"), actor(caller)
        )
        workspace = caller.workspace(body.workspace_id)
        return _written(
            family, svc.resources.replace(kind, workspace, resource_id, body.document(), pre), response
        )

    router.put(
        one,
        response_model=family.envelope,
        tags=[tag],
        summary=f"Replace a {label}",
        description="Replace its whole document: send `Idempotency-Key` and `If-Match` (its current ETag; a stale "
        "one is a 412 and changes nothing).",
        operation_id=f"replace_{kind.name}",
        responses=CONDITIONAL,
    )(_with_body(replace, family.replace))

    @router.delete(
        one,
        response_model=family.envelope,
        tags=[tag],
        summary=f"Delete a {label}",
        description="Leave a tombstone (its id and key stay taken; `restore` revives it): send "
        "`Idempotency-Key` and `If-Match`.",
        operation_id=f"delete_{kind.name}",
        responses=CONDITIONAL,
    )
    def delete(
        resource_id: ResourceId,
        caller: CallerDep,
        svc: ServicesDep,
        response: Response,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Wire:
        pre = Precondition(
            required(idempotency_key, "Idempotency-Key"), required(if_match, "If-Match"), actor(caller)
        )
        return _written(family, svc.resources.delete(kind, caller.workspace(), resource_id, pre), response)

    @router.post(
        f"{one}/restore",
        response_model=family.envelope,
        tags=[tag],
        summary=f"Restore a deleted {label}",
        description="Revive a tombstone with the document it had: send `Idempotency-Key` and `If-Match` (the "
        "tombstone's ETag); a live one is a 409.",
        operation_id=f"restore_{kind.name}",
        responses=CONDITIONAL,
    )
    def restore(
        resource_id: ResourceId,
        caller: CallerDep,
        svc: ServicesDep,
        response: Response,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Wire:
        pre = Precondition(
            required(idempotency_key, "Idempotency-Key"), required(if_match, "If-Match"), actor(caller)
        )
        return _written(family, svc.resources.restore(kind, caller.workspace(), resource_id, pre), response)


PROMPT_NOTE_FAMILY = Family(
    kind=PROMPT_NOTES,
    path="/prompt-notes",
    id_name="note_id",
    one="note",
    many="notes",
    item=schemas.PromptNote,
    envelope=schemas.PromptNoteResponse,
    listing=schemas.PromptNoteListResponse,
    create=PromptNoteCreate,
    replace=PromptNoteReplace,
    revision=schemas.PromptNoteRevision,
    revisions=schemas.PromptNoteRevisionListResponse,
)
AGENT_SPECIFICATION_FAMILY = Family(
    kind=AGENT_SPECIFICATIONS,
    path="/agent-specifications",
    id_name="specification_id",
    one="specification",
    many="specifications",
    item=schemas.AgentSpecification,
    envelope=schemas.AgentSpecificationResponse,
    listing=schemas.AgentSpecificationListResponse,
    create=AgentSpecificationCreate,
    replace=AgentSpecificationReplace,
    revision=schemas.AgentSpecificationRevision,
    revisions=schemas.AgentSpecificationRevisionListResponse,
)
REFINEMENT_RECORD_FAMILY = Family(
    kind=refinements.REFINEMENT_RECORDS,
    path="/refinement-records",
    id_name="record_id",
    one="record",
    many="records",
    item=schemas.RefinementRecord,
    envelope=schemas.RefinementRecordResponse,
    listing=schemas.RefinementRecordListResponse,
    create=refinements.RefinementRecordCreate,
)
Choices = Annotated[
    list[str] | None, Query(description="Only these (repeat the parameter or separate by commas).")
]


@router.get(
    "/refinement-records",
    response_model=schemas.RefinementRecordListResponse,
    tags=["refinement-records"],
    summary="List refinement records",
    operation_id="list_refinement_records",
)
def list_refinement_records(
    caller: CallerDep,
    svc: ServicesDep,
    limit: Limit = 100,
    page_token: PageToken = None,
    phase: Choices = None,
    outcome: Choices = None,
    scope: Choices = None,
    resource_kind: Annotated[
        list[str] | None, Query(description="Only records with an edit of this kind of resource.")
    ] = None,
    refinement_id: Annotated[str | None, Query(max_length=200, description="Only this refinement's.")] = None,
    search: Annotated[
        str | None, Query(max_length=200, description="Only records whose texts contain this (any case).")
    ] = None,
) -> Wire:
    """Newest first; with filters, a page looks at up to 1000 records (`scanned_count`, `scan_truncated`)."""
    wanted = refinements.filters(
        phase=phase,
        outcome=outcome,
        scope=scope,
        resource_kind=resource_kind,
        refinement_id=refinement_id,
        search=search,
    )
    kind, workspace = refinements.REFINEMENT_RECORDS, caller.workspace()
    if any(wanted.values()):
        page = svc.resources.filtered_page(
            kind,
            workspace,
            limit=limit,
            page_token=page_token,
            matches=lambda row: refinements.matches(row, wanted),
            filter_scope=repr(sorted(wanted.items())),
            scan_limit=max(limit, 1000),
        )
    else:
        page = svc.resources.page(kind, workspace, limit=limit, page_token=page_token)
    return _listing(REFINEMENT_RECORD_FAMILY, page, scanned_count=page.scanned, scan_truncated=page.truncated)


serve(PROMPT_NOTE_FAMILY)
serve(AGENT_SPECIFICATION_FAMILY)
serve(REFINEMENT_RECORD_FAMILY, plain_list=False)
