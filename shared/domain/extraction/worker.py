"""Runs one extraction job: claim it, read the messages, extract, write, mark it done.

    >>> worker = ExtractionWorker(db, embedder, settings)         # doctest: +SKIP
    >>> worker.process('{"job_id": "job_…"}', receive_count=1)    # doctest: +SKIP
    {'status': 'done', ...}

Delivery is at least once. A job already done is skipped; a job whose worker died mid-run is claimed again and
the writer's NOOP/dedup rules make the rerun change nothing that the first run wrote. The last allowed attempt
that fails marks the job failed (the queue then moves the message to the DLQ).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from shared.core import metering, metrics
from shared.core.errors import InvalidInput, NotFound
from shared.core.settings import Settings
from shared.db import facts, usage
from shared.db import threads as repo
from shared.db.pool import Database
from shared.domain.extraction.base import ExtractionInput, ExtractionOutput, Extractor, Message
from shared.domain.extraction.candidates import Provenance
from shared.domain.extraction.deterministic import DeterministicExtractor
from shared.domain.extraction.speakers import speaker_of
from shared.domain.extraction.writer import MemoryWriter
from shared.domain.indexing import VectorIndexer
from shared.providers.embeddings.base import Embedder
from shared.providers.llm import create_llm
from shared.providers.llm.budget import OperationBudget

# The reference's generation activity and LLM profile of session extraction.
ACTIVITY = "session_extraction"
PROFILE = "extraction"
ADAPTIVE_MIN_CHARS = 80  # adaptive policy: only longer user text without rule hits is worth an LLM call
# How far apart two machines' clocks may be (an ask's ``asked_at`` is the sender's wall clock, a run's start this
# process's): an ask this close before a run began is not taken as covered by it.
CLOCK_SLACK_S = 1.0


class PoisonMessage(InvalidInput):
    """A queue message that can never succeed (unparseable, or naming no job)."""

    code = "poison_message"


def message_text(content: Any) -> str:
    """Messages hold a string or a list of parts ({type, text, data}); extraction reads the text."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text") or "" for p in content if isinstance(p, dict) and p.get("text"))
    return ""


