-- 0026: sandbox leases, a per-tenant cap on sandbox work across API instances (docs/context-environment.md).
--
-- In AWS each API instance serves one request at a time, so the in-process gate (shared/domain/context_env/gate.py) cannot
-- cap a tenant there. A call takes a lease before it invokes the sandbox function and drops it after. A tenant
-- has slots 0 .. cap-1, so the primary key is the cap: two instances racing for one slot cannot both win (the
-- loser tries the next). A lease past its `expires_at` (its instance crashed or timed out) is taken over by the
-- next caller. A tenant has at most `cap` rows: released leases are deleted, expired ones reused.
--
-- `workspace_id` is the tenant's user space (`_global_user`, `_global_user:<tenant>`): every key of the tenant
-- sees it and no other tenant's key does, so the workspace wall below is also the tenant wall.
CREATE TABLE context_sandbox_leases (
    workspace_id text NOT NULL,
    slot         integer NOT NULL CHECK (slot >= 0),
    lease_id     text NOT NULL,
    key_id       text NOT NULL,
    taken_at     timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, slot)
);

-- The same wall as every tenant table (migration 0015).
ALTER TABLE context_sandbox_leases ENABLE ROW LEVEL SECURITY;
CREATE POLICY workspace_wall ON context_sandbox_leases TO memorylayer_app
    USING ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]))
    WITH CHECK ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]));
