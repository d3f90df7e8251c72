-- Triggers memories_tenant, sessions_tenant and threads_tenant (BEFORE INSERT or a move to another workspace, per
-- row): a row carries the tenant that owns its workspace (workspaces.tenant_id), whatever its writer sent, so
-- every write path (API, batch, import, extraction writer) fills tenant_id without knowing about it.
CREATE OR REPLACE FUNCTION memorylayer_row_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- No workspace row (yet): the foreign key refuses the row anyway.
    NEW.tenant_id := coalesce((SELECT w.tenant_id FROM workspaces w WHERE w.id = NEW.workspace_id), NEW.tenant_id);
    RETURN NEW;
END $$;
GRANT EXECUTE ON FUNCTION memorylayer_row_tenant() TO memorylayer_app;

CREATE OR REPLACE TRIGGER memories_tenant BEFORE INSERT OR UPDATE OF workspace_id ON memories
    FOR EACH ROW EXECUTE FUNCTION memorylayer_row_tenant();
CREATE OR REPLACE TRIGGER sessions_tenant BEFORE INSERT OR UPDATE OF workspace_id ON sessions
    FOR EACH ROW EXECUTE FUNCTION memorylayer_row_tenant();
CREATE OR REPLACE TRIGGER threads_tenant BEFORE INSERT OR UPDATE OF workspace_id ON threads
    FOR EACH ROW EXECUTE FUNCTION memorylayer_row_tenant();

-- Rows written before the triggers carry the column's default, '_default'. Filled here, in the transaction that
-- creates the triggers, so that no row the previous code version writes in between keeps it. Touches only rows
-- whose tenant differs (none on a single-tenant install, none when this file is applied again after an edit); no
-- other trigger reacts to tenant_id.
UPDATE memories m SET tenant_id = w.tenant_id FROM workspaces w
WHERE w.id = m.workspace_id AND m.tenant_id <> w.tenant_id;
UPDATE sessions s SET tenant_id = w.tenant_id FROM workspaces w
WHERE w.id = s.workspace_id AND s.tenant_id <> w.tenant_id;
UPDATE threads t SET tenant_id = w.tenant_id FROM workspaces w
WHERE w.id = t.workspace_id AND t.tenant_id <> w.tenant_id;
