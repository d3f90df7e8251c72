"""Entity backfill: run the deterministic entity extraction over a workspace's existing live memories, so memories
stored before a relation pattern, a profile rule or the registry itself existed populate it now.

    >>> Backfill(db).run("ws_a", batch_size=200, max_memories=None, after="")        # doctest: +SKIP
    {'scanned': 412, 'accreted': 37, 'relations_written': 41, 'entities_created': 12, ...}

Each memory goes through what a new one would: its ``knowledge_work`` profile (entities created), the plain
relations its text states (``relations_in``: typed endpoints, created as extraction creates them; in a
conversation's exchange only the user's lines are read) and the resolve-only patterns. Evidence is keyed by
memory, span and excerpt, so a rerun adds nothing (idempotent). One transaction per batch; ``after`` and the
answer's ``next_after`` page a large workspace over several calls.
"""

from __future__ import annotations

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
    def __init__(self, db: Database) -> None:
        self.db = db

    def run(
        self, workspace_id: str, *, batch_size: int, max_memories: int | None, after: str
    ) -> dict[str, Any]:
        scanned = accreted = written = 0
        with self.db.connection() as conn:
            before = views_repo.count_entities(conn, workspace_id)
        cursor, complete = after, False
        while max_memories is None or scanned < max_memories:
            size = batch_size if max_memories is None else min(batch_size, max_memories - scanned)
            with self.db.transaction() as conn:
                page = views_repo.live_memories_page(conn, workspace_id, cursor, size)
                for memory in page:
                    inputs = text_relations(memory["content"])
                    if relations.needs_write(memory, inputs):
                        result = relations.write_for_memory(conn, memory, inputs)
                        accreted += int(bool(result.resolved or result.duplicate))
                        written += result.resolved
            scanned += len(page)
            if page:
                cursor = page[-1]["id"]
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
        }
