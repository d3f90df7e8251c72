-- Full-text matches through the GIN index, for recall's text arm (migration 0015). Behind the workspace wall
-- PostgreSQL does not use `tsv @@ q` as an index condition: the operator's function (ts_match_vq) is not
-- LEAKPROOF, so it may not run before the policy, and only a superuser can mark it LEAKPROOF (not possible on
-- RDS). The text arm would scan every row of the workspace instead. This function runs as the owner, which the
-- policies do not filter, and applies the same wall itself: only ids, only of live memories of the asked
-- workspaces that the wall shows. As the policies, it filters for the app role only (inside the function
-- current_user is the owner, so it asks who logged in); the owner and a superuser bypass RLS anyway. EXECUTE is
-- the app role's alone. (The vector arm's HNSW scan is unaffected: an ORDER BY is not a qual.)
-- Planned with its values on every call (plan_cache_mode): the generic plan, made once for any workspace and word,
-- took the word alone from the per-workspace GIN (every workspace's matches: 35,801 rows for one common word in an
-- 85k table) and ANDed the workspaces from the export btree (workspace_id, created_at, id); given the values the
-- planner asks the GIN for both, or reads a small workspace by the btree and checks the word (BENCHMARKS.md,
-- "A thousand tenants in one table").
CREATE OR REPLACE FUNCTION memorylayer_text_matches(workspace_ids text[], q tsquery)
RETURNS TABLE (id text)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path = pg_catalog, public
SET plan_cache_mode = force_custom_plan AS $$
    SELECT m.id FROM public.memories m
    WHERE m.workspace_id = ANY (workspace_ids) AND m.deleted_at IS NULL AND m.tsv @@ q
      AND (session_user <> 'memorylayer_app' OR public.memorylayer_sees_all()
           OR m.workspace_id = ANY (public.memorylayer_visible_workspaces()))
$$;
REVOKE ALL ON FUNCTION memorylayer_text_matches(text[], tsquery) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_text_matches(text[], tsquery) TO memorylayer_app;
