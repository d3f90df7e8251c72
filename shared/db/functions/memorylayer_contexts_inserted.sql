-- Trigger memories_contexts_inserted (AFTER INSERT, per statement: a 1000-row batch is one call; migration
-- 0023): each new turn's own context, and the context of the turn after it (a turn inserted before existing
-- ones; within one batch the refresh covers both).
CREATE OR REPLACE FUNCTION memorylayer_contexts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT FROM inserted WHERE sequence_key IS NOT NULL) THEN
        PERFORM memorylayer_refresh_turn_contexts(ARRAY(
            SELECT n.id FROM inserted n WHERE n.sequence_key IS NOT NULL
            UNION
            SELECT memorylayer_next_turn(n.workspace_id, n.sequence_key, n.sequence_index)
            FROM inserted n WHERE n.sequence_key IS NOT NULL AND n.deleted_at IS NULL));
    END IF;
    RETURN NULL;
END $$;
GRANT EXECUTE ON FUNCTION memorylayer_contexts_inserted() TO memorylayer_app;
