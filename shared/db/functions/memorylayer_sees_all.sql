-- The workspace wall's "every workspace" (migration 0015; policies: workspace_wall.sql): the transaction-local
-- setting memorylayer.workspaces is '*' (the admin key, auth mode none, the worker, cleanup; shared/db/rls.py).
CREATE OR REPLACE FUNCTION memorylayer_sees_all() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(current_setting('memorylayer.workspaces', true) = '*', false)
$$;
GRANT EXECUTE ON FUNCTION memorylayer_sees_all() TO memorylayer_app;
