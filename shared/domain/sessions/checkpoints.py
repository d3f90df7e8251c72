"""Checkpoints: a transcript segment stored durably (idempotent per key), then indexed line by line.

The raw segment is one memory (subtype ``checkpoint``); each line (≤256 chars) becomes an ``event`` memory
pointing at it. Capture is durable before indexing: a failing embedder leaves ``index_status: failed`` and a
replay of the same request retries.

    >>> [len(p) for p in split_segments("a\\n\\n  b  \\n" + "x " * 200, 100)]
    [1, 1, 99, 99, 99, 99]
"""

from __future__ import annotations

import hashlib
import re
import uuid
from typing import TYPE_CHECKING, Any

from shared.core import metering
from shared.core.errors import Conflict, InvalidInput, MemoryLayerError, NotFound, PayloadTooLarge
from shared.db import memories as mem_repo
from shared.db import sessions as repo
from shared.db import workspaces as ws_repo
from shared.db.scope import Scope
from shared.domain.memories.rows import memory_row
from shared.domain.sessions.lifecycle import get
from shared.domain.sessions.requests import CheckpointCreate

if TYPE_CHECKING:
    from shared.domain.sessions.parts import SessionParts

SEGMENT_MAX_CHARS = 256
# The raw checkpoint is found by its segments; its own vector only needs the opening.
RAW_EMBED_CHARS = 2000


def split_segments(text: str, limit: int = SEGMENT_MAX_CHARS) -> list[str]:
    """Non-empty lines, each cut at whitespace into pieces of at most ``limit`` characters."""
    pieces: list[str] = []
    for line in text.splitlines():
        line = " ".join(line.split())
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit + 1)
            cut = cut if cut > 0 else limit
            pieces.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        if line:
            pieces.append(line)
    return pieces


def capture(svc: SessionParts, scope: Scope, session_id: str, body: CheckpointCreate) -> dict:
    """Store a transcript segment durably (idempotent per key), then index its lines as memories."""
    session = get(svc, scope, session_id)
    data = body.transcript_segment.encode()
    limit = svc.settings.checkpoint_max_bytes
    if len(data) > limit:
        raise PayloadTooLarge(
            f"the segment is {len(data)} bytes; the limit is {limit}",
            code="checkpoint_too_large",
            limit=limit,
        )
    if hashlib.sha256(data).hexdigest() != body.content_hash:
        raise InvalidInput(
            "content_hash is not the sha256 of the UTF-8 segment", code="content_hash_mismatch"
        )
    with svc.db.connection() as conn:
        existing = repo.checkpoint_by_key(conn, session["workspace_id"], session_id, body.idempotency_key)
    if existing is None:
        existing = _store(svc, session, body, len(data))
    elif existing["content_hash"] != body.content_hash:
        raise Conflict("idempotency_key was already used for another segment", code="idempotency_key_reused")
    else:
        metering.replayed()  # the segment stored under this key: billed when it was first sent
    if existing["index_status"] in ("pending", "failed"):
        existing = _index(svc, session, existing, body.transcript_segment)
    return existing


def get_checkpoint(svc: SessionParts, scope: Scope, session_id: str, checkpoint_id: str) -> dict:
    session = get(svc, scope, session_id)
    with svc.db.connection() as conn:
        row = repo.get_checkpoint(conn, session["workspace_id"], session_id, checkpoint_id)
    if row is None:
        raise NotFound(f"checkpoint {checkpoint_id} not found", code="checkpoint_not_found")
    return row


