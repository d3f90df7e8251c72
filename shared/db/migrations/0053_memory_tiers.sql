-- 0053: a memory's extractive tiers (abstract ≤ 200 characters, overview ≤ 500), whole source sentences chosen
-- without an LLM, and the character spans each was taken from (shared/domain/memories/tiers.py). Null: none yet
-- (the setting was off, or the memory predates this; the cleanup's tier backfill fills those in).
ALTER TABLE memories
    ADD COLUMN abstract text,
    ADD COLUMN overview text,
    ADD COLUMN tier_source_spans jsonb;
-- What the backfill has left to do: rows leave this index as their tiers are written, so each sweep's batch is
-- the index's head and a sweep resumes where the last stopped (a fully backfilled table leaves it empty).
CREATE INDEX memories_tiers_pending ON memories (id) WHERE tier_source_spans IS NULL;
