-- Triggers memories_context_update and memories_context_delete (per row; migration 0003): every write path (API,
-- batch, extraction writer, import) logs its memory changes for context deltas without knowing about it.
-- Inserts are logged per statement by record_inserted_memories.
CREATE OR REPLACE FUNCTION record_memory_context_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO session_context_events (workspace_id, kind, subject_id)
        VALUES (OLD.workspace_id, 'memory_delete', OLD.id);
        RETURN OLD;
    END IF;
    INSERT INTO session_context_events (workspace_id, kind, subject_id)
    VALUES (
        NEW.workspace_id,
        -- A superseded memory leaves the current view just as a deleted one does.
        CASE WHEN NEW.deleted_at IS NOT NULL OR NEW.valid_to IS NOT NULL THEN 'memory_delete'
             ELSE 'memory_upsert' END,
        NEW.id
    );
    RETURN NEW;
END $$;
GRANT EXECUTE ON FUNCTION record_memory_context_event() TO memorylayer_app;
