-- Recall's full-text listing, reading each matching memory once (migration 0024). Recall's text arm lists every
-- memory holding a query word (shared/db/recall.sql, ``listed``). Through memorylayer_text_matches that was a
-- GIN lookup returning ids, then a primary-key lookup of each id in memories for its length, name fact and the
-- request's filters: a second index descent and heap visit per matching row, which the GIN lookup's own heap
-- visit had just made (timings: migration 0024).
--
-- So this returns the columns the listing uses: those recall's filters read (the ``-- filters --`` block of
-- recall.sql, on alias m), the text, and a name fact's value. A filter on another column fails at once
-- ("column m.x does not exist") in every recall test, so the two cannot drift apart silently.
--
-- Per workspace (migration 0046): ``memories_ws_tsv (workspace_id, tsv)`` answers ``workspace_id = ANY (ids) AND
-- tsv @@ q`` with one bitmap index search per asked workspace, reading only that workspace's matches; through
-- the table-wide ``memories_tsv`` a word visited its matches in every workspace of the table (BENCHMARKS.md, "A
-- thousand tenants in one table"). The planner picks whichever is cheaper; both return the same rows.
--
-- Same wall as memorylayer_text_matches: it runs as the owner (behind row-level security the planner will not use
-- the GIN index for a plain ``@@``), so it filters for the app role itself; EXECUTE is the app role's alone.
-- Planned with its values on every call (plan_cache_mode): the generic plan, made once for any workspace and word,
-- took the word alone from the per-workspace GIN (every workspace's matches: 35,801 rows for one common word in an
-- 85k table) and ANDed the workspaces from the export btree (workspace_id, created_at, id); given the values the
-- planner asks the GIN for both, or reads a small workspace by the btree and checks the word (BENCHMARKS.md,
-- "A thousand tenants in one table").
CREATE OR REPLACE FUNCTION memorylayer_text_rows(workspace_ids text[], q tsquery)
RETURNS TABLE (
    id           text,
    workspace_id text,
    user_id      text,
    observer_id  text,
    subject_id   text,
    type         text,
    subtype      text,
    tags_lower   text[],
    status       text,
    tsv          tsvector,
    fact_key     text,
    valid_to     timestamptz,
    event_time   timestamptz,
    created_at   timestamptz,
    deleted_at   timestamptz,
    -- A name fact's value ("User's name is Dana": fact_key …|name), else NULL: recall weighs a query word that is
    -- someone's name less. Only that key, not all of metadata, which can be large.
    fact_value   text
)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path = pg_catalog, public
SET plan_cache_mode = force_custom_plan AS $$
    SELECT m.id, m.workspace_id, m.user_id, m.observer_id, m.subject_id, m.type, m.subtype, m.tags_lower,
           m.status, m.tsv, m.fact_key, m.valid_to, m.event_time, m.created_at, m.deleted_at,
           CASE WHEN right(m.fact_key, 5) = '|name' THEN m.metadata->>'fact_value' END
    FROM public.memories m
    WHERE m.workspace_id = ANY (workspace_ids) AND m.deleted_at IS NULL AND m.tsv @@ q
      AND (session_user <> 'memorylayer_app' OR public.memorylayer_sees_all()
           OR m.workspace_id = ANY (public.memorylayer_visible_workspaces()))
$$;
REVOKE ALL ON FUNCTION memorylayer_text_rows(text[], tsquery) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_text_rows(text[], tsquery) TO memorylayer_app;
