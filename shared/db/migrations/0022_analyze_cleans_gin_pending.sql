-- 0022: after a bulk load the full-text index answers from its pending list. GIN's fast update appends new
-- entries to an unsorted pending list (up to gin_pending_list_limit, 4 MB) that every search scans in full
-- until a vacuum merges it, so each of recall's per-word lookups slows down after a bulk load (BENCHMARKS.md,
-- recall's per-request cost). The worker already asks for fresh statistics
-- after moving a bulk load into the HNSW graph; the same owner's call now merges both GIN pending lists too.
CREATE OR REPLACE FUNCTION analyze_memories() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    ANALYZE public.memories;
    PERFORM gin_clean_pending_list('public.memories_tsv'::regclass);
    PERFORM gin_clean_pending_list('public.memories_tags'::regclass);
END $$;
REVOKE ALL ON FUNCTION analyze_memories() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION analyze_memories() TO memorylayer_app;
