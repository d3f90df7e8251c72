-- 0024: the extraction writer carries stale marks forward when a fact is superseded again (Paris, then Berlin,
-- now Madrid: the turns that restate Paris were marked by the Berlin fact and are now marked by Madrid's). That
-- looks rows up by stale_by; few rows carry one, so a partial index keeps the lookup off the workspace's rows.
CREATE INDEX IF NOT EXISTS memories_stale_by ON memories (workspace_id, stale_by) WHERE stale_by IS NOT NULL;
