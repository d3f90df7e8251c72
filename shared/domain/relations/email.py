"""The email adapter: one message becomes one semantic memory whose ``knowledge_work`` profile says who sent it
to whom (the reference's ``services/ingest/email.py``).

    >>> m = email_to_memory(EmailIngest(sender="Ann Lee", to=["Bob", "Ann Lee"], subject="Q3 plan", body="Ship it."))
    >>> m.content, m.metadata["knowledge_work"]["relations"][0]["target"]["name"]
    ('Q3 plan: Ship it.', 'Bob')

Unlike the reference, each recipient's ``sent_to`` is written once, from the profile (the reference also sent
an explicit copy, reported as N duplicates); a message without a subject is named by its message or thread id,
or its sender, so its relations still resolve; and the caller's spans, which point into the body, are shifted by
the ``[date] Subject:`` prefix the stored content carries (its defect 10).
"""

from __future__ import annotations

from shared.domain.relations import connectors
from shared.domain.requests import EmailIngest, MemoryCreate


def email_to_memory(body: EmailIngest) -> MemoryCreate:
    sender, text = body.sender.strip(), body.body.strip()
    if not sender or not text:
        from shared.core.errors import InvalidInput

        raise InvalidInput("sender and body must not be blank", code="invalid_email")
    date = body.timestamp.date().isoformat() if body.timestamp else None
    subject = (body.subject or "").strip() or None
    prefix = "".join([f"[{date}] " if date else "", f"{subject}: " if subject else ""])
    metadata = {
        **body.metadata,
        "source": "email",
        "sender": sender,
        "recipients": list(body.to),
        "subject": subject,
        "message_id": body.message_id,
    }
    metadata = {k: v for k, v in metadata.items() if v is not None}
    record_id = body.message_id or body.thread_id
    metadata = connectors.normalize(
        metadata,
        connector_type="email",
        subject_name=subject or record_id or f"Email from {sender}" + (f" on {date}" if date else ""),
        subject_type="artifact",
        record_id=record_id,
    )
    relations = [
        r.model_copy(
            update={
                "source_span_start": None
                if r.source_span_start is None
                else r.source_span_start + len(prefix),
                "source_span_end": None if r.source_span_end is None else r.source_span_end + len(prefix),
            }
        )
        for r in body.relations
    ]
    return MemoryCreate(
        content=prefix + text,
        type="semantic",
        importance=body.importance,
        metadata=metadata,
        context_id=body.context_id,
        observer_id=sender,
        event_time=body.timestamp,
        relations=relations,
    )
