-- 0010: the application role. Migrations run as the owner; the functions log in as memorylayer_app, which
-- can read and write rows and nothing else: no DDL, owns nothing, not superuser. In AWS it logs in with IAM
-- (rds_iam); locally through the stand-in proxy with trust auth. Expand-only and idempotent: safe while the
-- previous version serves, and on a cluster where the role already exists (roles are cluster-wide).
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'memorylayer_app') THEN
        CREATE ROLE memorylayer_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'rds_iam') THEN  -- only on RDS/Aurora
        GRANT rds_iam TO memorylayer_app;
    END IF;
END $$;

GRANT USAGE ON SCHEMA public TO memorylayer_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO memorylayer_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO memorylayer_app;
-- Objects the owner creates later (future migrations) get the same grants.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO memorylayer_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO memorylayer_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT EXECUTE ON FUNCTIONS TO memorylayer_app;

DO $$
DECLARE f regprocedure;
BEGIN
    -- EXECUTE on the owner's own functions (the trigger functions); extension functions stay PUBLIC's.
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             WHERE p.pronamespace = 'public'::regnamespace AND p.proowner = current_user::regrole
    LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO memorylayer_app', f);
    END LOOP;
END $$;

-- The worker refreshes the planner's statistics after moving a bulk load into the HNSW graph. ANALYZE needs
-- ownership (PostgreSQL 17's MAINTAIN privilege would also allow VACUUM, REINDEX, CLUSTER and LOCK TABLE): this
-- function runs that one statement with the owner's rights, and is all the app role gets.
CREATE OR REPLACE FUNCTION analyze_memories() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    ANALYZE public.memories;
END $$;
REVOKE ALL ON FUNCTION analyze_memories() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION analyze_memories() TO memorylayer_app;

-- Session defaults come from the role, not from startup options (RDS Proxy refuses those). hnsw.* are
-- pgvector's settings: the library must be loaded in this session for ALTER ROLE to accept them.
SELECT '[1]'::vector;
ALTER ROLE memorylayer_app SET statement_timeout = '15s';
-- Iterative HNSW scans keep filtered vector searches (one workspace, a tag) from coming back short when the
-- nearest neighbours belong to other workspaces.
ALTER ROLE memorylayer_app SET hnsw.ef_search = 100;
ALTER ROLE memorylayer_app SET hnsw.iterative_scan = 'relaxed_order';
-- A frozen Lambda container keeps its socket open: the server ends sessions idle this long, so dev Aurora
-- can pause and the proxy's pool is not held. The pool re-validates connections and heals.
ALTER ROLE memorylayer_app SET idle_session_timeout = '60s';
ALTER ROLE memorylayer_app SET idle_in_transaction_session_timeout = '60s';
