-- The worker's refresh of the planner's statistics after it moves a bulk load into the HNSW graph (migration
-- 0010; 0022, 0023 and 0046 widened it): ANALYZE needs ownership (PostgreSQL 17's MAINTAIN privilege would also allow
-- VACUUM, REINDEX, CLUSTER and LOCK TABLE), so this runs those statements with the owner's rights, and is all
-- the app role gets. It also merges the GIN pending lists: after a bulk load fast update leaves new entries in
-- an unsorted list (up to gin_pending_list_limit) that every full-text search scans until a vacuum merges it.
CREATE OR REPLACE FUNCTION analyze_memories() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    ANALYZE public.memories;
    ANALYZE public.memory_contexts;
    -- The full-text indexes that exist: the per-workspace ones are built after the migrations (0046,
    -- shared/db/migrate.py), and the table-wide ones go in contract steps once those are valid.
    PERFORM gin_clean_pending_list(i) FROM unnest(ARRAY[to_regclass('public.memories_tsv'),
                                                         to_regclass('public.memories_ws_tsv'),
                                                         to_regclass('public.memory_contexts_tsv'),
                                                         to_regclass('public.memory_contexts_ws_tsv')]) AS i
    WHERE i IS NOT NULL;
    PERFORM gin_clean_pending_list('public.memories_tags'::regclass);
END $$;
REVOKE ALL ON FUNCTION analyze_memories() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION analyze_memories() TO memorylayer_app;
