-- Hybrid recall: the one statement that ranks memories for a query (shared/domain/retrieval/recall.py runs it).
--
-- Read top to bottom: the vector arm (vec_all → vec → vec_ranked), the full-text arm scored BM25-style
-- (scope → lexemes → listed → candidates → matches → idf → bm25 → fts → fts_ranked; a turn also matches its
-- previous turn's words, at ctx_w of their weight: listed), weighted score fusion
-- (fused; a match on a person's name alone is worth less: names), neighbouring turns of ordered streams
-- (lent → scored), then the speaker, time-cue, recency and stale-restatement weights and the page. Measured
-- choices: bench/locomo/EXPERIMENTS.md; current facts first: docs/recall.md.
--
-- Every value is a named parameter (%(name)s); an optional filter is NULL when the request does not use it
-- (each statement is planned with its values, so a NULL filter costs nothing). Some names are not parameters
-- but fixed when the text is loaded: {dims}, the embedding size (the HNSW index is on the expression
-- embedding::vector(384), so the size must be literal for the planner to use it), {gen}, the published graph
-- generation (literal for the same reason: the graph's predicate is vector_gen <= G), {own} and {rest_arms}, a
-- workspace's own graph and the rest of its scope, {walk}, whether the graph is walked at all (the vector arm's
-- comments), and {memory_columns}, the memory row's columns (shared/db/memories.py). {filters} is the block
-- below the marker: the one WHERE that both arms, the final join and association expansion share, on alias m.
WITH depth AS MATERIALIZED (
    -- How many rows the vector arm takes: k, or 2k where the scope holds extracted facts (fact_key). A fact is
    -- short and names its person, so it lies near every question about them: among only k nearest, facts took
    -- the places of the turns they came from and of the turn that answers (bench/locomo's threads mode). So
    -- facts come on top of k other memories (``vec``). One lookup of the partial index memories_fact_key.
    SELECT CASE WHEN EXISTS (SELECT FROM memories f
                             WHERE f.workspace_id = ANY(%(ws)s) AND f.fact_key IS NOT NULL AND f.valid_to IS NULL)
                THEN 2 ELSE 1 END AS n
),
vec_all AS MATERIALIZED (
    -- The HNSW graph of generation {gen} holds the rows of generation {gen} or before; bulk-written rows of later
    -- generations wait in a pending tail that an exact scan covers until the owner builds the next graph (or the
    -- indexer moves them in row by row): shared/db/vector_index.py, migration 0021. Both arms split the rows by
    -- the same {gen}, so the result is complete and exact for any generation; only the speed needs its graph.
    --
    -- ``walked``: the rows of the graph's generations, nearest first. Whether this walks the graph or sorts the
    -- filtered rows exactly is the planner's choice, made from statistics (a small workspace is sorted). A walk
    -- filters what it passes and can come back short although matching rows exist: nodes no link reaches (hash
    -- embeddings are often orthogonal: the graph links them poorly), or hnsw.max_scan_tuples. Stale statistics
    -- (a table not yet analyzed) made it walk a 2-memory workspace and a tag-filtered recall came back empty.
    -- So a short answer (fewer than k) is not trusted: those rows are then sorted exactly (an order the graph
    -- cannot give: ``+ 0``). Fewer than k rows match then, or the walk was cut off on a selective filter; either
    -- way the exact pass is over few rows, and a walk that found k (every large unfiltered scope) costs nothing
    -- more. Statistics change the cost, never which rows can be found.
    -- Short means short of what a walk can return: k with pgvector's iterative scan (the app role's default,
    -- migration 0010), at most hnsw.ef_search without it (pgvector's default for other logins, e.g. a
    -- superuser: 40 < k = 50, and every walk of such a login would otherwise be sorted again).
    -- A workspace of the scope that has a graph of its own at this generation (shared/db/vector_index.py) is
    -- walked apart: after the generation, ``AND m.workspace_id = '<its id>'`` (literal, as that graph's predicate
    -- has it, so the planner can prove it and walk that graph instead of the table-wide one filtered to the
    -- workspace), and the rest of the scope (the shared spaces every API recall also searches, small as a rule)
    -- is sorted exactly in one more arm (recall.py writes it from the exact arm below, over the scope's list
    -- without that workspace, ``array_remove``, and without the short condition). Not walked: a walk of the table-wide graph filtered to a nearly
    -- empty space visits up to hnsw.max_scan_tuples nodes to find nothing (314 ms for an empty _global in a 254k
    -- table, the planner's choice). Without such a workspace: nothing. The same rows match either way. The walk
    -- of its own graph names the workspace by that literal alone (the walks' filters are the others, without
    -- the scope's list): a plan kept for the workspace (recall.py, its own function) then expects the
    -- workspace's rows, not a generic guess at a list's share of them, and walks its graph as the ad-hoc plan
    -- does (BENCHMARKS.md, "Plans kept for every size").
    -- Two walks, of which ``depth`` runs one (the other's condition is false before it starts): each LIMIT stays
    -- a constant the planner sees. The small-scope function's statement (recall.py, ``walk=False``) ends both
    -- conditions with ``AND false``: no walk, every answer is short, and the exact arm sorts the scope whatever
    -- plan the function keeps.
    WITH walked AS MATERIALIZED (
        (SELECT m.id, m.fact_key IS NOT NULL AS fact, (m.embedding::vector({dims})) <=> %(q)s AS dist
         FROM memories m
         WHERE (SELECT n FROM depth) = 1{walk}
           AND {walk_filters} AND m.embedding_model = %(model)s AND vector_dims(m.embedding) = {dims}
           AND m.vector_gen <= {gen}{own}
         ORDER BY (m.embedding::vector({dims})) <=> %(q)s
         LIMIT %(k)s)
        UNION ALL
        (SELECT m.id, m.fact_key IS NOT NULL AS fact, (m.embedding::vector({dims})) <=> %(q)s AS dist
         FROM memories m
         WHERE (SELECT n FROM depth) = 2{walk}
           AND {walk_filters} AND m.embedding_model = %(model)s AND vector_dims(m.embedding) = {dims}
           AND m.vector_gen <= {gen}{own}
         ORDER BY (m.embedding::vector({dims})) <=> %(q)s
         LIMIT %(k)s * 2)
    ),
    short AS MATERIALIZED (
        SELECT (SELECT count(*) FROM walked) < CASE
            WHEN coalesce(current_setting('hnsw.iterative_scan', true), 'off') IN ('', 'off') THEN
                least(%(k)s * (SELECT n FROM depth),
                      coalesce(nullif(current_setting('hnsw.ef_search', true), '')::int, 40))
            ELSE %(k)s * (SELECT n FROM depth) END AS yes
    )
    SELECT id, fact, dist FROM walked WHERE NOT (SELECT yes FROM short)
    UNION ALL
    (SELECT m.id, m.fact_key IS NOT NULL, (m.embedding::vector({dims})) <=> %(q)s AS dist
     FROM memories m
     WHERE (SELECT yes FROM short)
       AND {filters} AND m.embedding_model = %(model)s AND vector_dims(m.embedding) = {dims}
       AND m.vector_gen <= {gen}{own}
     ORDER BY ((m.embedding::vector({dims})) <=> %(q)s) + 0, m.id
     LIMIT %(k)s * (SELECT n FROM depth)){rest_arms}
    UNION ALL
    (SELECT m.id, m.fact_key IS NOT NULL, (m.embedding::vector({dims})) <=> %(q)s AS dist
     FROM memories m
     WHERE {filters} AND m.embedding_model = %(model)s AND vector_dims(m.embedding) = {dims}
       AND m.vector_gen > {gen}
     -- Ties broken by id: the rows arrive in whatever order the plan reads them, and hash embeddings tie often.
     ORDER BY 3, m.id
     LIMIT %(k)s * (SELECT n FROM depth))
),
vec AS (
    -- The k nearest memories that are not facts, and the facts nearer than the last of them (``depth``); a scope
    -- without facts: the k nearest.
    SELECT id, dist FROM (
        SELECT id, fact, dist, count(*) FILTER (WHERE NOT fact) OVER (ORDER BY dist, id) AS others
        FROM vec_all) v
    WHERE others < %(k)s OR (others = %(k)s AND NOT fact)
),
vec_ranked AS (
    SELECT id, 1 - dist AS cosine, row_number() OVER (ORDER BY dist, id) AS rnk
    FROM vec WHERE 1 - dist >= %(floor)s
),
scope AS (
    -- N for the IDF: the live memories of the searched workspaces (other filters hardly change how rare
    -- a word is). Counting a large workspace costs a scan, so the caller passes a recent count if it has
    -- one (COALESCE then never runs the subquery). A query without words has no text arm and counts nothing.
    SELECT CASE WHEN %(qtext)s = '' THEN NULL
                ELSE coalesce(%(scope_n)s::bigint,
                              (SELECT count(*) FROM memories m
                               WHERE m.workspace_id = ANY(%(ws)s) AND m.deleted_at IS NULL))
           END AS n
),
lexemes AS MATERIALIZED (
    -- The query's lexemes as the configuration sees them (stemmed, stop words gone), one tsquery each,
    -- and how many memories of the scope each is expected in: ANALYZE keeps the share of rows holding
    -- each of the column's most common lexemes (rare ones are not kept: 0; none are shown to a role that
    -- row-level security applies to, so for the app every word is listed).
    -- Listing every memory that holds a very common word costs a scan of a large share of the workspace
    -- and adds little (its IDF is low), so such words are not ``listed`` (estimated in more than list_max_df
    -- memories; NULL: list every one): they are only checked on the candidates found otherwise.
    -- If every word is very common, none is listed either: the text arm scores only the vector arm's candidates
    -- (its exact pending tail included), at most k tsv checks. Listing the least common one cost a join per
    -- memory holding it, a share of the workspace (the slow tail in BENCHMARKS.md's 1M section), to
    -- find memories that the vector arm mostly finds too, by words whose IDF is low in any case. A larger
    -- second cap for that word would still cost up to that many joins, and be one more knob to tune.
    -- A scope of at most list_max_df memories never gets here (est_df <= n): small workspaces are unchanged.
    SELECT i, q, est_df, (%(list_max_df)s::float8 IS NULL OR est_df <= %(list_max_df)s) AS listed
    FROM (
        SELECT row_number() OVER (ORDER BY l.lexeme) AS i, l.q,
               coalesce(st.freq, 0) * (SELECT n FROM scope) AS est_df
        FROM (SELECT DISTINCT lexeme, quote_literal(lexeme)::tsquery AS q
              FROM unnest(to_tsvector('english', %(qtext)s))) l
        -- ANALYZE's most common lexemes of memories.tsv and their shares (pg_stats), which the app reads
        -- once in a while and passes (shared/domain/retrieval/recall.py, WordStats): estimates either way.
        LEFT JOIN unnest(%(mce_lexemes)s::text[], %(mce_freqs)s::real[]) AS st(lexeme, freq)
               ON st.lexeme = l.lexeme
    ) x
),
listed AS MATERIALIZED (
    -- One row per (memory, listed lexeme it holds): one GIN lookup per lexeme, no second pass for counts.
    -- memorylayer_text_rows (migration 0024): behind row-level security the planner will not use the GIN
    -- index for a plain ``@@``, and would scan the whole workspace; it returns the columns the filters read,
    -- so each matching row is read once (a join back to memories by id doubled the listing's cost).
    -- A conversation turn is also found by its previous turn's words (memory_contexts, migration 0023: the
    -- nearest earlier live turn of the same stream): an answer rarely repeats the question's words, the turn
    -- before it does. Such a match weighs ctx_w (wt) of the word's IDF; a word of the turn itself weighs in
    -- full, and the length stays the turn's own. Document frequencies count both kinds of match
    -- (bench/locomo/EXPERIMENTS.md §11.6–11.7). ctx_w = 0: no context lookup. A turn that holds the word
    -- itself is found by both lookups and kept once, as its own match. The two lookups are two branches, each
    -- joined to memories by key: as one union before the join the planner hashed the whole workspace instead
    -- (a scan of memories per recall, linear in the workspace's size).
    -- names_it: the memory is a name fact ("User's name is Dana", fact_key …|name) whose value holds the lexeme.
    SELECT m.id, m.tsv AS tsv, length(m.tsv) AS len, l.i, 1::float8 AS wt,
           coalesce(to_tsvector('english', m.fact_value) @@ l.q, false) AS names_it
    FROM lexemes l, LATERAL memorylayer_text_rows(%(ws)s, l.q) AS m
    WHERE l.listed AND {filters}
    UNION ALL
    SELECT m.id, m.tsv, length(m.tsv), l.i, %(ctx_w)s::float8,
           CASE WHEN right(m.fact_key, 5) = '|name'
                THEN to_tsvector('english', coalesce(m.metadata->>'fact_value', '')) @@ l.q
                ELSE false END
    FROM lexemes l, LATERAL memorylayer_context_matches(%(ws)s, l.q) AS c JOIN memories m ON m.id = c.id
    WHERE l.listed AND %(ctx_w)s > 0 AND {filters} AND NOT m.tsv @@ l.q
),
names AS MATERIALIZED (
    -- The query's words that are someone's name by a name fact of the scope ("Dana" in "where does Dana
    -- live?"). Every memory about Dana is a match in meaning, whether it says "Dana" or not ("User lives in
    -- Berlin"), so the word says little about which one answers: it weighs name_w of its IDF, and a memory
    -- matching only names, when the query asks something else too ("User's name is Dana"), keeps name_w of
    -- its relevance (fused). Without a name fact in the scope this is empty and nothing changes.
    SELECT DISTINCT i FROM listed WHERE names_it AND %(name_w)s < 1
),
candidates AS MATERIALIZED (
    -- Where unlisted words are looked for (only if there are any): the listed matches and the vector arm's.
    -- Only in the memory's own words: an unlisted word is very common, and its IDF is low already.
    SELECT DISTINCT ON (id) id, tsv FROM listed WHERE EXISTS (SELECT FROM lexemes WHERE NOT listed)
    UNION ALL
    SELECT m.id, m.tsv FROM vec v JOIN memories m ON m.id = v.id
    WHERE EXISTS (SELECT FROM lexemes WHERE NOT listed) AND {filters}
      AND NOT EXISTS (SELECT FROM listed x WHERE x.id = v.id)
),
matches AS (
    SELECT id, len, i, wt FROM listed
    UNION ALL
    SELECT c.id, length(c.tsv), l.i, 1 FROM candidates c JOIN lexemes l ON NOT l.listed AND c.tsv @@ l.q
),
idf AS MATERIALIZED (
    -- ts_rank has no notion of rarity: a speaker's name in half the turns weighs as much as "banker".
    -- A listed lexeme's document frequency is exact (every memory holding it is in ``listed``); an
    -- unlisted one's is the estimate.
    SELECT l.i, ln(1 + (greatest(s.n, d.df) - d.df + 0.5) / (d.df + 0.5))
                * CASE WHEN nm.i IS NOT NULL THEN %(name_w)s ELSE 1 END AS idf,
           nm.i IS NOT NULL AS is_name
    FROM lexemes l CROSS JOIN scope s
    LEFT JOIN names nm ON nm.i = l.i
    LEFT JOIN (SELECT i, count(*) AS hits FROM listed GROUP BY i) c ON c.i = l.i
    CROSS JOIN LATERAL (SELECT CASE WHEN l.listed THEN coalesce(c.hits, 0) ELSE l.est_df END AS df) d
),
bm25 AS (
    SELECT x.id, max(x.len) AS len, sum(i.idf * x.wt) AS idf,
           -- Only names matched, and the query has other words (see ``names``).
           bool_and(i.is_name) AND EXISTS (SELECT FROM idf WHERE NOT is_name) AS name_only
    FROM matches x JOIN idf i ON i.i = x.i GROUP BY x.id
),
fts AS (
    -- BM25 with tf = 1 (chat turns rarely repeat a word); length (distinct lexemes) relative to the mean
    -- length of the matching memories, which needs no scan of the whole scope.
    SELECT id, idf * (%(k1)s + 1) / (1 + %(k1)s * (1 - %(b)s + %(b)s * len / avg(len) OVER ())) AS score,
           name_only
    FROM bm25
    ORDER BY score DESC, id
    LIMIT %(k)s
),
fts_ranked AS (
    SELECT id, score, name_only, row_number() OVER (ORDER BY score DESC, id) AS rnk FROM fts
),
fused AS (
    -- Score fusion: each arm's score relative to its best hit, weighted; relevance in [0, 1].
    SELECT coalesce(v.id, t.id) AS id, v.cosine, t.score AS text_score, v.rnk AS vec_rank,
           t.rnk AS text_rank,
           (%(w_vec)s * coalesce(v.cosine / nullif(max(v.cosine) OVER (), 0), 0)
            + %(w_text)s * coalesce(t.score / nullif(max(t.score) OVER (), 0), 0))
           / (%(w_vec)s + %(w_text)s)
           -- A name alone (``names``): the vector arm likes "User's name is Dana" for any question about Dana.
           * CASE WHEN t.name_only THEN %(name_w)s ELSE 1 END AS relevance
    FROM vec_ranked v FULL JOIN fts_ranked t ON v.id = t.id
),
lent AS (
    -- In a chat the answer to a question is often the turn *after* the one that matches its words ("what
    -- did you do after losing your job?" → "I opened a store"): each candidate in an ordered stream
    -- (sequence_key) lends a share of its relevance to the turn after it (reply_w) and the turn before it
    -- (lead_w); a turn keeps the largest loan. Uses the memories_sequence index.
    SELECT n.id, max(f.relevance * CASE WHEN n.sequence_index > p.sequence_index
                                        THEN %(reply_w)s ELSE %(lead_w)s END) AS lent
    FROM fused f
    JOIN memories p ON p.id = f.id
    JOIN memories n ON n.workspace_id = p.workspace_id AND n.sequence_key = p.sequence_key
                   AND n.sequence_index IN (p.sequence_index - 1, p.sequence_index + 1)
                   AND n.sequence_key IS NOT NULL AND n.deleted_at IS NULL
    WHERE p.sequence_key IS NOT NULL AND (%(reply_w)s > 0 OR %(lead_w)s > 0)
      -- Workspaces without streams (the flag a write sets in its transaction, migration 0018) skip the join.
      AND (SELECT bool_or(w.has_streams) FROM workspaces w WHERE w.id = ANY(%(ws)s))
    GROUP BY n.id
),
scored AS MATERIALIZED (
    -- Materialized: inlined, the final join's key is coalesce(f.id, l.id) over a FULL JOIN, which the planner
    -- cannot look up by memories' primary key; it hashed the ~100 candidates and scanned every memory of the
    -- table instead (most of a recall's time at 1M rows: BENCHMARKS.md, run B).
    SELECT coalesce(f.id, l.id) AS id, f.cosine, f.text_score, f.vec_rank, f.text_rank, l.lent,
           coalesce(f.relevance, 0) + coalesce(l.lent, 0) AS relevance
    FROM fused f FULL JOIN lent l ON l.id = f.id
)
SELECT {memory_columns}, f.cosine, f.text_score, f.vec_rank, f.text_rank,
       -- A loan can lift a score past 1; the reported relevance stays in [0, 1], the order uses the sum.
       least(1.0, f.relevance) AS relevance, f.lent AS lent,
       f.relevance
           -- The speaker: a whole-word match of metadata.speaker among the query's words (no speaker: no
           -- match, not a NULL score).
           * (1 + %(speaker_w)s * coalesce(position(' ' || regexp_replace(lower(m.metadata->>'speaker'),
                                                                         '[^[:alnum:]]+', ' ', 'g') || ' '
                                                     IN %(qwords)s) > 0, false)::int)
           -- Time: for a "when" question (time_w > 0), a memory whose text mentions a time.
           * CASE WHEN %(time_w)s > 0 THEN 1 + %(time_w)s * (m.content ~* %(time_re)s)::int ELSE 1 END
           -- A named period ("in June", "on 8 May, 2023"; date_w > 0, shared/domain/retrieval/text_query.py
           -- period_params): a memory whose time is in it, or up to a few days after (a chat tells of an event
           -- later), × (1 + date_w). A month without a year matches that month of any year.
           * CASE WHEN %(date_w)s > 0 THEN 1 + %(date_w)s * (CASE
                  WHEN %(p_month)s::int IS NOT NULL
                  THEN date_part('month', coalesce(m.event_time, m.created_at)) = %(p_month)s
                       OR (date_part('month', coalesce(m.event_time, m.created_at)) = %(p_next)s
                           AND date_part('day', coalesce(m.event_time, m.created_at)) <= %(p_slack)s)
                  ELSE coalesce(m.event_time, m.created_at) >= %(p_start)s::timestamptz
                       AND coalesce(m.event_time, m.created_at) < %(p_end)s::timestamptz
                  END)::int ELSE 1 END
           -- Recency, weighted by rw: half of it is gone after a week (168 hours). In float8 (date_part):
           -- extract() gives numeric, whose power() costs far more.
           * (1 - %(rw)s + %(rw)s * power(2.0::float8, -date_part('epoch', now() - m.created_at) / 3600.0 / 168.0))
           -- A turn that restates a superseded value ("I live in Paris" after "I moved to Berlin"; the extraction
           -- writer sets stale_by, migration 0020) ranks stale_w of itself while the fact that replaced it is
           -- live. stale_w is 1 for a question about the past and for include_history (shared/domain/retrieval/recall.py).
           * CASE WHEN m.stale_by IS NOT NULL AND %(stale_w)s < 1
                       AND EXISTS (SELECT FROM memories s
                                   WHERE s.id = m.stale_by AND s.workspace_id = m.workspace_id
                                     AND s.valid_to IS NULL AND s.deleted_at IS NULL AND s.status = 'active')
                  THEN %(stale_w)s ELSE 1 END
           AS boosted,
       count(*) OVER () AS pool, (SELECT n FROM scope) AS scope_n
FROM scored f JOIN memories m ON m.id = f.id
WHERE {filters}
ORDER BY boosted DESC, m.id
LIMIT %(limit)s OFFSET %(offset)s

-- filters --
m.workspace_id = ANY(%(ws)s) AND m.deleted_at IS NULL
AND (m.status = 'active' OR (%(include_archived)s AND m.status = 'archived'))
AND (%(include_history)s OR m.valid_to IS NULL)
AND (%(types)s::text[] IS NULL OR m.type = ANY(%(types)s::text[]))
AND (%(subtypes)s::text[] IS NULL OR m.subtype = ANY(%(subtypes)s::text[]))
AND (%(exclude_ids)s::text[] IS NULL OR NOT (m.id = ANY(%(exclude_ids)s::text[])))
AND (%(tags)s::text[] IS NULL OR m.tags_lower @> %(tags)s::text[])
AND (%(user_id)s::text IS NULL OR m.user_id = %(user_id)s::text)
AND (%(observer_id)s::text IS NULL OR m.observer_id = %(observer_id)s::text)
AND (%(subject_id)s::text IS NULL OR m.subject_id = %(subject_id)s::text)
AND (%(created_after)s::timestamptz IS NULL OR m.created_at >= %(created_after)s::timestamptz)
AND (%(created_before)s::timestamptz IS NULL OR m.created_at <= %(created_before)s::timestamptz)
AND (%(event_after)s::timestamptz IS NULL OR coalesce(m.event_time, m.created_at) >= %(event_after)s::timestamptz)
AND (%(event_before)s::timestamptz IS NULL OR coalesce(m.event_time, m.created_at) <= %(event_before)s::timestamptz)
