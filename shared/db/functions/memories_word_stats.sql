-- Recall's common-word estimate for the app role (migration 0019). Recall reads memories.tsv's most common
-- lexemes from pg_stats so that a word in most memories is checked on the other arms' candidates instead of
-- listed in full (recall.sql, list_max_df). But pg_stats shows no row of a table under row-level security to a
-- role the policies bind, so this reads those two arrays with the owner's rights, and is all the app role gets.
-- Acceptable: the values are table-wide word shares that only steer which words recall lists; its results are
-- identical either way (tests/integration/test_recall.py), and recall returns none of them to a caller.
CREATE OR REPLACE FUNCTION memories_word_stats(OUT lexemes text[], OUT freqs real[])
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT coalesce(s.most_common_elems::text::text[], '{}'), coalesce(s.most_common_elem_freqs, '{}')
    FROM pg_catalog.pg_stats s
    WHERE s.schemaname = 'public' AND s.tablename = 'memories' AND s.attname = 'tsv'
$$;
REVOKE ALL ON FUNCTION memories_word_stats() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memories_word_stats() TO memorylayer_app;
