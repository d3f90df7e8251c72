"""/v1/ingest/email: the email adapter (shared/relations/email.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from shared.api.deps import CallerDep, ServicesDep
from shared.memories import serialize
from shared.relations.email import email_to_memory
from shared.relations.models import EmailIngest

router = APIRouter(prefix="/v1/ingest", tags=["ingest"])


@router.post("/email", status_code=201)
def ingest_email(body: EmailIngest, caller: CallerDep, svc: ServicesDep) -> JSONResponse:
    """201 ``{memory}`` (the reference's ``MemoryResponse``: no ``replayed``)."""
    row, _created, _replayed = svc.memories.remember(
        caller.workspace(body.workspace_id), email_to_memory(body), tenant_id=caller.tenant_id
    )
    memory: dict[str, Any] = serialize.memory(row, embedding=True)
    written = row.get("relation_write_result")
    memory["relation_write_result"] = written.as_wire() if written is not None and written.any() else None
    return JSONResponse({"memory": memory}, status_code=201, headers={"ETag": serialize.etag(row)})
