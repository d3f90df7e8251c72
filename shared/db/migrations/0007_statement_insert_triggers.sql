-- 0007: the INSERT side of the revision and context-event triggers runs once per statement, over the
-- transition table, instead of once per row: a 1000-row bulk insert pays for two set-based INSERTs, not 2000
-- plpgsql calls. Updates and deletes keep their row-level triggers (they come one row at a time).
DROP TRIGGER memories_revision ON memories;
CREATE TRIGGER memories_revision AFTER UPDATE ON memories
    FOR EACH ROW EXECUTE FUNCTION record_memory_revision();

CREATE FUNCTION record_inserted_memories() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_revisions (memory_id, workspace_id, revision, action, operation_id, snapshot)
    SELECT n.id, n.workspace_id, n.revision, 'create',
           nullif(current_setting('memorylayer.operation_id', true), ''),
           to_jsonb(n) - 'embedding' - 'tsv'
    FROM inserted n
    ON CONFLICT (memory_id, revision) DO NOTHING;
    INSERT INTO session_context_events (workspace_id, kind, subject_id)
    SELECT n.workspace_id,
           CASE WHEN n.deleted_at IS NOT NULL OR n.valid_to IS NOT NULL THEN 'memory_delete'
                ELSE 'memory_upsert' END,
           n.id
    FROM inserted n
    ORDER BY n.created_at, n.id;
    RETURN NULL;
END $$;

DROP TRIGGER memories_context_insert ON memories;
CREATE TRIGGER memories_inserted AFTER INSERT ON memories
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION record_inserted_memories();
