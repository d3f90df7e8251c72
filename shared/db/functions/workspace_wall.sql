-- The workspace wall (migration 0015): row-level security, the second wall between workspaces. Every query
-- already names its workspaces; these policies make the database refuse the rows of every other workspace too,
-- so that a query which forgets its filter (or filters on the wrong id) returns nothing foreign and cannot write
-- anything foreign. The application sets the transaction-local memorylayer.workspaces at the start of each unit
-- of work (shared/db/rls.py; memorylayer_sees_all, memorylayer_visible_workspaces).
--
-- ENABLE, not FORCE: the owner runs migrations and keeps bypassing (so does a superuser). Policies are for
-- memorylayer_app only; any other non-owner role sees nothing (no policy = deny). Foreign-key checks and
-- ON DELETE CASCADE run with the owner's rights and are not filtered, as PostgreSQL documents. api_keys is not
-- walled: a key is looked up by its prefix before anyone knows which workspaces it may use.
--
-- One policy per table, for reads and writes alike (WITH CHECK: no row can be written into, or moved to, a
-- workspace outside the wall). The functions are wrapped in sub-selects so they become InitPlans, evaluated
-- once per statement instead of once per row (the ::text[] keeps ANY from reading the sub-select as a set).
--
-- A new tenant table: add it to the list (its migration creates the table; this file, run after it, walls it).
-- Only a table whose wall is missing or differs is changed: ALTER TABLE ... ENABLE and CREATE POLICY lock the
-- table, and this runs while the previous version serves. What "differs" means is Postgres's own reading of the
-- policy: the same wall on a scratch table, compared with each table's.
DO $$
DECLARE
    t record;
    wall text;
BEGIN
    CREATE TEMP TABLE workspace_wall_probe (id text, workspace_id text);
    FOR t IN
        SELECT * FROM (VALUES
            ('associations', 'workspace_id'),
            ('audit_events', 'workspace_id'),
            ('context_sandbox_leases', 'workspace_id'),
            ('context_sandboxes', 'workspace_id'),
            ('contexts', 'workspace_id'),
            ('contradictions', 'workspace_id'),
            ('document_jobs', 'workspace_id'),
            ('document_pages', 'workspace_id'),
            ('documents', 'workspace_id'),
            ('entities', 'workspace_id'),
            ('entity_aliases', 'workspace_id'),
            ('entity_relation_evidence', 'workspace_id'),
            ('entity_relations', 'workspace_id'),
            ('extraction_jobs', 'workspace_id'),
            ('idempotency_records', 'workspace_id'),
            ('kb_articles', 'workspace_id'),
            ('knowledgebases', 'workspace_id'),
            ('memories', 'workspace_id'),
            ('memory_contexts', 'workspace_id'),
            ('memory_revisions', 'workspace_id'),
            ('resource_revisions', 'workspace_id'),
            ('resources', 'workspace_id'),
            ('session_checkpoints', 'workspace_id'),
            ('session_context_events', 'workspace_id'),
            ('session_context_horizon', 'workspace_id'),
            ('sessions', 'workspace_id'),
            ('skill_files', 'workspace_id'),
            ('thread_messages', 'workspace_id'),
            ('threads', 'workspace_id'),
            ('vector_dedicated_graphs', 'workspace_id'),
            ('working_memory', 'workspace_id'),
            ('workspaces', 'id')
        ) AS walled (name, col)
    LOOP
        wall := format(
            '(SELECT memorylayer_sees_all()) OR %I = ANY ((SELECT memorylayer_visible_workspaces())::text[])', t.col
        );
        IF NOT (SELECT c.relrowsecurity FROM pg_class c WHERE c.oid = format('public.%I', t.name)::regclass) THEN
            EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.name);
        END IF;
        EXECUTE format(
            'CREATE POLICY workspace_wall ON workspace_wall_probe TO memorylayer_app USING (%s) WITH CHECK (%s)',
            wall, wall
        );
        IF NOT EXISTS (
            SELECT FROM pg_policy p, pg_policy probe
            WHERE p.polrelid = format('public.%I', t.name)::regclass AND p.polname = 'workspace_wall'
              AND probe.polrelid = 'workspace_wall_probe'::regclass AND probe.polname = 'workspace_wall'
              AND (p.polcmd, p.polpermissive, p.polroles) = (probe.polcmd, probe.polpermissive, probe.polroles)
              AND pg_get_expr(p.polqual, p.polrelid) = pg_get_expr(probe.polqual, probe.polrelid)
              AND pg_get_expr(p.polwithcheck, p.polrelid) = pg_get_expr(probe.polwithcheck, probe.polrelid)
        ) THEN
            EXECUTE format('DROP POLICY IF EXISTS workspace_wall ON %I', t.name);
            EXECUTE format(
                'CREATE POLICY workspace_wall ON %I TO memorylayer_app USING (%s) WITH CHECK (%s)',
                t.name, wall, wall
            );
        END IF;
        DROP POLICY workspace_wall ON workspace_wall_probe;
    END LOOP;
    DROP TABLE workspace_wall_probe;
END $$;
