-- Trigger memories_revision (AFTER UPDATE, per row, when the revision changes; migrations 0001, 0009): every
-- write of a memory leaves a revision, in the same transaction, without each caller remembering to. Its first
-- revision (the creation) is kept when it is first replaced.
CREATE OR REPLACE FUNCTION record_memory_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Only writes that bump the revision are history (re-embedding or bookkeeping updates are not).
    IF NEW.revision = OLD.revision THEN
        RETURN NEW;
    END IF;
    -- The state being replaced is the creation: keep it before it is gone.
    IF OLD.revision = 1 THEN
        INSERT INTO memory_revisions (memory_id, workspace_id, revision, action, snapshot, created_at)
        VALUES (OLD.id, OLD.workspace_id, 1, 'create', to_jsonb(OLD) - 'embedding' - 'tsv', OLD.created_at)
        ON CONFLICT (memory_id, revision) DO NOTHING;
    END IF;
    INSERT INTO memory_revisions (memory_id, workspace_id, revision, action, operation_id, snapshot)
    VALUES (
        NEW.id, NEW.workspace_id, NEW.revision,
        -- A write may name its action (a semantic replace: memorylayer.revision_action), else it is read off the row.
        coalesce(nullif(current_setting('memorylayer.revision_action', true), ''), CASE
            WHEN NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL THEN 'delete'
            WHEN NEW.deleted_at IS NULL AND OLD.deleted_at IS NOT NULL THEN 'restore'
            WHEN NEW.valid_to IS NOT NULL AND OLD.valid_to IS NULL THEN 'supersede'
            -- The reference's name for a plain update (its revisions are create, replace, delete, restore).
            ELSE 'replace'
        END),
        nullif(current_setting('memorylayer.operation_id', true), ''),
        to_jsonb(NEW) - 'embedding' - 'tsv'
    )
    ON CONFLICT (memory_id, revision) DO UPDATE SET snapshot = excluded.snapshot, action = excluded.action;
    RETURN NEW;
END $$;
GRANT EXECUTE ON FUNCTION record_memory_revision() TO memorylayer_app;
