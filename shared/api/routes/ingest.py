"""/v1/ingest/email: the email adapter (shared/domain/relations/email.py)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.domain.memories import serialize
from shared.domain.relations.email import email_to_memory
from shared.domain.requests import EmailIngest

router = APIRouter(prefix="/v1/ingest", tags=["ingest"])


@router.post("/email", status_code=201, response_model=schemas.IngestedMemory)
def ingest_email(
    body: EmailIngest, caller: CallerDep, svc: ServicesDep, response: Response
) -> schemas.IngestedMemory:
    """Store one email as a memory (sender, recipients, subject and date in its text) and write the
    relations its envelope declares (`sent_to` per recipient, `sent_by`, thread and message ids)."""
    row, _created, _replayed = svc.memories.remember(
        caller.workspace(body.workspace_id), email_to_memory(body), tenant_id=caller.tenant_id
    )
    response.headers["ETag"] = serialize.etag(row)
    return schemas.IngestedMemory.model_construct(memory=schemas.RememberedMemory.written(row))
