-- Trigger memories_flag_streams (AFTER INSERT, per statement; migration 0018): sets workspaces.has_streams in
-- the writing transaction, so recall never skips the neighbour-turn work of a workspace that has a stream.
CREATE OR REPLACE FUNCTION memorylayer_flag_inserted_streams() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Only the first stream of a workspace updates (and locks) its row; afterwards the flag is already set.
    UPDATE workspaces w SET has_streams = true
    WHERE NOT w.has_streams AND w.id IN (SELECT n.workspace_id FROM inserted n WHERE n.sequence_key IS NOT NULL);
    RETURN NULL;
END $$;
GRANT EXECUTE ON FUNCTION memorylayer_flag_inserted_streams() TO memorylayer_app;
