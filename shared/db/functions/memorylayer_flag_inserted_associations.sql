-- Trigger associations_flag (AFTER INSERT, per statement; migration 0018): sets workspaces.has_associations in
-- the writing transaction, so recall never skips the expansion round trip of a workspace that has associations.
CREATE OR REPLACE FUNCTION memorylayer_flag_inserted_associations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE workspaces w SET has_associations = true
    WHERE NOT w.has_associations AND w.id IN (SELECT n.workspace_id FROM inserted n);
    RETURN NULL;
END $$;
GRANT EXECUTE ON FUNCTION memorylayer_flag_inserted_associations() TO memorylayer_app;
