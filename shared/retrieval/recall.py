"""Hybrid recall in one SQL statement, then association expansion that honours the same filters, then
token-budget packing.

The statement ranks with two arms and three cues (measured on LoCoMo, bench/locomo/EXPERIMENTS.md):

- a pgvector HNSW arm (cosine, relative to the best candidate's) and a full-text arm scored BM25-style (IDF
  over the searched workspaces, so a word every memory holds counts for little), fused by weighted score;
- neighbouring turns: in an ordered stream (``sequence_key``) a candidate lends part of its score to the turn
  after it (the reply to a matching question) and, less, to the one before it;
- the speaker: a memory whose ``metadata.speaker`` is named in the query is boosted;
- time: for a "when" question, a memory whose text mentions a time is boosted.

    >>> req = RecallRequest(query="redis timeout")                                # doctest: +SKIP
    >>> result = Recaller(db, embedder, settings).recall(["ws_a"], req)           # doctest: +SKIP
    >>> result["memories"][0]["match_signals"]                                    # doctest: +SKIP
    ['vector', 'keyword']
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import psycopg

from shared.db import associations as assoc_repo
from shared.db.memories import QUALIFIED_COLUMNS
from shared.db.pool import Database
from shared.embeddings.base import Embedder
from shared.errors import EmbeddingModelMismatch, Forbidden, Unprocessable
from shared.memories import serialize
from shared.models import RecallRequest
from shared.retrieval import relations as relations_arm
from shared.retrieval.budget import pack
from shared.retrieval.text_query import TIME_EXPRESSION, asks_when, query_terms, query_words, to_tsquery_text
from shared.settings import Settings

TOLERANCE_FLOORS = {"loose": 0.15, "moderate": 0.3, "strict": 0.6}
DEFAULT_RECENCY_WEIGHT = 0.2
RECENCY_HALF_LIFE_HOURS = 168.0
# Workspaces at least this large reuse their memory count (BM25's N) for SCOPE_COUNT_TTL_S instead of counting
# on every recall; smaller ones are counted each time (cheap, and exact while a workspace fills up).
SCOPE_COUNT_CACHE_MIN = 2000
SCOPE_COUNT_TTL_S = 60.0
EXPANSION_DECAY = 0.8
TEXT_SEARCH_CONFIG = "english"


@dataclass(frozen=True)
class FusionWeights:
    # MiniLM's question-to-turn cosines are a weaker signal than BM25 on chat turns
    # (bench/locomo/EXPERIMENTS.md).
    vector: float = 0.4
    keyword: float = 1.0


@dataclass(frozen=True)
class RecallTuning:
    """How the hybrid query ranks. The defaults are the measured best (bench/locomo/EXPERIMENTS.md)."""

    fusion: Literal["rrf", "score"] = "score"
    vector_norm: Literal["raw", "max"] = "max"
    rrf_k: float | None = None  # None: settings.recall_rrf_k
    text_scoring: Literal["rank_cd", "rank", "bm25"] = "bm25"
    text_norm: int = 0  # ts_rank / ts_rank_cd normalisation flags
    # The configuration must be the one the column was built with (0001: ``tsv`` = english).
    text_config: Literal["english", "simple"] = "english"
    text_column: str = "tsv"
    prefix: bool = False
    bm25_k1: float = 1.2
    bm25_b: float = 0.5
    # Query words estimated to be in more than this many memories of the scope are not listed in full: they
    # are only looked for among the other arms' candidates (see _text_arm). None: always list every match.
    bm25_list_max_df: int | None = 2000
    # A hit lends this share of its relevance to the next turn of its stream (the reply) and the previous one.
    reply_weight: float = 0.6
    lead_weight: float = 0.3
    # Memories whose ``metadata.speaker`` is named in the query are boosted by this factor (1 + w).
    speaker_boost: float = 0.4
    # For a question asking "when", memories whose text mentions a time are boosted by this factor (1 + w).
    time_cue_boost: float = 0.5
    tolerance_floors: dict[str, float] = field(default_factory=lambda: dict(TOLERANCE_FLOORS))
    recency_weight: float = DEFAULT_RECENCY_WEIGHT


def _filters(req: RecallRequest, workspace_ids: list[str]) -> tuple[str, dict[str, Any]]:
    """The WHERE clause shared by both arms and by association expansion (alias ``m``)."""
    clauses = ["m.workspace_id = ANY(%(ws)s)", "m.deleted_at IS NULL"]
    params: dict[str, Any] = {"ws": workspace_ids}
    clauses.append("m.status IN ('active', 'archived')" if req.include_archived else "m.status = 'active'")
    if not req.include_history:
        clauses.append("m.valid_to IS NULL")
    simple = {
        "types": ("m.type = ANY(%(types)s)", req.types),
        "subtypes": ("m.subtype = ANY(%(subtypes)s)", req.subtypes),
        "exclude_ids": ("NOT (m.id = ANY(%(exclude_ids)s))", req.exclude_ids),
    }
    for name, (clause, value) in simple.items():
        if value:
            clauses.append(clause)
            params[name] = list(value)
    if req.tags:
        clauses.append("m.tags_lower @> %(tags)s")
        params["tags"] = sorted({t.strip().lower() for t in req.tags if t.strip()})
    for column in ("user_id", "observer_id", "subject_id"):
        value = getattr(req, column)
        if value is not None:
            clauses.append(f"m.{column} = %({column})s")
            params[column] = value
    ranges = {
        "created_after": "m.created_at >= %(created_after)s",
        "created_before": "m.created_at <= %(created_before)s",
        "event_after": "coalesce(m.event_time, m.created_at) >= %(event_after)s",
        "event_before": "coalesce(m.event_time, m.created_at) <= %(event_before)s",
    }
    for name, clause in ranges.items():
        value = getattr(req, name)
        if value is not None:
            clauses.append(clause)
            params[name] = value
    return " AND ".join(clauses), params


def _text_matches(tuning: RecallTuning, query: str) -> tuple[str, str]:
    """A FROM item joining the memories ``m`` whose text matches ``query`` (a tsquery expression), and the
    condition to add to the WHERE. The indexed column goes through ``memorylayer_text_matches`` (migration
    0015): behind row-level security the planner will not use the GIN index for a plain ``@@``, and would scan
    the whole workspace."""
    if tuning.text_column == "tsv":
        return (
            f"LATERAL memorylayer_text_matches(%(ws)s, {query}) AS t JOIN memories m ON m.id = t.id",
            "TRUE",
        )
    return "memories m", f"m.{tuning.text_column} @@ {query}"


def _text_arm(filters: str, tuning: RecallTuning) -> str:
    """CTEs ending in ``fts(id, score)``: the full-text candidates of the ORed query, best first."""
    cfg, tsv = tuning.text_config, f"m.{tuning.text_column}"
    if tuning.text_scoring != "bm25":
        matches, match = _text_matches(tuning, "query")
        rank = "ts_rank_cd" if tuning.text_scoring == "rank_cd" else "ts_rank"
        return f"""
    scope AS (SELECT NULL::bigint AS n),
    fts AS (
        SELECT m.id, {rank}({tsv}, query, {int(tuning.text_norm)}) AS score
        FROM to_tsquery('{cfg}', %(tsq)s) AS query, {matches}
        WHERE {filters} AND {match}
        ORDER BY score DESC, m.id
        LIMIT %(k)s
    ),"""
    listed, listed_match = _text_matches(tuning, "l.q")
    prefix = " || ':*'" if tuning.prefix else ""
    # A prefix query matches more than its lexeme's statistics say: no estimate, every lexeme is listed.
    list_max = "NULL" if tuning.prefix or tuning.bm25_list_max_df is None else int(tuning.bm25_list_max_df)
    return f"""
    scope AS (
        -- N for the IDF: the live memories of the searched workspaces (other filters hardly change how rare
        -- a word is). Counting a large workspace costs a scan, so the caller passes a recent count if it has
        -- one (COALESCE then never runs the subquery).
        SELECT coalesce(%(scope_n)s::bigint,
                        (SELECT count(*) FROM memories m
                         WHERE m.workspace_id = ANY(%(ws)s) AND m.deleted_at IS NULL))
               AS n
    ),
    lexemes AS MATERIALIZED (
        -- The query's lexemes as the configuration sees them (stemmed, stop words gone), one tsquery each,
        -- and how many memories of the scope each is expected in: ANALYZE keeps the share of rows holding
        -- each of the column's most common lexemes (rare ones are not kept: 0).
        -- Listing every memory that holds a very common word costs a scan of a large share of the workspace
        -- and adds little (its IDF is low), so such words are not ``listed``: they are only checked on the
        -- candidates found otherwise. If every word is very common, the least common one is listed.
        SELECT i, q, est_df, ({list_max}::float8 IS NULL OR est_df <= {list_max} OR rarest = 1) AS listed
        FROM (
            SELECT row_number() OVER (ORDER BY l.lexeme) AS i, l.q,
                   coalesce(st.freq, 0) * (SELECT n FROM scope) AS est_df,
                   row_number() OVER (ORDER BY coalesce(st.freq, 0), l.lexeme) AS rarest
            FROM (SELECT DISTINCT lexeme, (quote_literal(lexeme){prefix})::tsquery AS q
                  FROM unnest(to_tsvector('{cfg}', %(qtext)s))) l
            LEFT JOIN (
                SELECT e.lexeme, e.freq
                FROM pg_stats s,
                     unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(lexeme, freq)
                WHERE s.schemaname = current_schema() AND s.tablename = 'memories'
                  AND s.attname = '{tuning.text_column}'
            ) st ON st.lexeme = l.lexeme
        ) x
    ),
    listed AS MATERIALIZED (
        -- One row per (memory, listed lexeme it holds): one GIN lookup per lexeme, no second pass for counts.
        SELECT m.id, {tsv} AS tsv, length({tsv}) AS len, l.i
        FROM lexemes l, {listed}
        WHERE l.listed AND {filters} AND {listed_match}
    ),
    candidates AS MATERIALIZED (
        -- Where unlisted words are looked for (only if there are any): the listed matches and the vector arm's.
        SELECT DISTINCT ON (id) id, tsv FROM listed WHERE EXISTS (SELECT FROM lexemes WHERE NOT listed)
        UNION ALL
        SELECT m.id, {tsv} FROM vec v JOIN memories m ON m.id = v.id
        WHERE EXISTS (SELECT FROM lexemes WHERE NOT listed) AND {filters}
          AND NOT EXISTS (SELECT FROM listed x WHERE x.id = v.id)
    ),
    matches AS (
        SELECT id, len, i FROM listed
        UNION ALL
        SELECT c.id, length(c.tsv), l.i FROM candidates c JOIN lexemes l ON NOT l.listed AND c.tsv @@ l.q
    ),
    idf AS MATERIALIZED (
        -- ts_rank has no notion of rarity: a speaker's name in half the turns weighs as much as "banker".
        -- A listed lexeme's document frequency is exact (every memory holding it is in ``listed``); an
        -- unlisted one's is the estimate.
        SELECT l.i, ln(1 + (greatest(s.n, d.df) - d.df + 0.5) / (d.df + 0.5)) AS idf
        FROM lexemes l CROSS JOIN scope s
        LEFT JOIN (SELECT i, count(*) AS hits FROM listed GROUP BY i) c ON c.i = l.i
        CROSS JOIN LATERAL (SELECT CASE WHEN l.listed THEN coalesce(c.hits, 0) ELSE l.est_df END AS df) d
    ),
    bm25 AS (
        SELECT x.id, max(x.len) AS len, sum(i.idf) AS idf FROM matches x JOIN idf i ON i.i = x.i GROUP BY x.id
    ),
    fts AS (
        -- BM25 with tf = 1 (chat turns rarely repeat a word); length (distinct lexemes) relative to the mean
        -- length of the matching memories, which needs no scan of the whole scope.
        SELECT id, idf * (%(k1)s + 1) / (1 + %(k1)s * (1 - %(b)s + %(b)s * len / avg(len) OVER ())) AS score
        FROM bm25
        ORDER BY score DESC, id
        LIMIT %(k)s
    ),"""


def _fusion_expr(tuning: RecallTuning) -> str:
    """Relevance in [0, 1] from the two arms (``v``: vec_ranked, ``t``: fts_ranked)."""
    if tuning.fusion == "rrf":
        # Weighted reciprocal rank, normalised so rank 1 in both arms is 1.0.
        return (
            "(coalesce(%(w_vec)s / (%(rrf_k)s + v.rnk), 0) + coalesce(%(w_text)s / (%(rrf_k)s + t.rnk), 0))"
            " / %(norm)s"
        )
    # Score fusion: each arm's score relative to its best hit (or the raw cosine), weighted.
    vec = "v.cosine / nullif(max(v.cosine) OVER (), 0)" if tuning.vector_norm == "max" else "v.cosine"
    text = "t.score / nullif(max(t.score) OVER (), 0)"
    return f"(%(w_vec)s * coalesce({vec}, 0) + %(w_text)s * coalesce({text}, 0)) / (%(w_vec)s + %(w_text)s)"


def _context_ctes(tuning: RecallTuning) -> tuple[str, str]:
    """CTEs that let each candidate lend relevance to its neighbours in an ordered stream (``sequence_key``).

    In a chat the answer to a question is often the turn *after* the one that matches the question's words
    ("what did you do after losing your job?" → "I opened a store"). Returns (ctes, name of the scored CTE).
    """
    if not (tuning.reply_weight or tuning.lead_weight):
        return "", "fused"
    return (
        """,
    lent AS (
        -- Each candidate in a stream lends a share of its relevance to the turn after it (reply_weight) and
        -- the turn before it (lead_weight); a turn keeps the largest loan. Uses the memories_sequence index.
        SELECT n.id, max(f.relevance * CASE WHEN n.sequence_index > p.sequence_index
                                            THEN %(reply_w)s ELSE %(lead_w)s END) AS lent
        FROM fused f
        JOIN memories p ON p.id = f.id
        JOIN memories n ON n.workspace_id = p.workspace_id AND n.sequence_key = p.sequence_key
                       AND n.sequence_index IN (p.sequence_index - 1, p.sequence_index + 1)
                       AND n.sequence_key IS NOT NULL AND n.deleted_at IS NULL
        WHERE p.sequence_key IS NOT NULL
        GROUP BY n.id
    ),
    scored AS (
        SELECT coalesce(f.id, l.id) AS id, f.cosine, f.text_score, f.vec_rank, f.text_rank, l.lent,
               coalesce(f.relevance, 0) + coalesce(l.lent, 0) AS relevance
        FROM fused f FULL JOIN lent l ON l.id = f.id
    )""",
        "scored",
    )


def _hybrid_sql(filters: str, dims: int, with_text: bool, tuning: RecallTuning, asks_when_query: bool) -> str:
    text_arm = (
        _text_arm(filters, tuning)
        if with_text
        else """
    scope AS (SELECT NULL::bigint AS n),
    fts AS (SELECT NULL::text AS id, NULL::real AS score WHERE false),"""
    )
    context, scored = _context_ctes(tuning)
    lent = "f.lent" if scored == "scored" else "NULL::float8"
    speaker = (
        # Whole-word match of the memory's speaker (metadata.speaker) among the query's words.
        # No speaker (NULL) is no match, not a NULL score.
        " * (1 + %(speaker_w)s * coalesce(position(' ' || regexp_replace(lower(m.metadata->>'speaker'),"
        " '[^[:alnum:]]+', ' ', 'g') || ' ' IN %(qwords)s) > 0, false)::int)"
        if tuning.speaker_boost
        else ""
    )
    time_cue = (
        " * (1 + %(time_w)s * (m.content ~* %(time_re)s)::int)"
        if tuning.time_cue_boost and asks_when_query
        else ""
    )
    return f"""
    WITH vec_all AS MATERIALIZED (
        -- The HNSW graph holds indexed rows; freshly bulk-written rows wait in a small pending tail that an
        -- exact scan covers until the indexer moves them into the graph (migration 0006).
        (SELECT m.id, (m.embedding::vector({dims})) <=> %(q)s AS dist
         FROM memories m
         WHERE {filters} AND m.embedding_model = %(model)s AND vector_dims(m.embedding) = {dims}
           AND m.vector_indexed
         ORDER BY (m.embedding::vector({dims})) <=> %(q)s
         LIMIT %(k)s)
        UNION ALL
        (SELECT m.id, (m.embedding::vector({dims})) <=> %(q)s AS dist
         FROM memories m
         WHERE {filters} AND m.embedding_model = %(model)s AND vector_dims(m.embedding) = {dims}
           AND NOT m.vector_indexed
         ORDER BY 2
         LIMIT %(k)s)
    ),
    vec AS (
        SELECT id, dist FROM vec_all ORDER BY dist LIMIT %(k)s
    ),
    vec_ranked AS (
        SELECT id, 1 - dist AS cosine, row_number() OVER (ORDER BY dist, id) AS rnk
        FROM vec WHERE 1 - dist >= %(floor)s
    ),{text_arm}
    fts_ranked AS (
        SELECT id, score, row_number() OVER (ORDER BY score DESC, id) AS rnk FROM fts
    ),
    fused AS (
        SELECT coalesce(v.id, t.id) AS id, v.cosine, t.score AS text_score, v.rnk AS vec_rank,
               t.rnk AS text_rank, {_fusion_expr(tuning)} AS relevance
        FROM vec_ranked v FULL JOIN fts_ranked t ON v.id = t.id
    ){context}
    SELECT {{QUALIFIED_COLUMNS}}, f.cosine, f.text_score, f.vec_rank, f.text_rank,
           -- A loan can lift a score past 1; the reported relevance stays in [0, 1], the order uses the sum.
           least(1.0, f.relevance) AS relevance, {lent} AS lent,
           f.relevance{speaker}{time_cue}
               * (1 - %(rw)s + %(rw)s * power(2, -extract(epoch FROM now() - m.created_at) / 3600.0
                                              / {RECENCY_HALF_LIFE_HOURS})) AS boosted,
           count(*) OVER () AS pool, (SELECT n FROM scope) AS scope_n
    FROM {scored} f JOIN memories m ON m.id = f.id
    WHERE {filters}
    ORDER BY boosted DESC, m.id
    LIMIT %(limit)s OFFSET %(offset)s
    """.replace("{QUALIFIED_COLUMNS}", QUALIFIED_COLUMNS)


def _browse_sql(filters: str) -> str:
    return f"""
    SELECT {QUALIFIED_COLUMNS}, NULL::float8 AS cosine, NULL::real AS text_score, NULL::bigint AS vec_rank,
           NULL::bigint AS text_rank, 1.0::float8 AS relevance, 1.0::float8 AS boosted,
           count(*) OVER () AS pool, NULL::bigint AS scope_n
    FROM memories m WHERE {filters}
    ORDER BY coalesce(m.event_time, m.created_at) DESC, m.id
    LIMIT %(limit)s OFFSET %(offset)s
    """


def _expansion_sql(filters: str) -> str:
    """Memories linked to the seeds, by the bounded walk shared with traverse: each node is reached once (its
    best score over the previous level), edges per node and nodes reached are capped inside the recursion.
    It walks through any live memory and ignores tag/type filters as the reference does; ``filters`` still
    decides what is returned."""
    return f"""
    WITH RECURSIVE {assoc_repo.walk_cte("both")},
    reached AS ({assoc_repo.WALK_NODES})
    SELECT {QUALIFIED_COLUMNS}, r.score AS boosted, r.depth
    FROM reached r JOIN memories m ON m.id = r.node
    WHERE {filters}
    ORDER BY boosted DESC, id
    LIMIT %(max_expansion)s
    """


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
    ):
        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.weights = weights or FusionWeights()
        self.tuning = tuning or RecallTuning()
        self._scope_counts: dict[tuple[str, ...], tuple[float, int]] = {}

    def recall(self, workspace_ids: list[str], req: RecallRequest) -> dict[str, Any]:
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
        sql, params, filters = self.statement(workspace_ids, req)
        arm = relations_arm.plan(req)  # None unless the query asks about a relation
        with self.db.connection() as conn:
            with conn.pipeline():
                bound = conn.execute(
                    "SELECT id, embedding_model FROM workspaces "
                    "WHERE id = ANY(%s) AND embedding_model IS NOT NULL",
                    (workspace_ids,),
                )
                hits = conn.execute(sql, params)
                related = arm.execute(conn, filters, params) if arm else None
            self._check_models(bound.fetchall())
            rows = hits.fetchall()
            self._remember_scope_count(workspace_ids, params, rows)
            # The relational arm's memories, fused by reciprocal rank (shared/retrieval/relations.py).
            rows, paths = relations_arm.fuse(rows, related, req)
            expanded = self._expand(conn, req, filters, params, rows) if rows else []
        return dict(self._result(req, rows, expanded, started), relation_paths=paths)

    def statement(self, workspace_ids: list[str], req: RecallRequest) -> tuple[str, dict[str, Any], str]:
        """The one ranking statement for ``req``: (sql, params, the shared WHERE clause)."""
        filters, params = _filters(req, workspace_ids)
        browse = req.query.strip() == "*"
        params.update(limit=req.limit, offset=req.offset)
        if browse:
            sql = _browse_sql(filters)
        else:
            tuning = self.tuning
            tsq = to_tsquery_text(req.query, prefix=tuning.prefix)
            k = max(
                self.settings.recall_min_candidates,
                (req.limit + req.offset) * self.settings.recall_candidate_multiplier,
            )
            w = self.weights
            rrf_k = float(self.settings.recall_rrf_k if tuning.rrf_k is None else tuning.rrf_k)
            params.update(
                q=self.embedder.embed_one(req.query),
                model=self.embedder.model_id,
                tsq=tsq,
                k=k,
                qtext=" ".join(t.strip("'") for t in query_terms(req.query)),
                k1=tuning.bm25_k1,
                b=tuning.bm25_b,
                floor=_cosine_floor(req, tuning.tolerance_floors),
                rrf_k=rrf_k,
                w_vec=w.vector,
                w_text=w.keyword,
                norm=(w.vector + w.keyword) / (rrf_k + 1),
                reply_w=tuning.reply_weight,
                lead_w=tuning.lead_weight,
                speaker_w=tuning.speaker_boost,
                scope_n=self._scope_count(workspace_ids),
                qwords=query_words(req.query),
                time_w=tuning.time_cue_boost,
                time_re=TIME_EXPRESSION,
                rw=tuning.recency_weight if req.recency_weight is None else req.recency_weight,
            )
            sql = _hybrid_sql(
                filters,
                self.embedder.dimensions,
                with_text=bool(tsq),
                tuning=tuning,
                asks_when_query=asks_when(req.query),
            )
        return sql, params, filters

    def _scope_count(self, workspace_ids: list[str]) -> int | None:
        cached = self._scope_counts.get(tuple(sorted(workspace_ids)))
        if cached is None or time.monotonic() - cached[0] > SCOPE_COUNT_TTL_S:
            return None
        return cached[1]

    def _remember_scope_count(
        self, workspace_ids: list[str], params: dict[str, Any], rows: list[dict]
    ) -> None:
        """Keep the count the statement just made (it was not given one) when the workspace is large."""
        n = rows[0].get("scope_n") if rows else None
        if params.get("scope_n") is None and n is not None and n >= SCOPE_COUNT_CACHE_MIN:
            if len(self._scope_counts) > 10_000:
                self._scope_counts.clear()
            self._scope_counts[tuple(sorted(workspace_ids))] = (time.monotonic(), int(n))

    def _check_models(self, bound: list[dict]) -> None:
        other = [b for b in bound if b["embedding_model"] != self.embedder.model_id]
        if other:
            raise EmbeddingModelMismatch(
                f"workspace {other[0]['id']!r} holds embeddings of model {other[0]['embedding_model']!r}; "
                f"this server embeds queries with {self.embedder.model_id!r}: vectors of different models "
                "cannot be compared. Re-embed the workspace (memorylayer reembed).",
                workspace_model=other[0]["embedding_model"],
                server_model=self.embedder.model_id,
            )

    def _expand(
        self, conn: psycopg.Connection, req: RecallRequest, filters: str, params: dict, rows: list[dict]
    ) -> list[dict]:
        include = True if req.include_associations is None else req.include_associations
        depth = 2 if req.traverse_depth is None else req.traverse_depth
        if not include or depth == 0:
            return []
        expansion_params = dict(
            params,
            walk_seeds=[r["id"] for r in rows],
            walk_scores=[float(r["boosted"]) for r in rows],
            walk_depth=depth,
            walk_per_node=self.settings.graph_max_edges_per_node,
            walk_max_nodes=self.settings.graph_max_nodes,
            walk_decay=EXPANSION_DECAY,
            walk_rels=[],
            walk_min_strength=0.0,
            max_expansion=req.max_expansion or 50,
        )
        return conn.execute(_expansion_sql(filters), expansion_params).fetchall()

    def _result(
        self, req: RecallRequest, rows: list[dict], expanded: list[dict], started: float
    ) -> dict[str, Any]:
        now = datetime.now(UTC)
        merged = [(r, _signals(r)) for r in rows] + [(r, ["association"]) for r in expanded]
        # Stable: rows keep the SQL order among equal scores (browse mode is newest first).
        merged.sort(key=lambda item: -float(item[0]["boosted"]))
        merged = merged[: req.limit]
        if req.time_order:
            merged.sort(
                key=lambda item: item[0]["event_time"] or item[0]["created_at"],
                reverse=req.time_order == "desc",
            )
        memories = []
        for row, signals in merged:
            age_days = max(0.0, (now - row["created_at"]).total_seconds() / 86400)
            out = serialize.memory(row, embedding=False)
            out.update(
                relevance_score=round(float(row.get("relevance", row["boosted"])), 6),
                boosted_score=round(float(row["boosted"]), 6),
                match_signals=signals,
                source_scope="same_workspace",
                age_days=round(age_days, 3),
                freshness_score=round(math.pow(2, -age_days / 30), 6),
            )
            memories.append(out)
        if req.include_embeddings and memories:
            self._attach_embeddings(memories)
        memories, budget = pack(memories, req.budget_tokens)
        confidence, reasons = _confidence(memories)
        freshness = [m["freshness_score"] for m in memories]
        return {
            "memories": memories,
            "total_count": int(rows[0]["pool"]) if rows else 0,
            "query_tokens": 0,
            "search_latency_ms": round(
                (time.perf_counter() - started) * 1000
            ),  # an int: SDK 0.2.1 declares int
            "mode_used": "rag",
            "query_rewritten": None,
            "sufficiency_reached": None,
            "source_scope": None,
            "boosted_score": None,
            "token_summary": None,
            "trajectory": None,
            "relation_write_result": None,
            "relation_paths": [],
            "drift_caveat": None,
            "freshness_metadata": {
                "avg_freshness": round(sum(freshness) / len(freshness), 6) if freshness else None,
                "min_freshness": min(freshness, default=None),
                "max_freshness": max(freshness, default=None),
                "severe_count": sum(1 for f in freshness if f < 0.1),
                "moderate_count": sum(1 for f in freshness if 0.1 <= f < 0.5),
            },
            "query_intent": ["general"],
            "retrieval_confidence": confidence,
            "confidence_reasons": reasons,
            "budget_summary": budget,
            "generation_summary": None,
        }

    def _attach_embeddings(self, memories: list[dict]) -> None:
        with self.db.connection() as conn:
            vectors = {
                r["id"]: r["embedding"].to_list()
                for r in conn.execute(
                    "SELECT id, embedding FROM memories WHERE id = ANY(%s) AND embedding IS NOT NULL",
                    ([m["id"] for m in memories],),
                )
            }
        for memory in memories:
            memory["embedding"] = vectors.get(memory["id"])


def _signals(row: dict) -> list[str]:
    signals = []
    if row.get("vec_rank") is not None:
        signals.append("vector")
    if row.get("text_rank") is not None:
        signals.append("keyword")
    if row.get("lent"):
        signals.append("context")  # a neighbouring turn of its stream matched
    if row.get("relational"):
        signals.append("relational")  # a typed relation with active evidence led here
    return signals or ["recency"]


def _confidence(memories: list[dict]) -> tuple[str, list[str]]:
    if not memories:
        return "weak", ["empty_result"]
    top = [set(m["match_signals"]) for m in memories[:3]]
    if any({"vector", "keyword"} <= s or ("relational" in s and s & {"vector", "keyword"}) for s in top):
        return "strong", ["multiple_independent_retrieval_signals"]
    if any("relational" in s for s in top):
        return "moderate", ["typed_relation_with_active_evidence"]
    if any("keyword" in s for s in top):
        return "moderate", ["keyword_only"]
    if any("association" in s for s in top):
        return "moderate", ["relational_only"]
    return "weak", ["uncalibrated_vector_only"]
