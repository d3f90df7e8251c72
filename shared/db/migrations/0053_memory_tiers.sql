-- 0053: a memory's extractive tiers (abstract ≤ 200 characters, overview ≤ 500), whole source sentences chosen
-- without an LLM, and the character spans each was taken from (shared/domain/memories/tiers.py). Null: none yet
-- (the setting was off, or the memory predates this; the cleanup's tier backfill fills those in).
ALTER TABLE memories
    ADD COLUMN abstract text,
    ADD COLUMN overview text,
    ADD COLUMN tier_source_spans jsonb;
-- The backfill's index (memories_tiers_pending) is built CONCURRENTLY by shared/db/migrate.py, after the files.
