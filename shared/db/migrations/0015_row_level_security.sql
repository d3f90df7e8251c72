-- 0015: row-level security, the second wall between workspaces. Every query already names its workspaces;
-- these policies make the database refuse the rows of every other workspace too, so that a query which
-- forgets its filter (or filters on the wrong id) returns nothing foreign and cannot write anything foreign.
--
-- The application sets, at the start of each unit of work, a transaction-local setting (set_config(..., true):
-- RDS Proxy does not pin on it, and it cannot leak into the next borrower of the connection):
--   memorylayer.workspaces = 'ws_a,ws_b'   the workspaces this request may use (Principal.visible_workspaces())
--   memorylayer.workspaces = '*'           every workspace: the admin key, auth mode none, the worker, cleanup
--   unset or ''                            nothing at all (fail closed)
-- See shared/db/rls.py. Workspace ids cannot contain ',' and never equal '*' (API validation; rls.py checks).
--
-- ENABLE, not FORCE: the owner runs migrations and keeps bypassing (so does a superuser). Policies are for
-- memorylayer_app only; any other non-owner role sees nothing (no policy = deny). Foreign-key checks and
-- ON DELETE CASCADE run with the owner's rights and are not filtered, as PostgreSQL documents.
--
-- api_keys is not here: a key is looked up by its prefix before anyone knows which workspaces it may use,
-- and the key row is what defines them; only the admin routes list or change keys.
--
-- Not expand-safe on its own: code that sets no wall sees nothing through the app role. It ships before the
-- first deploy (no running version predates it); a later change of this kind needs two steps (policies that
-- treat "unset" as everything, then fail closed once every running version sets the wall).

CREATE OR REPLACE FUNCTION memorylayer_sees_all() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(current_setting('memorylayer.workspaces', true) = '*', false)
$$;

CREATE OR REPLACE FUNCTION memorylayer_visible_workspaces() RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(string_to_array(nullif(current_setting('memorylayer.workspaces', true), ''), ','), '{}')
$$;

GRANT EXECUTE ON FUNCTION memorylayer_sees_all() TO memorylayer_app;
GRANT EXECUTE ON FUNCTION memorylayer_visible_workspaces() TO memorylayer_app;

-- One policy per table, for reads and writes alike (WITH CHECK: no row can be written into, or moved to, a
-- workspace outside the wall). The functions are wrapped in sub-selects so they become InitPlans, evaluated
-- once per statement instead of once per row (the ::text[] keeps ANY from reading the sub-select as a set).
DO $$
DECLARE
    t record;
BEGIN
    FOR t IN
        SELECT * FROM (VALUES
            ('workspaces', 'id'),
            ('contexts', 'workspace_id'),
            ('memories', 'workspace_id'),
            ('associations', 'workspace_id'),
            ('memory_revisions', 'workspace_id'),
            ('idempotency_records', 'workspace_id'),
            ('sessions', 'workspace_id'),
            ('session_checkpoints', 'workspace_id'),
            ('session_context_events', 'workspace_id'),
            ('session_context_horizon', 'workspace_id'),
            ('threads', 'workspace_id'),
            ('thread_messages', 'workspace_id'),
            ('extraction_jobs', 'workspace_id')
        ) AS tables (name, col)
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.name);
        EXECUTE format('DROP POLICY IF EXISTS workspace_wall ON %I', t.name);
        EXECUTE format(
            'CREATE POLICY workspace_wall ON %I TO memorylayer_app '
            'USING ((SELECT memorylayer_sees_all()) OR %2$I = ANY ((SELECT memorylayer_visible_workspaces())::text[])) '
            'WITH CHECK ((SELECT memorylayer_sees_all()) OR %2$I = ANY ((SELECT memorylayer_visible_workspaces())::text[]))',
            t.name, t.col
        );
    END LOOP;
END $$;

-- working_memory rows belong to a session and carry no workspace of their own (unless a later migration
-- gave them one): a row is visible when its session is, and sessions are behind the wall above.
DO $$
BEGIN
    ALTER TABLE working_memory ENABLE ROW LEVEL SECURITY;
    DROP POLICY IF EXISTS workspace_wall ON working_memory;
    IF EXISTS (SELECT FROM information_schema.columns
               WHERE table_schema = 'public' AND table_name = 'working_memory' AND column_name = 'workspace_id') THEN
        CREATE POLICY workspace_wall ON working_memory TO memorylayer_app
            USING ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]))
            WITH CHECK ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]));
    ELSE
        CREATE POLICY workspace_wall ON working_memory TO memorylayer_app
            USING ((SELECT memorylayer_sees_all()) OR EXISTS (SELECT FROM sessions s WHERE s.id = session_id))
            WITH CHECK ((SELECT memorylayer_sees_all()) OR EXISTS (SELECT FROM sessions s WHERE s.id = session_id));
    END IF;
END $$;

-- Full-text matches through the GIN index, for recall's text arm. Behind the policies above PostgreSQL does
-- not use `tsv @@ q` as an index condition: the operator's function (ts_match_vq) is not LEAKPROOF, so it may
-- not run before the policy, and only a superuser can mark it LEAKPROOF (not possible on RDS). The text arm
-- would scan every row of the workspace instead. This function runs as the owner, which the policies do not
-- filter, and applies the same wall itself: only ids, only of live memories of the asked workspaces that the
-- wall shows. As the policies, it filters for the app role only (inside the function current_user is the owner,
-- so it asks who logged in); the owner and a superuser bypass RLS anyway. EXECUTE is the app role's alone.
-- (The vector arm's HNSW scan is unaffected: an ORDER BY is not a qual.)
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
