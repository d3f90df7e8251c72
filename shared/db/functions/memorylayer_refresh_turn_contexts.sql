-- The context of each given turn (workspace, sequence_key, sequence_index) recomputed (migration 0023): the
-- nearest earlier live turn of its stream, or none (a session's first turn; the turn itself deleted). SECURITY
-- INVOKER: under the app role the workspace wall applies to what it reads and writes, and every turn it touches
-- is in the workspace of a row the caller has just written.
CREATE OR REPLACE FUNCTION memorylayer_refresh_turn_contexts(turn_ids text[]) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
    -- Driven by the given ids (primary key), one index probe of memories_sequence each for the previous turn.
    -- The turn's own `sequence_key IS NOT NULL` is left to the join (equality is strict): said in the WHERE, it
    -- would let the planner read every stream turn through the partial memories_sequence index instead, which
    -- it does when the statistics predate the streams (a bulk UPDATE that makes them: O(n) a row, O(n²) in all).
    WITH kept AS MATERIALIZED (
        SELECT t.id, t.workspace_id, p.tsv
        FROM (SELECT DISTINCT id FROM unnest(turn_ids) AS u (id)) u
        JOIN memories t ON t.id = u.id
        JOIN LATERAL (SELECT p.tsv FROM memories p
                      WHERE p.workspace_id = t.workspace_id AND p.sequence_key = t.sequence_key
                        AND p.sequence_index < t.sequence_index AND p.deleted_at IS NULL
                      ORDER BY p.sequence_index DESC
                      LIMIT 1) p ON true
        WHERE t.deleted_at IS NULL
    ),
    gone AS (
        DELETE FROM memory_contexts c
        WHERE c.memory_id = ANY (turn_ids) AND NOT EXISTS (SELECT FROM kept k WHERE k.id = c.memory_id)
    )
    INSERT INTO memory_contexts AS c (memory_id, workspace_id, tsv)
    SELECT id, workspace_id, tsv FROM kept
    ON CONFLICT (memory_id) DO UPDATE SET tsv = excluded.tsv, workspace_id = excluded.workspace_id
    WHERE c.tsv IS DISTINCT FROM excluded.tsv OR c.workspace_id IS DISTINCT FROM excluded.workspace_id;
END $$;
REVOKE ALL ON FUNCTION memorylayer_refresh_turn_contexts(text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_refresh_turn_contexts(text[]) TO memorylayer_app;
