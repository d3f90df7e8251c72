-- 0052: a context's name is unique within its workspace (the reference's contract; it answers a duplicate with a
-- 500, we with 409 context_name_exists). Duplicates made before this keep the oldest name as it was; the others
-- get their id appended, so nothing is lost and the unique index (built CONCURRENTLY after the files,
-- shared/db/migrate.py ensure_context_name_index) can be built.
UPDATE contexts c SET name = c.name || ' (' || c.id || ')'
WHERE EXISTS (
    SELECT 1 FROM contexts o
    WHERE o.workspace_id = c.workspace_id AND o.name = c.name AND (o.created_at, o.id) < (c.created_at, c.id)
);
