"""Entity backfill: run the deterministic entity extraction over a workspace's existing live memories, so memories
stored before a relation pattern, a profile rule or the registry itself existed populate it now.

    >>> Backfill(db).run("ws_a", batch_size=200, max_memories=500, after="")         # doctest: +SKIP
    {'scanned': 412, 'accreted': 37, 'relations_written': 41, 'entities_created': 12, ...}

Each memory goes through what a new one would: its ``subject_id`` (the entity it names, created as a ``person``
when none does, as the reference's accretion anchors it), its ``knowledge_work`` profile (entities created), the plain
relations its text states (``relations_in``: typed endpoints, created as extraction creates them; in a
conversation's exchange only the user's lines are read) and the resolve-only patterns. Evidence is keyed by
memory, span and excerpt, so a rerun adds nothing (idempotent). One transaction per memory written; a call stops
at ``max_memories`` or its time budget, and ``after`` with the answer's ``next_after`` pages a large workspace over
several calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from shared.db import entity_views as views_repo
from shared.db.pool import Database
from shared.domain.extraction.deterministic import RELATION_CONFIDENCE, relations_in
from shared.domain.relations import writer as relations
from shared.domain.requests import EntityRelationInput

_SPEAKER = "User: "
_OTHER_SPEAKER = "Assistant:"


def text_relations(content: str) -> list[EntityRelationInput]:
    """The relations ``content`` states plainly, spans into ``content``; an exchange's assistant lines are
    skipped (extraction reads only what the user said)."""
    out, offset = [], 0
    for line in content.splitlines(keepends=True):
        start, text = offset, line
        offset += len(line)
        if text.startswith(_OTHER_SPEAKER):
            continue
        if text.startswith(_SPEAKER):
            start, text = start + len(_SPEAKER), text[len(_SPEAKER) :]
        for relationship, source, src_kind, target, dst_kind, s, e in relations_in(text):
            out.append(
                EntityRelationInput(
                    source_entity_name=source,
                    source_entity_type=src_kind,
                    target_entity_name=target,
                    target_entity_type=dst_kind,
                    relationship=relationship,
                    confidence=RELATION_CONFIDENCE,
                    source_span_start=start + s,
                    source_span_end=start + e,
                    evidence_kind="pattern",
                    extraction_method="deterministic_extraction",
                )  # fmt: skip
            )
    return out


class Backfill:
    def __init__(self, db: Database, clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self.clock = clock

    def run(
        self,
        workspace_id: str,
        *,
        batch_size: int,
        max_memories: int,
        after: str,
        time_budget_s: float | None = None,
    ) -> dict[str, Any]:
        """Read up to ``max_memories`` live memories after ``after`` (by id), starting no new one once
        ``time_budget_s`` has passed (one memory at least). Pages are read without a transaction and each memory that states something
        is written in its own: no transaction stays open across the Python work (a batch held open past the
        idle-in-transaction timeout lost its connection)."""
        started = self.clock()
        scanned = accreted = written = 0
        with self.db.connection() as conn:
            before = views_repo.count_entities(conn, workspace_id)
        cursor, complete, stopped_by = after, False, None
        while True:
            if scanned >= max_memories:
                stopped_by = "max_memories"
                break
            size = min(batch_size, max_memories - scanned)
            with self.db.connection() as conn:
                page = views_repo.live_memories_page(conn, workspace_id, cursor, size)
            for memory in page:
                inputs = text_relations(memory["content"])
                if relations.needs_write(memory, inputs) or memory.get("subject_id"):
                    with self.db.transaction() as conn:
                        subject = relations.link_subject(conn, memory)
                        result = relations.write_for_memory(conn, memory, inputs)
                    accreted += int(bool(result.resolved or result.duplicate or subject))
                    written += result.resolved
                scanned += 1
                cursor = memory["id"]
                # Checked after a memory, so that every call moves on by one at least.
                if time_budget_s is not None and self.clock() - started >= time_budget_s:
                    stopped_by = "time_budget"
                    break
            if stopped_by:
                break
            if len(page) < size:
                complete = True
                break
        with self.db.connection() as conn:
            after_count = views_repo.count_entities(conn, workspace_id)
        return {
            "cleared": 0,
            "scanned": scanned,
            "accreted": accreted,
            "relations_written": written,
            "entities_created": max(0, after_count - before),
            "complete": complete,
            "next_after": None if complete else cursor,
            "stopped_by": stopped_by,
        }
