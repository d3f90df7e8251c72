"""Ranking variants that were measured and not kept (bench/locomo/EXPERIMENTS.md): reciprocal-rank fusion,
raw cosines, ts_rank / ts_rank_cd, the ``simple`` text configuration or another text column, prefix matching,
and the production knobs at any value (zero context, no speaker or time cue).

    >>> use_variant(stack.services.recaller, Variant(fusion="rrf", text_scoring="rank_cd"))    # doctest: +SKIP
    >>> use_variant(stack.services.recaller, None)      # back to the production statement       # doctest: +SKIP

``use_variant`` replaces the recaller's ``statement`` with one assembled here by the f-string builders the
production code used before its statement became one SQL text (shared/db/recall.sql); with the
defaults a ``Variant`` ranks as production does. Used by bench.locomo.latency and bench.locomo.experiments.
"""

from __future__ import annotations

import re
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from shared.db.memories import QUALIFIED_COLUMNS
from shared.domain.requests import RecallRequest
from shared.domain.retrieval.params import filter_params
from shared.domain.retrieval.recall import Recaller, RecallTuning, _cosine_floor
from shared.domain.retrieval.text_query import (
    TIME_EXPRESSION,
    NamedPeriod,
    asks_when,
    named_period,
    period_params,
    query_terms,
    query_words,
    to_tsquery_text,
)
from shared.providers.embeddings.base import normalise

RECENCY_HALF_LIFE_HOURS = 168.0


@dataclass(frozen=True)
class Variant(RecallTuning):
    """How a variant ranks: production's knobs (``RecallTuning``, the statement's parameters) and the choices
    only the variant builders offer. The defaults are production's (bench/locomo/EXPERIMENTS.md)."""

    fusion: Literal["rrf", "score"] = "score"
    # "minmax": (cosine − the candidates' lowest) / (best − lowest), for models whose cosines are compressed
    # (e5: unrelated texts still ~0.7, so cosine / best is ~0.9 for every candidate).
    vector_norm: Literal["raw", "max", "minmax"] = "max"
    rrf_k: float | None = None  # None: settings.recall_rrf_k
    text_scoring: Literal["rank_cd", "rank", "bm25"] = "bm25"
    text_norm: int = 0  # ts_rank / ts_rank_cd normalisation flags
    # The configuration must be the one the column was built with (0001: ``tsv`` = english).
    text_config: Literal["english", "simple"] = "english"
    text_column: str = "tsv"
    prefix: bool = False
    # With ``text_column`` a copy of the text column that also holds the previous turn's words
    # (bench.locomo.context): a word matched only through the context counts ``text_context_weight`` × its IDF,
    # and the length is the turn's own. None: every matched word counts fully (plain ``text_column``).
    # On ``tsv`` (production's) the previous turn's words come from memory_contexts at
    # ``context_text_weight`` (RecallTuning), as production's statement does.
    text_context_weight: float | None = None
    # Several kinds of context at once (EXPERIMENTS.md §12): {column: weight}, each column the tsvector of one
    # neighbouring turn alone (bench.locomo.context: ``ctx_p`` previous, ``ctx_n`` next, ``ctx_pp`` the one
    # before the previous); a query word not in the turn's own ``tsv`` counts the largest weight among the
    # columns holding it. ``text_column`` must hold the union (e.g. ``tsv_pn``); overrides
    # ``text_context_weight``.
    text_context_columns: dict[str, float] | None = None
    # Which matches a listed word's document frequency counts: "all" (the turn's own words and its context's,
    # as production) or "own" (only turns holding the word themselves: a context match is the neighbour's
    # occurrence counted a second time, so "all" roughly doubles every conversational word's df).
    text_context_df: Literal["all", "own"] = "all"
    # Pseudo-relevance feedback: a first pass's top ``prf_docs`` memories move the query vector towards their
    # mean (Rocchio, weight ``prf_vector``) and lend the text query the words at least ``prf_min_docs`` of them
    # share (up to ``prf_terms`` words). The second pass ranks.
    prf_docs: int = 0
    prf_vector: float = 0.0
    prf_terms: int = 0
    prf_min_docs: int = 2


