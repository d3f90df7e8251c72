-- 0020: episodic memories that restate a superseded fact's old value. When the extraction writer supersedes a
-- fact ("User lives in Paris" → "User lives in Berlin"), the user's episodes that restate the old value and do
-- not mention the new one ("User: I live in Paris"; shared/db/facts.py, mark_restatements_stale) get
-- ``stale_by``, the id of the fact that replaced it, in the same transaction. Recall ranks such a memory lower while that fact is still the live one (shared/domain/retrieval/
-- recall.sql); it is never hidden, and a question about the past ("where did Dana live before?") ranks it as
-- before. Nullable, no default, no index: recall reads it only on rows it has already found.
ALTER TABLE memories ADD COLUMN stale_by text;