def _store(svc: SessionParts, session: dict, body: CheckpointCreate, byte_count: int) -> dict:
    """The checkpoint row and its raw memory, in one transaction (a concurrent capture's row if it won)."""
    hex_id = uuid.uuid4().hex
    now = svc.clock()
    kind = re.sub(r"[^a-z0-9_-]", "_", body.source_kind.lower())
    checkpoint = {
        "id": f"chk_{hex_id}",
        "workspace_id": session["workspace_id"],
        "session_id": session["id"],
        "raw_memory_id": f"mem_chk_{hex_id}",
        "source_kind": kind,
        "source_sequence": body.source_sequence,
        "source_boundary": body.source_boundary,
        "content_hash": body.content_hash,
        "byte_count": byte_count,
        "capture_status": "durable",
        "index_status": "pending",
        "enrichment_status": "skipped",
        "idempotency_key": body.idempotency_key,
        "created_at": now,
        "updated_at": now,
    }
    vector = svc.embedder.embed_one(body.transcript_segment[:RAW_EMBED_CHARS])
    metadata = {
        "session_id": session["id"],
        "checkpoint_id": checkpoint["id"],
        "source_kind": kind,
        "content_hash": body.content_hash,
    }
    raw = _memory_row(
        svc,
        session,
        checkpoint["raw_memory_id"],
        body.transcript_segment,
        "checkpoint",
        metadata,
        vector,
        source_memory_id=None,
    )
    with svc.db.transaction() as conn:
        ws_repo.ensure_workspace(conn, session["workspace_id"])
        ws_repo.bind_embedding_model(conn, session["workspace_id"], svc.embedder.model_id)
        stored = repo.insert_checkpoint(conn, checkpoint)
        if stored is None:  # a concurrent capture with this key won: the same row, as a replay
            won = repo.checkpoint_by_key(conn, session["workspace_id"], session["id"], body.idempotency_key)
            assert won is not None  # the insert conflicted with it
            return won
        mem_repo.insert(conn, raw)
        repo.record_event(conn, session["workspace_id"], session["id"], "checkpoint", stored["id"])
    return stored


def _index(svc: SessionParts, session: dict, checkpoint: dict, segment: str) -> dict:
    """One searchable memory per line (≤256 chars), each pointing at the raw memory."""
    pieces = split_segments(segment)
    cap = svc.settings.checkpoint_max_segments
    status = "complete" if len(pieces) <= cap else "partial"
    pieces = pieces[:cap]
    try:
        size = max(1, svc.settings.embedding_batch_size)
        vectors = [v for i in range(0, len(pieces), size) for v in svc.embedder.embed(pieces[i : i + size])]
    except MemoryLayerError:
        with svc.db.transaction() as conn:
            return repo.set_index_status(
                conn, session["workspace_id"], checkpoint["id"], "failed", svc.clock()
            )
    rows = [
        _memory_row(
            svc,
            session,
            f"mem_{uuid.uuid4().hex[:16]}",
            piece,
            "event",
            {"session_id": session["id"], "checkpoint_id": checkpoint["id"], "segment_index": i},
            vector,
            source_memory_id=checkpoint["raw_memory_id"],
        )
        for i, (piece, vector) in enumerate(zip(pieces, vectors, strict=True))
    ]
    with svc.db.transaction() as conn:
        # Re-indexing after a failure must not duplicate segments already written.
        mem_repo.delete_derived(conn, session["workspace_id"], checkpoint["raw_memory_id"])
        mem_repo.insert_many(conn, rows)
        return repo.set_index_status(conn, session["workspace_id"], checkpoint["id"], status, svc.clock())


def _memory_row(
    svc: SessionParts,
    session: dict,
    memory_id: str,
    content: str,
    subtype: str,
    metadata: dict,
    vector: Any,
    *,
    source_memory_id: str | None,
) -> dict[str, Any]:
    return memory_row(
        session["workspace_id"],
        content,
        embedding=vector,
        embedding_model=svc.embedder.model_id,
        metadata=metadata,
        memory_id=memory_id,
        context_id=session["context_id"],
        user_id=session["user_id"],
        session_id=session["id"],
        subtype=subtype,
        source_memory_id=source_memory_id,
        tiers=svc.settings.extractive_tiers_enabled,
    )