def _filters(req: RecallRequest, workspace_ids: list[str]) -> tuple[str, dict[str, Any]]:
    """The WHERE clause shared by both arms and by association expansion (alias ``m``)."""
    clauses = ["m.workspace_id = ANY(%(ws)s)", "m.deleted_at IS NULL"]
    params: dict[str, Any] = {"ws": workspace_ids}
    clauses.append("m.status IN ('active', 'archived')" if req.include_archived else "m.status = 'active'")
    if not req.include_history:
        clauses.append("m.valid_to IS NULL")
    simple: dict[str, tuple[str, Any]] = {
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


def _text_matches(tuning: Variant, query: str) -> tuple[str, str]:
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


def _text_arm(filters: str, tuning: Variant) -> str:
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
    own_len, weight = f"length({tsv})", "1.0"
    if tuning.text_column == "tsv":
        # Production's: the previous turn's words (memory_contexts, migration 0023) at ctx_w of their IDF.
        listed = (
            "LATERAL (SELECT t.id FROM memorylayer_text_matches(%(ws)s, l.q) AS t UNION"
            " SELECT c.id FROM memorylayer_context_matches(%(ws)s, l.q) AS c WHERE %(ctx_w)s > 0) AS t"
            " JOIN memories m ON m.id = t.id"
        )
        weight = "CASE WHEN m.tsv @@ l.q THEN 1 ELSE %(ctx_w)s::float8 END"
    elif tuning.text_context_columns:
        own_len = "length(m.tsv)"
        parts = ", ".join(
            f"CASE WHEN m.{c} @@ l.q THEN {float(w)} ELSE 0.0 END"
            for c, w in sorted(tuning.text_context_columns.items())
        )
        weight = f"CASE WHEN m.tsv @@ l.q THEN 1.0 ELSE greatest({parts}, 0.0) END"
    elif tuning.text_context_weight is not None:
        own_len = "length(m.tsv)"
        weight = f"CASE WHEN m.tsv @@ l.q THEN 1.0 ELSE {float(tuning.text_context_weight)} END"
    df_filter = " FILTER (WHERE wt >= 1)" if tuning.text_context_df == "own" else ""
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
        -- candidates found otherwise. If every word is very common, none is listed (shared/db/recall.sql).
        SELECT i, q, est_df, ({list_max}::float8 IS NULL OR est_df <= {list_max}) AS listed
        FROM (
            SELECT row_number() OVER (ORDER BY l.lexeme) AS i, l.q,
                   coalesce(st.freq, 0) * (SELECT n FROM scope) AS est_df
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
        SELECT m.id, {tsv} AS tsv, {own_len} AS len, l.i, {weight} AS wt
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
        SELECT id, len, i, wt FROM listed
        UNION ALL
        SELECT c.id, length(c.tsv), l.i, 1.0 FROM candidates c JOIN lexemes l ON NOT l.listed AND c.tsv @@ l.q
    ),
    idf AS MATERIALIZED (
        -- ts_rank has no notion of rarity: a speaker's name in half the turns weighs as much as "banker".
        -- A listed lexeme's document frequency is exact (every memory holding it is in ``listed``); an
        -- unlisted one's is the estimate.
        SELECT l.i, ln(1 + (greatest(s.n, d.df) - d.df + 0.5) / (d.df + 0.5)) AS idf
        FROM lexemes l CROSS JOIN scope s
        LEFT JOIN (SELECT i, count(*){df_filter} AS hits FROM listed GROUP BY i) c ON c.i = l.i
        CROSS JOIN LATERAL (SELECT CASE WHEN l.listed THEN coalesce(c.hits, 0) ELSE l.est_df END AS df) d
    ),
    bm25 AS (
        SELECT x.id, max(x.len) AS len, sum(i.idf * x.wt) AS idf FROM matches x JOIN idf i ON i.i = x.i
        GROUP BY x.id
    ),
    fts AS (
        -- BM25 with tf = 1 (chat turns rarely repeat a word); length (distinct lexemes) relative to the mean
        -- length of the matching memories, which needs no scan of the whole scope.
        SELECT id, idf * (%(k1)s + 1) / (1 + %(k1)s * (1 - %(b)s + %(b)s * len / avg(len) OVER ())) AS score
        FROM bm25
        ORDER BY score DESC, id
        LIMIT %(k)s
    ),"""


def _period_condition(period: NamedPeriod | None) -> str:
    """SQL true for a memory whose time (event_time, else created_at) is in the named period or just after, over
    the bounds ``text_query.period_params`` gives (production's recall.sql reads the same ones)."""
    t = "coalesce(m.event_time, m.created_at)"
    if period is None:
        return "false"
    if period.year is None:  # "in June": any June (plus the first days of July)
        return (
            f"(extract(month FROM {t}) = %(p_month)s"
            f" OR (extract(month FROM {t}) = %(p_next)s AND extract(day FROM {t}) <= %(p_slack)s))"
        )
    return f"({t} >= %(p_start)s AND {t} < %(p_end)s)"


def _fusion_expr(tuning: Variant) -> str:
    """Relevance in [0, 1] from the two arms (``v``: vec_ranked, ``t``: fts_ranked)."""
    if tuning.fusion == "rrf":
        # Weighted reciprocal rank, normalised so rank 1 in both arms is 1.0.
        return (
            "(coalesce(%(w_vec)s / (%(rrf_k)s + v.rnk), 0) + coalesce(%(w_text)s / (%(rrf_k)s + t.rnk), 0))"
            " / %(norm)s"
        )
    # Score fusion: each arm's score relative to its best hit (or the raw cosine), weighted.
    vec = {
        "max": "v.cosine / nullif(max(v.cosine) OVER (), 0)",
        "minmax": "(v.cosine - min(v.cosine) OVER ()) / nullif(max(v.cosine) OVER () - min(v.cosine) OVER (), 0)",
        "raw": "v.cosine",
    }[tuning.vector_norm]
    text = "t.score / nullif(max(t.score) OVER (), 0)"
    return f"(%(w_vec)s * coalesce({vec}, 0) + %(w_text)s * coalesce({text}, 0)) / (%(w_vec)s + %(w_text)s)"


def _context_ctes(tuning: Variant) -> tuple[str, str]:
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


def _hybrid_sql(
    filters: str,
    dims: int,
    with_text: bool,
    tuning: Variant,
    asks_when_query: bool,
    period_cond: str = "false",
) -> str:
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
    date_cue = (
        f" * (1 + %(date_w)s * ({period_cond})::int)" if tuning.date_boost and period_cond != "false" else ""
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
           f.relevance{speaker}{time_cue}{date_cue}
               * (1 - %(rw)s + %(rw)s * power(2, -extract(epoch FROM now() - m.created_at) / 3600.0
                                              / {RECENCY_HALF_LIFE_HOURS})) AS boosted,
           count(*) OVER () AS pool, (SELECT n FROM scope) AS scope_n
    FROM {scored} f JOIN memories m ON m.id = f.id
    WHERE {filters}
    ORDER BY boosted DESC, m.id
    LIMIT %(limit)s OFFSET %(offset)s
    """.replace("{QUALIFIED_COLUMNS}", QUALIFIED_COLUMNS)


def variant_statement(
    recaller: Recaller,
    tuning: Variant,
    workspace_ids: list[str],
    req: RecallRequest,
    conn: Any = None,
    *,
    vector: Any = None,
) -> tuple[str, dict[str, Any]]:
    """The variant's statement and parameters (the parameters of the production filters too, which
    association expansion uses)."""
    filters, params = _filters(req, workspace_ids)
    params = {**filter_params(req, workspace_ids), **params, "limit": req.limit, "offset": req.offset}
    if req.query.strip() == "*":
        return Recaller.statement(recaller, workspace_ids, req, conn)
    settings, w = recaller.settings, recaller.weights
    query_text = req.query
    if tuning.prf_docs:
        vector, extra = _feedback(recaller, tuning, workspace_ids, req, conn, vector)
        query_text = f"{req.query} {extra}"
    tsq = to_tsquery_text(query_text, prefix=tuning.prefix)
    k = max(settings.recall_min_candidates, (req.limit + req.offset) * settings.recall_candidate_multiplier)
    rrf_k = float(settings.recall_rrf_k if tuning.rrf_k is None else tuning.rrf_k)
    params.update(
        q=recaller.embedder.embed_query(req.query) if vector is None else vector,
        model=recaller.embedder.model_id,
        tsq=tsq,
        k=k,
        qtext=" ".join(t.strip("'") for t in query_terms(query_text)),
        k1=tuning.bm25_k1,
        b=tuning.bm25_b,
        floor=_cosine_floor(req, tuning.tolerance_floors),
        rrf_k=rrf_k,
        w_vec=w.vector,
        w_text=w.keyword,
        norm=(w.vector + w.keyword) / (rrf_k + 1),
        reply_w=tuning.reply_weight,
        lead_w=tuning.lead_weight,
        ctx_w=float(tuning.context_text_weight),
        speaker_w=tuning.speaker_boost,
        scope_n=recaller._scope_count(workspace_ids),
        qwords=query_words(req.query),
        time_w=tuning.time_cue_boost,
        time_re=TIME_EXPRESSION,
        rw=tuning.recency_weight if req.recency_weight is None else req.recency_weight,
    )
    period = named_period(req.query)
    period_cond = _period_condition(period)
    params.update(period_params(period, tuning.date_slack_days), date_w=tuning.date_boost)
    sql = _hybrid_sql(
        filters,
        recaller.embedder.dimensions,
        with_text=bool(tsq),
        tuning=tuning,
        asks_when_query=asks_when(req.query),
        period_cond=period_cond,
    )
    return sql, params


_WORD = re.compile(r"[a-z]{4,}")


def _feedback(
    recaller: Recaller, tuning: Variant, workspace_ids: list[str], req: RecallRequest, conn: Any, vector: Any
) -> tuple[Any, str]:
    """The first pass's query vector moved towards its top memories, and the words they share (PRF)."""
    first = RecallRequest(**{**req.model_dump(), "limit": tuning.prf_docs, "offset": 0})
    sql, params = variant_statement(
        recaller, replace(tuning, prf_docs=0), workspace_ids, first, vector=vector
    )
    borrowed = recaller.db.connection() if conn is None else nullcontext(conn)
    with borrowed as c:
        rows = c.execute(sql, params).fetchall()
        ids = [r["id"] for r in rows]
        vecs = [r["embedding"] for r in c.execute("SELECT embedding FROM memories WHERE id = ANY(%s)", [ids])]
    q = params["q"]
    if tuning.prf_vector and vecs:
        q = normalise(np.asarray(q) + tuning.prf_vector * np.mean([v.to_numpy() for v in vecs], axis=0))
    extra = ""
    if tuning.prf_terms:
        asked = set(_WORD.findall(req.query.lower()))
        counts = Counter(w for r in rows for w in set(_WORD.findall(r["content"].lower())) - asked)
        shared = [w for w, n in counts.most_common() if n >= tuning.prf_min_docs][: tuning.prf_terms]
        extra = " ".join(shared)
    return q, extra


def use_variant(recaller: Recaller, tuning: Variant | None) -> None:
    """Make ``recaller`` rank with ``tuning`` (None: production's statement again)."""
    recaller.__dict__.pop("statement", None)
    if tuning is not None:
        recaller.statement = lambda ws, req, conn=None, vector=None: variant_statement(  # type: ignore[method-assign,misc]
            recaller, tuning, ws, req, conn, vector=vector
        )
