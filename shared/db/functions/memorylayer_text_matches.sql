-- Full-text matches through the GIN index, for recall's text arm (migration 0015). Behind the workspace wall
-- PostgreSQL does not use `tsv @@ q` as an index condition: the operator's function (ts_match_vq) is not
-- LEAKPROOF, so it may not run before the policy, and only a superuser can mark it LEAKPROOF (not possible on
-- RDS). The text arm would scan every row of the workspace instead. This function runs as the owner, which the
-- policies do not filter, and applies the same wall itself: only ids, only of live memories of the asked
-- workspaces that the wall shows. As the policies, it filters for the app role only (inside the function
-- current_user is the owner, so it asks who logged in); the owner and a superuser bypass RLS anyway. EXECUTE is
-- the app role's alone. (The vector arm's HNSW scan is unaffected: an ORDER BY is not a qual.)
CREATE OR REPLACE FUNCTION memorylayer_text_matches(workspace_ids text[], q tsquery)
RETURNS TABLE (id text)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 100 SET search_path = pg_catalog, public AS $$
    SELECT m.id FROM public.memories m
    WHERE m.workspace_id = ANY (workspace_ids) AND m.deleted_at IS NULL AND m.tsv @@ q
      AND (session_user <> 'memorylayer_app' OR public.memorylayer_sees_all()
           OR m.workspace_id = ANY (public.memorylayer_visible_workspaces()))
$$;
REVOKE ALL ON FUNCTION memorylayer_text_matches(text[], tsquery) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_text_matches(text[], tsquery) TO memorylayer_app;
