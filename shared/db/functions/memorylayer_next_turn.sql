-- The live turn right after a position of a stream (whose context is that position's turn, or was; migration
-- 0023). Used by the memorylayer_contexts_* triggers.
CREATE OR REPLACE FUNCTION memorylayer_next_turn(ws text, key text, idx integer) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, public AS $$
    SELECT n.id FROM memories n
    WHERE n.workspace_id = ws AND n.sequence_key = key AND n.sequence_index > idx AND n.deleted_at IS NULL
    ORDER BY n.sequence_index
    LIMIT 1
$$;
REVOKE ALL ON FUNCTION memorylayer_next_turn(text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_next_turn(text, text, integer) TO memorylayer_app;
