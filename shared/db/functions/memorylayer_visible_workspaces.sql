-- The workspaces the wall shows (migration 0015; policies: workspace_wall.sql): the transaction-local setting
-- memorylayer.workspaces, 'ws_a,ws_b'; unset or '' is none at all (fail closed; shared/db/rls.py).
CREATE OR REPLACE FUNCTION memorylayer_visible_workspaces() RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(string_to_array(nullif(current_setting('memorylayer.workspaces', true), ''), ','), '{}')
$$;
GRANT EXECUTE ON FUNCTION memorylayer_visible_workspaces() TO memorylayer_app;
