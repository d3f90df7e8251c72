"""Contradictions: scan a workspace, list the open ones, resolve one (shared/domain/contradictions/)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from shared.api import schemas
from shared.api.deps import Caller, CallerDep, ServicesDep, valid_workspace
from shared.api.routes.params import WorkspaceIdPath
from shared.domain.contradictions.requests import ContradictionResolveRequest, ContradictionScanRequest

router = APIRouter(tags=["contradictions"])


def _mine(caller: Caller, workspace_id: str) -> str:
    return caller.principal.require_workspace(valid_workspace(workspace_id))


@router.post("/v1/workspaces/{workspace_id}/contradictions/scan", response_model=schemas.ContradictionScan)
def scan_contradictions(
    workspace_id: WorkspaceIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    body: ContradictionScanRequest | None = None,
) -> schemas.ContradictionScan:
    """Compare the workspace's live memories and record the contradictions not recorded before (no LLM:
    negations of the same statement, one subject and predicate with two values, `contradicts` associations).
    One scan records at most `MEMORYLAYER_CONTRADICTION_SCAN_MAX_PAIRS` pairs; `next_cursor` continues."""
    result = svc.contradictions.scan(_mine(caller, workspace_id), body.cursor if body else None)
    found = [schemas.Contradiction.from_row(r) for r in result["contradictions"]]
    return schemas.ContradictionScan.model_construct(
        workspace_id=result["workspace_id"],
        contradictions_found=len(found),
        contradictions=found,
        memories_scanned=result["memories_scanned"],
        truncated=result["truncated"],
        next_cursor=result["next_cursor"],
        pairs_found=result["pairs_found"],
        groups_capped=result["groups_capped"],
    )


@router.get("/v1/workspaces/{workspace_id}/contradictions", response_model=schemas.ContradictionList)
def list_contradictions(
    workspace_id: WorkspaceIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=1000, description="How many at most (default 10).")] = 10,
) -> schemas.ContradictionList:
    """The workspace's unresolved contradictions whose two memories are both still live, newest first."""
    rows = svc.contradictions.unresolved(_mine(caller, workspace_id), limit)
    listed = [schemas.Contradiction.from_row(r) for r in rows]
    return schemas.ContradictionList.model_construct(contradictions=listed, count=len(listed))


@router.post("/v1/contradictions/{contradiction_id}/resolve", response_model=schemas.Contradiction)
def resolve_contradiction(
    contradiction_id: Annotated[str, Path(description="The contradiction's id.")],
    body: ContradictionResolveRequest,
    caller: CallerDep,
    svc: ServicesDep,
) -> schemas.Contradiction:
    """Resolve an open contradiction: keep one memory and supersede the other (its history stays), merge them
    into A, or keep both. A resolved one, or one whose memory is gone, is a 409 and changes nothing."""
    row = svc.contradictions.resolve(
        caller.lookup_scope(), contradiction_id, body.resolution, body.merged_content
    )
    return schemas.Contradiction.from_row(row)
