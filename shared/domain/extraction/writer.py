"""The deterministic writer: candidates in, ADD / NOOP / SUPERSEDE decided by code, in one transaction.

    >>> writer = MemoryWriter(db, embedder)                                                  # doctest: +SKIP
    >>> report = writer.write("ws_a", "u1", [Candidate("User lives in Paris", "user", "lives_in", "Paris")],
    ...                       Provenance(thread_id="thread_1", message_ids=["msg_1"]))        # doctest: +SKIP
    >>> report.counts                                                                        # doctest: +SKIP
    {'added': 1, 'noop': 0, 'superseded': 0}

- A fact with a key (user, subject, predicate) that already has an active memory with the same normalised
  value is a NOOP; with another value, the new memory SUPERSEDES the old one, which stays stored with
  ``valid_to`` and ``superseded_by`` (history), left out of default recall. The user's episodes that mention
  only the old value are marked ``stale_by`` the new fact (recall ranks them below it; never hidden).
- Anything else is added unless an identical memory exists (the dedup key), which is a NOOP.
- Running the same candidates twice changes nothing: redelivered jobs are harmless.
"""

from __future__ import annotations

from typing import Any

from shared.db import facts
from shared.db import memories as repo
from shared.db import relations as relations_repo
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.domain.extraction.candidates import Candidate, Provenance, WriteReport, normalise
from shared.domain.memories.rows import memory_row
from shared.domain.relations import writer as relations
from shared.providers.embeddings.base import Embedder


class MemoryWriter:
    def __init__(self, db: Database, embedder: Embedder, *, tiers: bool = True) -> None:
        self.db = db
        self.embedder = embedder
        self.tiers = tiers  # settings.extractive_tiers_enabled

    def write(
        self, workspace_id: str, user_id: str | None, candidates: list[Candidate], provenance: Provenance
    ) -> WriteReport:
        report = WriteReport()
        if not candidates:
            return report
        vectors = self.embedder.embed([c.content for c in candidates])
        with self.db.transaction() as conn:
            ws_repo.ensure_workspace(conn, workspace_id)
            ws_repo.bind_embedding_model(conn, workspace_id, self.embedder.model_id)
            # Serialises writers of one user's facts: two jobs superseding the same key must not both win.
            owners = {_owner(c, user_id) for c in candidates}
            for owner in sorted(owners, key=lambda u: u or ""):  # one order: two jobs never lock crosswise
                facts.lock_writer(conn, workspace_id, owner)
            people: dict[Any, str] = {}
            for candidate, vector in zip(candidates, vectors, strict=True):
                if candidate.speaker is not None and candidate.speaker not in people:
                    people[candidate.speaker] = _person(conn, workspace_id, candidate.speaker)
                subject_id = people.get(candidate.speaker) if candidate.speaker is not None else None
                owner = _owner(candidate, user_id)
                self._write_one(conn, workspace_id, owner, candidate, vector, provenance, report, subject_id)
        return report

    def _write_one(
        self,
        conn: Connection,
        workspace_id: str,
        user_id: str | None,
        candidate: Candidate,
        vector: Any,
        provenance: Provenance,
        report: WriteReport,
        subject_id: str | None = None,
    ) -> None:
        fact_key = candidate.fact_key(user_id)
        current = None
        if fact_key:
            current = facts.current(conn, workspace_id, fact_key)
            if current and normalise(str(current["metadata"].get("fact_value", ""))) == normalise(
                candidate.value or candidate.content
            ):
                report.unchanged.append(current["id"])
                return
        row = self._row(workspace_id, user_id, candidate, vector, provenance, fact_key, subject_id)
        stored, created = repo.insert(conn, row)
        if not created:
            report.unchanged.append(stored["id"])
            return
        if current:
            facts.supersede(conn, workspace_id, current["id"], by=stored["id"])
            report.superseded.append((current["id"], stored["id"]))
            # The user's turns that said only the old value ("I live in Paris") would otherwise outrank the
            # new fact for "where does Dana live?": recall ranks them lower while this fact is live.
            facts.mark_restatements_stale(
                conn,
                workspace_id,
                user_id,
                current["id"],
                candidate.value or candidate.content,
                by=stored["id"],
            )
        else:
            report.added.append(stored["id"])
        # Typed relations: the extractor's, and those the text states plainly (shared/domain/relations/writer.py).
        if relations.needs_write(stored, candidate.relations):
            relations.write_for_memory(conn, stored, candidate.relations)

    def _row(
        self,
        workspace_id: str,
        user_id: str | None,
        candidate: Candidate,
        vector: Any,
        provenance: Provenance,
        fact_key: str | None,
        subject_id: str | None = None,
    ) -> dict[str, Any]:
        metadata = dict(candidate.metadata)
        if candidate.speaker is not None and candidate.speaker.name:
            metadata["speaker"] = candidate.speaker.name
        if candidate.is_fact:
            metadata.update(
                fact_subject=candidate.subject,
                fact_predicate=candidate.predicate,
                fact_value=candidate.value or candidate.content,
            )
        metadata.setdefault("source", provenance.source)
        return memory_row(
            workspace_id,
            candidate.content,
            embedding=vector,
            embedding_model=self.embedder.model_id,
            tags=candidate.tags,
            metadata=metadata,
            # Where a memory came from is bookkeeping: the same fact from two sources is one memory.
            dedup_metadata={k: v for k, v in metadata.items() if k != "source"},
            user_id=user_id,
            session_id=provenance.session_id,
            type=candidate.type,
            subtype=candidate.subtype,
            importance=candidate.importance,
            source_thread_id=provenance.thread_id,
            source_message_ids=candidate.source_message_ids or provenance.message_ids,
            tiers=self.tiers,
            fact_key=fact_key,
            event_time=candidate.event_time,
            subject_id=subject_id,
            **({"context_id": provenance.context_id} if provenance.context_id else {}),
            **_stream(candidate, provenance),
        )


def _stream(candidate: Candidate, provenance: Provenance) -> dict[str, Any]:
    """An episode of a thread's message is a turn of the thread's ordered stream, as a chat client's
    ``remember`` with a ``sequence_key`` is: recall lends a matching turn's score to its neighbours."""
    if candidate.sequence_index is None or not provenance.thread_id:
        return {}
    return {"sequence_key": f"thread:{provenance.thread_id}", "sequence_index": candidate.sequence_index}


def _owner(candidate: Candidate, thread_user: str | None) -> str | None:
    """Whose memory a candidate becomes: its speaker's own user id when known, else the thread's user."""
    speaker = candidate.speaker
    return speaker.user_id if speaker is not None and speaker.user_id else thread_user


def _person(conn: Connection, workspace_id: str, speaker: Any) -> str:
    """The subject id of a speaker's memories: their stable speaker id when given, else their user id, else
    the id of a person entity of their name (created once; ``GET /v1/entities`` lists it)."""
    if speaker.speaker_id or speaker.user_id:
        return str(speaker.speaker_id or speaker.user_id)
    return str(relations_repo.upsert_entity(conn, workspace_id, speaker.label, "person")["id"])
