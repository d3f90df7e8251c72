-- Trigger memories_inserted (AFTER INSERT, per statement over the transition table; migrations 0007, 0009): the
-- context events of inserted memories, two set-based INSERTs for a 1000-row batch rather than 2000 plpgsql
-- calls. No revision: a memory's first revision is written when it first changes (record_memory_revision);
-- until then the live row is its revision 1.
CREATE OR REPLACE FUNCTION record_inserted_memories() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO session_context_events (workspace_id, kind, subject_id)
    SELECT n.workspace_id,
           CASE WHEN n.deleted_at IS NOT NULL OR n.valid_to IS NOT NULL THEN 'memory_delete'
                ELSE 'memory_upsert' END,
           n.id
    FROM inserted n
    ORDER BY n.created_at, n.id;
    RETURN NULL;
END $$;
GRANT EXECUTE ON FUNCTION record_inserted_memories() TO memorylayer_app;
