-- Trigger memories_contexts_updated (AFTER UPDATE, per row; migration 0023): updates that change what a context
-- holds: the content (an edit, a redaction), deletion or restoring (soft deletes are updates), or a turn's
-- place. Refreshes the turn itself and the turns after its old and new places. Only memory_contexts is written:
-- the memory rows, their revision and their history are untouched.
CREATE OR REPLACE FUNCTION memorylayer_contexts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memorylayer_refresh_turn_contexts(ARRAY[
        NEW.id,
        CASE WHEN OLD.sequence_key IS NOT NULL
             THEN memorylayer_next_turn(OLD.workspace_id, OLD.sequence_key, OLD.sequence_index) END,
        CASE WHEN NEW.sequence_key IS NOT NULL
             THEN memorylayer_next_turn(NEW.workspace_id, NEW.sequence_key, NEW.sequence_index) END]);
    RETURN NULL;
END $$;
GRANT EXECUTE ON FUNCTION memorylayer_contexts_updated() TO memorylayer_app;
