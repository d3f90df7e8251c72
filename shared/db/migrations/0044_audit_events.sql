-- 0044: the audit trail: one row per write operation (who, in which workspace, did what to what, when), written
-- in the same transaction as the write it records (shared/db/audit.py). Append-only for the app role. No foreign
-- key to workspaces: the trail outlives a deleted workspace. `workspace_id` is null for writes outside any
-- workspace (API keys), which only the admin key's unwalled reads see.
CREATE TABLE audit_events (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id     text NOT NULL,
    workspace_id  text,
    actor_key_id  text,
    event_type    text NOT NULL,
    action        text NOT NULL,
    resource_type text,
    resource_id   text,
    metadata      jsonb NOT NULL DEFAULT '{}',
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- The listings: newest first per tenant, or per workspace, paged by id.
CREATE INDEX audit_events_tenant ON audit_events (tenant_id, id DESC);
CREATE INDEX audit_events_workspace ON audit_events (workspace_id, id DESC);

REVOKE UPDATE, DELETE ON audit_events FROM memorylayer_app;
