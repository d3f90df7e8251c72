-- 0046: btree_gin, so that a GIN index can hold a workspace id beside the words: recall's text lookups ask one
-- workspace at a time (memorylayer_text_rows, memorylayer_text_matches), and `memories_tsv` alone makes each word
-- visit its matches in every workspace of the table. The index itself, `memories_ws_tsv (workspace_id, tsv)`, is
-- built CONCURRENTLY after the migrations (shared/db/migrate.py, ensure_workspace_text_index): a build on a
-- populated table may not run in a migration's transaction. btree_gin is a trusted extension (PostgreSQL 13+) on
-- Aurora's list: on AWS the owner, the master user (rds_superuser), creates it here; locally the superuser's
-- bootstrap has created it already (shared/local/postgres.py, as `vector`), and this is a no-op.
CREATE EXTENSION IF NOT EXISTS btree_gin;
