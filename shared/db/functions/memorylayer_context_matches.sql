-- Context matches through the GIN index (migration 0023), as memorylayer_text_matches does for memories.tsv:
-- behind the wall the planner would not use the index for a plain `@@`. Runs as the owner and applies the same
-- wall itself; only ids, only of live memories of the asked workspaces (a context row exists only for a live
-- turn; recall joins memories with its filters anyway). ROWS 1: recall joins these ids to memories by key, one
-- lookup each; a larger estimate only tempts the planner into hashing the whole workspace (measured: a scan of
-- memories per recall).
-- Planned with its values on every call (plan_cache_mode): the generic plan, made once for any workspace and word,
-- took the word alone from the per-workspace GIN (every workspace's matches: 35,801 rows for one common word in an
-- 85k table) and ANDed the workspaces from the export btree (workspace_id, created_at, id); given the values the
-- planner asks the GIN for both, or reads a small workspace by the btree and checks the word (BENCHMARKS.md,
-- "A thousand tenants in one table").
CREATE OR REPLACE FUNCTION memorylayer_context_matches(workspace_ids text[], q tsquery)
RETURNS TABLE (id text)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 1 SET search_path = pg_catalog, public
SET plan_cache_mode = force_custom_plan AS $$
    SELECT c.memory_id FROM public.memory_contexts c
    WHERE c.workspace_id = ANY (workspace_ids) AND c.tsv @@ q
      AND (session_user <> 'memorylayer_app' OR public.memorylayer_sees_all()
           OR c.workspace_id = ANY (public.memorylayer_visible_workspaces()))
$$;
REVOKE ALL ON FUNCTION memorylayer_context_matches(text[], tsquery) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_context_matches(text[], tsquery) TO memorylayer_app;
