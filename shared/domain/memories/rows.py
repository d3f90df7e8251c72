"""Building a new ``memories`` row: the one place that derives its hash, dedup key and tag forms.

    >>> row = memory_row("ws_a", "likes tea", embedding=None, embedding_model="hash-384@384", tags=["Tea", "tea "],
    ...                  tiers=True)
    >>> row["tags"], row["tags_lower"], row["type"], row["abstract"]
    (['Tea', 'tea'], ['tea'], 'episodic', 'likes tea')

Every write path (remember, batch, the extraction writer, session checkpoints) starts here and passes only the
columns it sets itself.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from shared.domain.memories import serialize
from shared.domain.memories.tiers import columns as tier_columns

# Columns a new row gets unless the caller says otherwise.
_DEFAULTS: dict[str, Any] = {
    "context_id": "_default",
    "user_id": None,
    "observer_id": None,
    "subject_id": None,
    "session_id": None,
    "type": "episodic",
    "subtype": None,
    "importance": 0.5,
    "logical_key": None,
    "pinned": False,
    "source_thread_id": None,
    "source_memory_id": None,
    "fact_key": None,
    "sequence_key": None,
    "sequence_index": None,
    "event_time": None,
}


def new_memory_id() -> str:
    return f"mem_{uuid.uuid4().hex[:16]}"


def normalise_tags(tags: list[str]) -> list[str]:
    """Stripped, empty ones dropped, duplicates (exact) removed, order kept. Case is preserved."""
    seen: dict[str, None] = {}
    for tag in tags:
        tag = tag.strip()
        if tag:
            seen.setdefault(tag, None)
    return list(seen)


def dedup_key(
    content: str, tags: list[str], metadata: dict, user_id: str | None, sequence_key: str | None = None
) -> str:
    """Identical content, tags, metadata, user and stream make one memory; any difference keeps both (the
    reference server merged them: a chat's memory answered another chat's, a repeated message was lost)."""
    payload = [content, sorted(tags), metadata, user_id]
    if sequence_key is not None:
        payload.append(sequence_key)
    return hashlib.sha256(serialize.canonical_json(payload).encode()).hexdigest()


def memory_row(
    workspace_id: str,
    content: str,
    *,
    embedding: Any,
    embedding_model: str,
    tags: list[str] | None = None,
    metadata: dict[str, Any] | None = None,
    dedup_metadata: dict[str, Any] | None = None,
    memory_id: str | None = None,
    tiers: bool,
    **columns: Any,
) -> dict[str, Any]:
    """A complete row for ``shared.db.memories.insert``; ``dedup_metadata`` (default: ``metadata``) is what the
    dedup key sees, for callers that add bookkeeping keys which must not make two memories differ. ``tiers``
    (``settings.extractive_tiers_enabled``): derive the abstract and overview now."""
    tags = normalise_tags(tags or [])
    metadata = metadata or {}
    row = {**_DEFAULTS, **columns}
    row.update(
        id=memory_id or new_memory_id(),
        workspace_id=workspace_id,
        content=content,
        content_hash=hashlib.sha256(content.encode()).hexdigest(),
        dedup_key=dedup_key(
            content, tags, metadata if dedup_metadata is None else dedup_metadata, row["user_id"]
        ),
        tags=tags,
        tags_lower=sorted({t.lower() for t in tags}),
        metadata=metadata,
        refinement_metadata=row.get("refinement_metadata") or {},
        embedding=embedding,
        embedding_model=embedding_model,
        source_message_ids=list(row.get("source_message_ids") or []),
        **tier_columns(content, tiers),
    )
    return row
