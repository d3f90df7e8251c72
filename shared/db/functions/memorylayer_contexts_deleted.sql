-- Trigger memories_contexts_deleted (AFTER DELETE, per statement; migration 0023): the context rows of the
-- deleted turns go by the foreign key, and the turn after each deleted one now follows an earlier turn, or none.
-- A deleted turn's words must not stay behind in its successor.
CREATE OR REPLACE FUNCTION memorylayer_contexts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT FROM deleted WHERE sequence_key IS NOT NULL) THEN
        PERFORM memorylayer_refresh_turn_contexts(ARRAY(
            SELECT memorylayer_next_turn(d.workspace_id, d.sequence_key, d.sequence_index)
            FROM deleted d WHERE d.sequence_key IS NOT NULL));
    END IF;
    RETURN NULL;
END $$;
GRANT EXECUTE ON FUNCTION memorylayer_contexts_deleted() TO memorylayer_app;