class ExtractionWorker:
    def __init__(self, db: Database, embedder: Embedder, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.writer = MemoryWriter(db, embedder, tiers=settings.extractive_tiers_enabled)
        self.indexer = VectorIndexer(db, settings, embedder.dimensions)
        self.deterministic = DeterministicExtractor()
        # Sends a follow-up indexing ask (a run that ends on its budget with rows pending); set by the services.
        self.ask_indexing: Callable[[], bool] | None = None
        # When the last indexing run that left nothing pending began (wall clock): asks sent before it are covered.
        self._indexed_through = 0.0
        self._llm_extractor: Extractor | None = None
        if settings.extractor != "deterministic" and settings.generation_allowed(ACTIVITY):
            llm = create_llm(settings, PROFILE)
            if llm is not None:
                from shared.domain.extraction.llm import LLMExtractor

                self._llm_extractor = LLMExtractor(llm)
        if settings.extractor == "llm" and self._llm_extractor is None:
            raise RuntimeError("MEMORYLAYER_EXTRACTOR=llm needs MEMORYLAYER_LLM_PROVIDER (openai or google)")

    # ------------------------------------------------------------------ queue entry point
    def process(self, body: str, *, receive_count: int = 1) -> dict[str, Any]:
        try:
            message = json.loads(body)
            indexing = message.get("kind") == "index_vectors"
            job_id = None if indexing else message["job_id"]
            if not indexing and not isinstance(job_id, str):
                raise TypeError("job_id must be a string")
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise PoisonMessage(f"unreadable extraction message: {body[:200]!r}") from exc
        if job_id is None:  # outside the parse: a failed indexing run is retried, never a poison message
            return self.index_ask(message.get("asked_at"))
        return self.run(job_id, final_attempt=receive_count >= self.settings.extraction_max_attempts)

    def index_ask(self, asked_at: Any) -> dict[str, Any]:
        """The queue's ``index_vectors`` message. Every bulk write sends one as it commits, so many arrive per run:
        one sent before a complete run of this process began is covered by that run (it saw those rows) and
        costs nothing. A run is bounded by ``indexing_run_budget_s``; one that ends with rows still pending asks
        again, so extraction and other messages get their turn in between."""
        if isinstance(asked_at, int | float) and asked_at < self._indexed_through - CLOCK_SLACK_S:
            return {"status": "coalesced", "kind": "index_vectors", "indexed": 0}
        started = time.time()
        result = self.index_vectors(budget_s=self.settings.indexing_run_budget_s)
        if result.get("more") and self.ask_indexing is not None:
            result["asked_again"] = self.ask_indexing()
        elif result.get("status") == "done":
            self._indexed_through = max(self._indexed_through, started)
        return result

    def index_vectors(self, *, defer_bulk: bool = False, budget_s: float = 60.0) -> dict[str, Any]:
        """Bulk-written memories into the HNSW graph (shared/domain/indexing/indexer.py)."""
        return self.indexer.index_vectors(defer_bulk=defer_bulk, budget_s=budget_s)

    @metrics.job("extraction")
    def run(self, job_id: str, *, final_attempt: bool = True) -> dict[str, Any]:
        with self.db.transaction() as conn:
            if repo.get_job(conn, job_id) is None:
                raise PoisonMessage(f"no extraction job {job_id}")
            job = repo.start_job(conn, job_id)
        if job is None:
            return {"status": "skipped", "reason": "already done", "job_id": job_id}
        note = (
            metering.Note()
        )  # the job's model tokens: billed with its finish, once (a failed attempt's are not)
        try:
            with metering.metered(note):
                result = self._extract_and_write(job)
        except Exception as exc:
            with self.db.transaction() as conn:
                repo.fail_job(conn, job_id, f"{exc.__class__.__name__}: {exc}", final=final_attempt)
            raise
        with self.db.transaction() as conn:
            repo.finish_job(conn, job_id, result)
            usage.add_for_workspace(conn, job["workspace_id"], "extraction", note.counts)
            repo.mark_decomposed(
                conn, job["workspace_id"], job["thread_id"], job["to_index"] + 1, result.pop("_summary", None)
            )
        return {"status": "done", "job_id": job_id, **result}

    # ------------------------------------------------------------------ the work
    def _extract_and_write(self, job: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        ws, thread_id = job["workspace_id"], job["thread_id"]
        recent_n = self.settings.extraction_recent_messages
        with self.db.connection() as conn:
            thread = repo.get(conn, ws, thread_id)
            if thread is None:
                raise NotFound(f"thread {thread_id} no longer exists", code="thread_not_found")
            new = repo.messages(
                conn, ws, thread_id, limit=10_000, from_index=job["from_index"], to_index=job["to_index"]
            )
            earlier = (
                repo.messages(
                    conn, ws, thread_id, limit=recent_n, order="desc", to_index=job["from_index"] - 1
                )
                if job["from_index"] > 0
                else []
            )
            known = facts.known(conn, ws, thread["user_id"])
        people = thread["participants"]
        data = ExtractionInput(
            messages=[_message(m, people) for m in new],
            recent=[_message(m, people) for m in reversed(earlier)],
            summary=thread["summary"],
            known_facts=known,
        )
        output, generation = self._extract(data)
        report = self.writer.write(
            ws,
            thread["user_id"],
            output.candidates,
            Provenance(thread_id=thread_id, message_ids=[m["id"] for m in new], source="extraction"),
        )
        return {
            "extractor": generation["extractor"],
            "messages_processed": len(new),
            "candidates": len(output.candidates),
            **report.counts,
            "memory_ids": report.added + [new_id for _, new_id in report.superseded],
            "generation_summary": generation,
            "extraction_time_ms": round((time.perf_counter() - started) * 1000, 2),
            "_summary": output.summary,
        }

    def _extract(self, data: ExtractionInput) -> tuple[ExtractionOutput, dict[str, Any]]:
        """Pick the extractor by policy, within the per-operation ceilings on calls and tokens."""
        policy = self.settings.enrichment_policy
        generation: dict[str, Any] = {
            "policy": policy,
            "calls": 0,
            "input_tokens": 0,
            "output_tokens": 0,
            "extractor": "deterministic",
            "skipped_reason": None,
        }
        rules = self.deterministic.extract(data)
        if self._llm_extractor is None:
            return rules, generation
        if policy == "adaptive":
            user_chars = sum(len(m.text) for m in data.messages if m.role == "user")
            if any(c.is_fact for c in rules.candidates) or user_chars < ADAPTIVE_MIN_CHARS:
                generation["skipped_reason"] = "adaptive: rules sufficed"
                return rules, generation
        from shared.domain.extraction.llm import SYSTEM, LLMExtractor, render_prompt

        assert isinstance(self._llm_extractor, LLMExtractor)
        budget = OperationBudget(self.settings, profile_max_tokens=self._llm_extractor.llm.max_tokens)
        prompt = render_prompt(data)
        refused = budget.refusal(SYSTEM, prompt)
        if refused is not None:
            generation["skipped_reason"] = f"ceiling: {refused}"
            return rules, generation
        # A failure here is a failed attempt: the queue retries, and the last attempt marks the job failed.
        proposed = self._llm_extractor.extract(data, max_tokens=budget.admit(SYSTEM, prompt))
        generation.update(
            extractor="llm",
            calls=proposed.usage.calls,
            input_tokens=proposed.usage.input_tokens,
            output_tokens=proposed.usage.output_tokens,
        )
        # The episodes come from the rules either way: the raw exchange is worth keeping verbatim.
        episodes = [c for c in rules.candidates if not c.is_fact]
        return ExtractionOutput(proposed.candidates + episodes, proposed.summary, proposed.usage), generation


def _message(row: dict[str, Any], participants: list[dict[str, Any]]) -> Message:
    return Message(
        role=row["role"],
        text=message_text(row["content"]),
        message_id=row["id"],
        created_at=row["occurred_at"] or row["created_at"],  # when it was said, if the client said so
        speaker=speaker_of(participants, row["speaker_name"], row["speaker_id"]),
        index=row["message_index"],
    )
