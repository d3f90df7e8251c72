-- Trigger memories_flag_stream_update (AFTER UPDATE OF sequence_key, workspace_id, per row; migration 0018): an
-- update that gives a memory a sequence_key flags its workspace too.
CREATE OR REPLACE FUNCTION memorylayer_flag_updated_stream() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE workspaces SET has_streams = true WHERE id = NEW.workspace_id AND NOT has_streams;
    RETURN NULL;
END $$;
GRANT EXECUTE ON FUNCTION memorylayer_flag_updated_stream() TO memorylayer_app;
