"""/v1/prompt-notes, /v1/agent-specifications, /v1/refinement-records: versioned resources, each family a
declaration (``shared.api.routes.families``) served by the generic routes (three when append-only, whose list has
filters of its own)."""

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import Field

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.families import (
    CONDITIONAL,
    Family,
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    IncludeDeleted,
    Limit,
    PageToken,
    actor,
    required,
)
from shared.api.routes.family_routes import serve
from shared.api.schemas.base import Wire
from shared.api.schemas.resources import NextPageToken
from shared.domain.resources import refinement_records as refinements
from shared.domain.resources.agent_specifications import (
    AGENT_SPECIFICATIONS,
    AgentSpecificationCreate,
    AgentSpecificationReplace,
)
from shared.domain.resources.prompt_notes import PROMPT_NOTES, PromptNoteCreate, PromptNoteReplace

# The conditional-write vocabulary, as other route modules import it from here.
__all__ = [
    "CONDITIONAL",
    "IdempotencyKey",
    "IfMatch",
    "IfNoneMatch",
    "IncludeDeleted",
    "Limit",
    "PageToken",
    "actor",
    "required",
    "router",
]

router = APIRouter(prefix="/v1")

PROMPT_NOTE_FAMILY = Family(
    PROMPT_NOTES,
    "/prompt-notes",
    "note_id",
    "note",
    "notes",
    schemas.PromptNote,
    create=PromptNoteCreate,
    replace=PromptNoteReplace,
)
AGENT_SPECIFICATION_FAMILY = Family(
    AGENT_SPECIFICATIONS,
    "/agent-specifications",
    "specification_id",
    "specification",
    "specifications",
    schemas.AgentSpecification,
    create=AgentSpecificationCreate,
    replace=AgentSpecificationReplace,
    words={
        "one": "The agent specification.",
        "many": "The specifications, most recently changed first.",
        "revision": "The specification as this revision left it.",
    },
)
REFINEMENT_RECORD_FAMILY = Family(
    refinements.REFINEMENT_RECORDS,
    "/refinement-records",
    "record_id",
    "record",
    "records",
    schemas.RefinementRecord,
    create=refinements.RefinementRecordCreate,
    routes=frozenset({"create", "get"}),  # append-only; its list has filters (below)
    words={"many": "The records, newest first."},
    listing_fields={
        "next_page_token": (NextPageToken, None),
        "scanned_count": (
            int,
            Field(default=0, description="How many records this page looked at (filters skip some)."),
        ),
        "scan_truncated": (
            bool,
            Field(
                default=False,
                description="True when the scan stopped before the page filled: ask for the next page.",
            ),
        ),
    },
)
Choices = Annotated[
    list[str] | None, Query(description="Only these (repeat the parameter or separate by commas).")
]


@router.get(
    "/refinement-records",
    response_model=REFINEMENT_RECORD_FAMILY.listing,
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
    return REFINEMENT_RECORD_FAMILY.page(
        svc, workspace, page, scanned_count=page.scanned, scan_truncated=page.truncated
    )


serve(router, PROMPT_NOTE_FAMILY)
serve(router, AGENT_SPECIFICATION_FAMILY)
serve(router, REFINEMENT_RECORD_FAMILY)
