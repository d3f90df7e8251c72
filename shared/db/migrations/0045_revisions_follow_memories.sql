-- 0045: a memory's revisions go with it. They had no foreign key, so deleting a workspace (or a memory through a
-- path that did not delete them by hand) left its edit history behind: text the user had deleted, and ids that
-- an export's restore could not keep. The orphans go now; the key keeps it so.
DELETE FROM memory_revisions r WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = r.memory_id);

ALTER TABLE memory_revisions
    ADD CONSTRAINT memory_revisions_memory_id_fkey FOREIGN KEY (memory_id) REFERENCES memories (id) ON DELETE CASCADE;
