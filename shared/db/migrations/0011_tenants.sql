-- 0011: tenants. A tenant owns API keys and workspaces (workspaces.tenant_id exists since 0001). Existing
-- keys and workspaces belong to the default tenant, so a single-tenant install sees no change. Each tenant's
-- user space is a workspace of its own (shared/core/tenants.py), so no other table changes.
ALTER TABLE api_keys ADD COLUMN tenant_id text NOT NULL DEFAULT '_default';
