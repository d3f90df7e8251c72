-- 0018: what a workspace holds that recall would otherwise look for on every request. ``has_streams``: some
-- memory of it has ever had a sequence_key (recall's neighbour-turn CTEs find nothing without one);
-- ``has_associations``: some association was ever made in it (the expansion round trip finds nothing without
-- one). Triggers set them in the writing transaction itself, so a reader never sees a stream or an association
-- its flag denies: no cache to expire, nothing stale. They are never cleared (a deleted stream leaves the flag
-- set: recall then does the work and finds nothing, as before).
ALTER TABLE workspaces ADD COLUMN has_streams boolean NOT NULL DEFAULT false;
ALTER TABLE workspaces ADD COLUMN has_associations boolean NOT NULL DEFAULT false;

CREATE FUNCTION memorylayer_flag_inserted_streams() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Only the first stream of a workspace updates (and locks) its row; afterwards the flag is already set.
    UPDATE workspaces w SET has_streams = true
    WHERE NOT w.has_streams AND w.id IN (SELECT n.workspace_id FROM inserted n WHERE n.sequence_key IS NOT NULL);
    RETURN NULL;
END $$;

CREATE FUNCTION memorylayer_flag_updated_stream() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE workspaces SET has_streams = true WHERE id = NEW.workspace_id AND NOT has_streams;
    RETURN NULL;
END $$;

CREATE FUNCTION memorylayer_flag_inserted_associations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE workspaces w SET has_associations = true
    WHERE NOT w.has_associations AND w.id IN (SELECT n.workspace_id FROM inserted n);
    RETURN NULL;
END $$;

CREATE TRIGGER memories_flag_streams AFTER INSERT ON memories
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION memorylayer_flag_inserted_streams();
-- A transition table cannot go with a column list: updates stay row-level, and fire only when they set a key.
CREATE TRIGGER memories_flag_stream_update AFTER UPDATE OF sequence_key, workspace_id ON memories
    FOR EACH ROW WHEN (NEW.sequence_key IS NOT NULL)
    EXECUTE FUNCTION memorylayer_flag_updated_stream();
CREATE TRIGGER associations_flag AFTER INSERT ON associations
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION memorylayer_flag_inserted_associations();

-- The triggers above hold their tables' locks from here to COMMIT: no write slips between them and this.
UPDATE workspaces w
SET has_streams = EXISTS (SELECT FROM memories m WHERE m.workspace_id = w.id AND m.sequence_key IS NOT NULL),
    has_associations = EXISTS (SELECT FROM associations a WHERE a.workspace_id = w.id);
