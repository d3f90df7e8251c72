"""Hybrid recall: one SQL statement (``recall.sql``), then association expansion that honours the same filters
(``expansion.py``), then the response with its token budget (``shaping.py``).

The statement ranks with two arms and three cues (measured on LoCoMo, bench/locomo/EXPERIMENTS.md):

- a pgvector HNSW arm (cosine, relative to the best candidate's) and a full-text arm scored BM25-style (IDF
  over the searched workspaces, so a word every memory holds counts for little), fused by weighted score;
- neighbouring turns: in an ordered stream (``sequence_key``) a candidate lends part of its score to the turn
  after it (the reply to a matching question) and, less, to the one before it;
- the speaker: a memory whose ``metadata.speaker`` is named in the query is boosted;
- time: for a "when" question, a memory whose text mentions a time is boosted.

Two weights keep current facts first: a query word that is someone's name by a name fact of the scope
counts for little, and a memory matching only that name ("User's name is Dana" for "where does Dana live?")
keeps a fraction of its score; a turn that restates a superseded value (``stale_by``, set by the extraction
writer) ranks lower than the fact that replaced it, unless the question asks about the past (docs/recall.md).

    >>> req = RecallRequest(query="redis timeout")                                # doctest: +SKIP
    >>> result = Recaller(db, embedder, settings).recall(["ws_a"], req)           # doctest: +SKIP
    >>> result["memories"][0]["match_signals"]                                    # doctest: +SKIP
    ['vector', 'keyword']

Ranking variants that were measured and not kept (reciprocal-rank fusion, ts_rank_cd, prefix matching, …)
live in bench/locomo/variants.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg
from cachetools import TTLCache

from shared.core import metrics
from shared.core.errors import EmbeddingModelMismatch, Forbidden, Unprocessable
from shared.core.settings import Settings
from shared.db import memories as mem_repo
from shared.db import vector_index
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.db.recall import BROWSE_SQL, FILTERS, HotFunction, hot_function, hybrid_sql, is_hot, own_function
from shared.db.rows import Connection
from shared.domain.indexing import OwnGraphs, PublishedGeneration
from shared.domain.memories.tiers import attach as attach_tiers
from shared.domain.requests import RecallRequest
from shared.domain.retrieval import relations as relations_arm
from shared.domain.retrieval.conversation import embedding_text
from shared.domain.retrieval.expansion import expand
from shared.domain.retrieval.params import filter_params
from shared.domain.retrieval.shaping import shape
from shared.domain.retrieval.text_query import (
    TIME_EXPRESSION,
    asks_past,
    asks_when,
    named_period,
    period_params,
    query_terms,
    query_words,
)
from shared.providers.embeddings.base import Embedder

TOLERANCE_FLOORS = {"loose": 0.15, "moderate": 0.3, "strict": 0.6}
DEFAULT_RECENCY_WEIGHT = 0.2
# Workspaces at least this large reuse their memory count (BM25's N) for SCOPE_COUNT_TTL_S instead of counting
# on every recall; smaller ones are counted each time (cheap, and exact while a workspace fills up).
SCOPE_COUNT_CACHE_MIN = 2000
SCOPE_COUNT_TTL_S = 60.0
SCOPE_COUNT_ENTRIES = 10_000  # scopes remembered; a full cache forgets the oldest
# ANALYZE's lexeme frequencies are estimates that change only when statistics are gathered: read again after
# this long instead of on every recall.
WORD_STATS_TTL_S = 300.0
# ...but a read that found none (the table not analysed yet: every word is then listed, the costly case) is tried
# again after this long: a freshly loaded workspace's first recalls would otherwise list every word for minutes
# after its ANALYZE (BENCHMARKS.md, the 1M section).
WORD_STATS_RETRY_S = 5.0
# Whether the hot-shape function is installed (migrations may run after this process started), and the table's
# estimated size, are read again after this long.
HOT_FUNCTION_RECHECK_S = 300.0
# The hot-shape function serves a scope holding at least this share of the memories table (_plan_reused).
HOT_MIN_SHARE = 0.1


@dataclass(frozen=True)
class FusionWeights:
    # MiniLM's question-to-turn cosines are a weaker signal than BM25 on chat turns
    # (bench/locomo/EXPERIMENTS.md).
    vector: float = 0.4
    keyword: float = 1.0


@dataclass(frozen=True)
class RecallTuning:
    """The statement's numeric knobs (all parameters of recall.sql). The defaults are the measured best
    (bench/locomo/EXPERIMENTS.md)."""

    bm25_k1: float = 1.2
    bm25_b: float = 0.5
    # Query words estimated to be in more than this many memories of the scope are not listed in full: they
    # are only looked for among the other arms' candidates (recall.sql, ``lexemes``). None: list every match.
    bm25_list_max_df: int | None = 2000
    # A hit lends this share of its relevance to the next turn of its stream (the reply) and the previous one.
    reply_weight: float = 0.6
    lead_weight: float = 0.3
    # Memories whose ``metadata.speaker`` is named in the query are boosted by this factor (1 + w).
    speaker_boost: float = 0.4
    # For a question asking "when", memories whose text mentions a time are boosted by this factor (1 + w).
    time_cue_boost: float = 0.5
    # A query word that a name fact of the scope holds ("Dana"): its IDF, and the relevance of a memory that
    # matches only names while the query asks something more, are multiplied by this (recall.sql, ``names``).
    name_weight: float = 0.25
    # A query word found only in a conversation turn's previous turn (same stream; migration 0023) counts this
    # share of its IDF. EXPERIMENTS.md §11.6: better on both dev conversations for 0.15-0.3; 0 turns it off.
    context_text_weight: float = 0.25
    # A turn restating a superseded value ranks this share of its score while the new fact is live.
    stale_weight: float = 0.4
    # A question naming a month or a day (text_query.named_period): memories whose event_time (else created_at)
    # falls in it, or up to ``date_slack_days`` after, × (1 + date_boost). EXPERIMENTS.md §10.3: better on both
    # dev conversations.
    date_boost: float = 0.3
    date_slack_days: int = 7
    tolerance_floors: dict[str, float] = field(default_factory=lambda: dict(TOLERANCE_FLOORS))
    recency_weight: float = DEFAULT_RECENCY_WEIGHT


def _cosine_floor(req: RecallRequest, floors: dict[str, float]) -> float:
    floor = floors[req.tolerance]
    if req.min_relevance is None:
        return floor
    if req.min_relevance <= 0:
        return -2.0  # cosine distance ranges over [0, 2]: nothing is cut
    return max(req.min_relevance, floor)


class Recaller:
    def __init__(
        self,
        db: Database,
        embedder: Embedder,
        settings: Settings,
        weights: FusionWeights | None = None,
        tuning: RecallTuning | None = None,
        *,
        timer: Callable[[], float] = time.monotonic,
    ):
        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.weights = weights or FusionWeights()
        self.tuning = tuning or RecallTuning()
        self._scope_counts: TTLCache[tuple[str, ...], int] = TTLCache(
            maxsize=SCOPE_COUNT_ENTRIES, ttl=SCOPE_COUNT_TTL_S, timer=timer
        )
        self._scope_lock = threading.Lock()  # a cachetools cache is not safe to share between threads
        # (read at, {first three letters: [(lexeme, share of rows)]}) from pg_stats: see _lexeme_frequencies.
        self._word_stats: tuple[float, dict[str, list[tuple[str, float]]]] | None = None
        # For this code's hot-shape functions (_plan_reused): when checked, whether the one that walks the graph
        # and the one that sorts are installed, the memories table's estimated rows, and the walking one's name.
        self._hot_installed: tuple[float, bool, bool, float | None, str] | None = None
        # Functions found missing when called (name -> when): not called again for HOT_FUNCTION_RECHECK_S.
        self._missing: dict[str, float] = {}
        # The published vector generation: read once, then refreshed by each recall's pipeline for the next one.
        # Any value gives exact results; a current one walks the current graph.
        self._generation = PublishedGeneration(db, embedder.dimensions)
        # Which large workspaces have a graph of their own (shared/db/vector_index.py, DEDICATED_MIN_ROWS).
        self._own_graphs = OwnGraphs(db, embedder.dimensions)

    def recall(self, workspace_ids: list[str], req: RecallRequest) -> dict[str, Any]:
        with metrics.measure(metrics.RECALLS, metrics.RECALL_LATENCY, mode=req.mode or "default"):
            return self._recall(workspace_ids, req)

    def _recall(self, workspace_ids: list[str], req: RecallRequest) -> dict[str, Any]:
        started = time.perf_counter()
        if req.limit > self.settings.max_recall_limit:
            raise Unprocessable(
                f"limit {req.limit} is over the maximum {self.settings.max_recall_limit}",
                code="limit_too_large",
            )
        if req.mode in ("llm", "agentic"):
            raise Forbidden(
                f"recall mode {req.mode!r} needs an LLM, and none is configured",
                code="generation_not_allowed",
            )
        arm = relations_arm.plan(req)  # None unless the query asks about a relation
        # Before a connection is taken: the query's embedding may be a remote call (openai, google, gpu), and a
        # pooled connection held meanwhile is one fewer for everyone else (and a longer RDS Proxy borrow).
        browse = req.query.strip() == "*"
        vector = None if browse else self.embedder.embed_query(embedding_text(req.query, req.context))
        called: list[str] = []  # the hot-shape function the statement went through, if one
        try:
            return self._ranked(workspace_ids, req, arm, vector, started, called)
        except psycopg.errors.UndefinedFunction:
            # The function went away after it was seen (a newer deploy's migrate cleaned it up, a restored
            # snapshot), or a workspace's own was never made: the unit of work was rolled back; ask again with
            # the ad-hoc statement, and not through that function for a while.
            if not called:
                raise
            self._missing[called[0]] = time.monotonic()
            metrics.record(metrics.DATABASE_RETRIES, reason="plan_function_missing")
            return self._ranked(workspace_ids, req, arm, vector, started, [])

    def _ranked(
        self,
        workspace_ids: list[str],
        req: RecallRequest,
        arm: relations_arm.Arm | None,
        vector: Any,
        started: float,
        called: list[str],
    ) -> dict[str, Any]:
        with self.db.connection(pipelined=True) as conn:
            sql, params = self.statement(workspace_ids, req, conn, vector=vector)
            kept = self._kept_plan(conn, sql, params)
            if kept is not None:
                called.append(kept.name)
                sql = kept.call
            with conn.pipeline():
                bound = ws_repo.recall_bindings(conn, workspace_ids)
                hits = conn.execute(sql, params)
                related = arm.execute(conn, FILTERS, params) if arm else None
                generation = conn.execute(vector_index.GENERATION_SQL, (self.embedder.dimensions,))
            self._generation.seen(generation.fetchone())
            workspaces = bound.fetchall()
            self._check_models(workspaces)
            rows = hits.fetchall()
            self._remember_scope_count(workspace_ids, params, rows)
            # The relational arm's memories, fused by reciprocal rank (shared/domain/retrieval/relations.py).
            rows, paths = relations_arm.fuse(rows, related, req)
            # No association was ever made in these workspaces (migration 0018's flag, set by the writing
            # transaction): the walk would find nothing, so it is not asked.
            linked = any(w["has_associations"] for w in workspaces)
            expanded = expand(conn, req, self.settings, params, rows) if linked and rows else []
            self._attach_tiers(conn, workspace_ids, rows + expanded)
        return dict(self._result(req, rows, expanded, started), relation_paths=paths)

    def statement(
        self,
        workspace_ids: list[str],
        req: RecallRequest,
        conn: Connection | None = None,
        *,
        vector: Any = None,
    ) -> tuple[str, dict[str, Any]]:
        """The one ranking statement for ``req`` and its parameters (``*`` browses, newest first). ``conn``
        reads the word statistics when they are due (else a connection is borrowed for it); ``vector`` is the
        query's embedding when the caller has it already."""
        params = filter_params(req, workspace_ids)
        params.update(limit=req.limit, offset=req.offset)
        if req.query.strip() == "*":
            return BROWSE_SQL, params
        tuning, w = self.tuning, self.weights
        # The text arm takes the query's terms (a query without any has none: see recall.sql, ``scope``).
        qtext = " ".join(t.strip("'") for t in query_terms(req.query))
        period = named_period(req.query)
        params.update(
            q=self.embedder.embed_query(embedding_text(req.query, req.context)) if vector is None else vector,
            model=self.embedder.model_id,
            k=max(
                self.settings.recall_min_candidates,
                (req.limit + req.offset) * self.settings.recall_candidate_multiplier,
            ),
            floor=_cosine_floor(req, tuning.tolerance_floors),
            qtext=qtext,
            scope_n=self._scope_count(workspace_ids),
            **self._lexeme_frequencies(conn, qtext),
            list_max_df=tuning.bm25_list_max_df,
            k1=tuning.bm25_k1,
            b=tuning.bm25_b,
            w_vec=w.vector,
            w_text=w.keyword,
            reply_w=tuning.reply_weight,
            lead_w=tuning.lead_weight,
            speaker_w=tuning.speaker_boost,
            qwords=query_words(req.query),
            time_w=tuning.time_cue_boost if asks_when(req.query) else 0.0,
            time_re=TIME_EXPRESSION,
            name_w=tuning.name_weight,
            ctx_w=float(tuning.context_text_weight),
            stale_w=1.0 if req.include_history or asks_past(req.query) else tuning.stale_weight,
            date_w=tuning.date_boost if period else 0.0,
            **period_params(period, tuning.date_slack_days),
            rw=tuning.recency_weight if req.recency_weight is None else req.recency_weight,
        )
        generation = self.generation(conn)
        return hybrid_sql(
            self.embedder.dimensions, generation, self._own_graph(workspace_ids, generation, conn)
        ), params

    def _own_graph(self, workspace_ids: list[str], generation: int, conn: Connection | None) -> str | None:
        """The workspace of the scope walked in its own graph at ``generation``, if one has one: the first
        that does (the statement names it literally, for the graph's predicate; the rest of the scope is sorted
        exactly apart, recall.sql). Such a statement runs ad hoc, planned with its values: a per-workspace plan-reusing
        function was measured slower for the larger ones (BENCHMARKS.md, "A graph of its own")."""
        for workspace_id in dict.fromkeys(workspace_ids):
            if self._own_graphs.has(workspace_id, generation, conn):
                return workspace_id
        return None

    def generation(self, conn: Connection | None = None) -> int:
        """The vector generation recall walks the graph of (read on first use; each recall refreshes it)."""
        return self._generation.get(conn)

    def forget_generation(self) -> None:
        """Read the vector generation afresh on the next recall (after a rebuild this process ran), and which
        workspaces have their own graphs at it."""
        self._generation.forget()
        self._own_graphs.forget()

    def _plan_reused(self, conn: Connection, sql: str, params: dict[str, Any]) -> str:
        """What recall runs for ``sql``: the call of its kept-plan function (``_kept_plan``), or ``sql``."""
        kept = self._kept_plan(conn, sql, params)
        return sql if kept is None else kept.call

    def _kept_plan(self, conn: Connection, sql: str, params: dict[str, Any]) -> HotFunction | None:
        """The same statement through a hot-shape function (shared/db/recall.py, ``HotFunction``: its plan is
        made once per database session) when it is installed and the request uses no optional filter: the one
        that sorts the scope exactly for a scope known to be small (settings.recall_sorted_max_rows); else, for a
        scope with a workspace walked in its own graph, that workspace's function; else the one that walks the
        graph, for a known count of at least SCOPE_COUNT_CACHE_MIN memories that is at least HOT_MIN_SHARE of the
        table; else (or with settings.recall_kept_plans off) none: ``sql`` runs as it is, planned with its
        values. A statement other than production's (browsing, a bench variant in place of ``statement``) is
        left alone.

        The walking function's generic plan always walks the HNSW graph; for a workspace that is a small share
        of the table the planner, given the values, sorts the workspace's rows exactly instead, and a filtered
        graph walk would both cost more and may miss neighbours (docs/recall.md). The sorting function's plan
        walks nothing, so it serves a small scope in any table with exact results."""
        if not self.settings.recall_kept_plans:
            return None
        dims = self.embedder.dimensions
        generation = self.generation(conn)
        own = self._own_graph(params["ws"], generation, conn)
        if sql != hybrid_sql(dims, generation, own) or not is_hot(params):
            return None
        size = self._scope_size(params["ws"])
        small = size is not None and size <= self.settings.recall_sorted_max_rows
        if own is not None and not small:
            return self._unless_missing(own_function(dims, generation, own))
        if size is None or (not small and params["scope_n"] is None):
            return None
        hot = hot_function(dims, generation)
        checked = self._hot_installed
        if checked is not None and checked[4] != hot.name:  # a new generation: its own functions
            checked = None
        if checked is None or time.monotonic() - checked[0] > HOT_FUNCTION_RECHECK_S:
            row = conn.execute(
                "SELECT to_regproc(%s) IS NOT NULL AS walks, to_regproc(%s) IS NOT NULL AS sorts, "
                "(SELECT reltuples FROM pg_class WHERE oid = 'memories'::regclass) AS rows",
                (hot.name, hot_function(dims, generation, walk=False).name),
            ).fetchone()
            rows = float(row["rows"]) if row and row["rows"] is not None else None
            checked = self._hot_installed = (
                time.monotonic(),
                bool(row and row["walks"]),
                bool(row and row["sorts"]),
                rows,
                hot.name,
            )
        _, walks, sorts, table_rows, _ = checked
        if small:
            return self._unless_missing(hot_function(dims, generation, walk=False)) if sorts else None
        # reltuples is -1 before the table's first ANALYZE: unknown, the count alone decides.
        large = table_rows is None or params["scope_n"] >= HOT_MIN_SHARE * table_rows
        return self._unless_missing(hot) if walks and large else None

    def _unless_missing(self, function: HotFunction) -> HotFunction | None:
        """``function``, unless it was found missing lately."""
        missing = self._missing.get(function.name)
        if missing is not None and time.monotonic() - missing <= HOT_FUNCTION_RECHECK_S:
            return None
        return function

    def forget_word_stats(self) -> None:
        """Read the word statistics afresh on the next recall (after an ANALYZE this process ran itself;
        otherwise they are at most ``WORD_STATS_TTL_S`` old).

        >>> recaller.forget_word_stats()  # doctest: +SKIP
        """
        self._word_stats = None

    def _lexeme_frequencies(self, conn: Connection | None, qtext: str) -> dict[str, list]:
        """``mce_lexemes`` / ``mce_freqs``: those of memories.tsv's most common lexemes (pg_stats through
        migration 0019's reader, which row-level security does not hide from the app role) that may be the query's.

        Only candidates are sent, not the whole list (up to a thousand entries, costly to send and to plan):
        the english stemmer rewrites endings only, so a word's lexeme starts with the word's first three
        letters. The statement still matches lexemes exactly; an extra candidate changes nothing."""
        cached = self._word_stats
        if cached is None or time.monotonic() - cached[0] > (
            WORD_STATS_TTL_S if cached[1] else WORD_STATS_RETRY_S
        ):
            if conn is None:
                with self.db.connection() as own:
                    row = mem_repo.word_stats(own)
            else:
                row = mem_repo.word_stats(conn)
            by_prefix: dict[str, list[tuple[str, float]]] = {}
            if row:
                # most_common_elem_freqs ends with three summary numbers (min, max, null share) after the
                # per-lexeme shares: zip stops at the lexemes.
                for lexeme, freq in zip(row["lexemes"], row["freqs"], strict=False):
                    by_prefix.setdefault(lexeme[:3], []).append((lexeme, freq))
            cached = self._word_stats = (time.monotonic(), by_prefix)
        found = {e for word in set(qtext.split()) for e in cached[1].get(word[:3], ())}
        return {"mce_lexemes": [e[0] for e in found], "mce_freqs": [e[1] for e in found]}

    def _scope_count(self, workspace_ids: list[str]) -> int | None:
        """BM25's N for the statement when a recent count of a large scope is known (else it counts)."""
        size = self._scope_size(workspace_ids)
        return size if size is not None and size >= SCOPE_COUNT_CACHE_MIN else None

    def _scope_size(self, workspace_ids: list[str]) -> int | None:
        """The scope's memories as a recent recall counted them (which statement serves it: _plan_reused)."""
        with self._scope_lock:
            return self._scope_counts.get(tuple(sorted(workspace_ids)))

    def _remember_scope_count(
        self, workspace_ids: list[str], params: dict[str, Any], rows: list[dict]
    ) -> None:
        """Keep the count the statement just made (it was not given one)."""
        n = rows[0].get("scope_n") if rows else None
        if params.get("scope_n") is None and n is not None:
            with self._scope_lock:
                self._scope_counts[tuple(sorted(workspace_ids))] = int(n)

    def _check_models(self, bound: list[dict]) -> None:
        other = [b for b in bound if b["embedding_model"] not in (None, self.embedder.model_id)]
        if other:
            raise EmbeddingModelMismatch(
                f"workspace {other[0]['id']!r} holds embeddings of model {other[0]['embedding_model']!r}; "
                f"this server embeds queries with {self.embedder.model_id!r}: vectors of different models "
                "cannot be compared. Re-embed the workspace (memorylayer reembed).",
                workspace_model=other[0]["embedding_model"],
                server_model=self.embedder.model_id,
            )

    def _result(self, req: RecallRequest, rows: list[dict], expanded: list[dict], started: float) -> dict:
        confidence = req.include_confidence and self.settings.retrieval_confidence_enabled
        budget = req.budget_tokens or self.settings.recall_token_budget_default or None
        return shape(
            req, rows, expanded, started, self._attach_embeddings, confidence=confidence, budget=budget
        )

    def _attach_tiers(self, conn: Connection, workspace_ids: list[str], rows: list[dict]) -> None:
        """Each row's abstract and overview (sent, and what the detail level and the budget step down to). A
        memory the backfill has not reached yet gets them computed here, not stored; with tiers off, none."""
        stored = mem_repo.tiers_of(conn, workspace_ids, [r["id"] for r in rows])
        for row in rows:
            attach_tiers(row, stored.get(row["id"]), self.settings.extractive_tiers_enabled)

    def _attach_embeddings(self, memories: list[dict]) -> None:
        workspace_ids = sorted({m["workspace_id"] for m in memories})
        with self.db.connection() as conn:
            vectors = mem_repo.embeddings_of(conn, workspace_ids, [m["id"] for m in memories])
        for memory in memories:
            memory["embedding"] = vectors.get(memory["id"])
