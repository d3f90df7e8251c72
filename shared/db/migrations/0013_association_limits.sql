-- 0013: association limits. Strength is a weight in [0, 1]: the API always said so, but workspace
-- import wrote whatever it was given (1e30, -5). Clamp what is stored, then let the database refuse the rest.
-- Nothing is deployed yet, so the table is small and this runs inside the migration's transaction.
UPDATE associations SET strength = least(greatest(strength, 0), 1)
WHERE NOT (strength >= 0 AND strength <= 1);  -- NaN compares above everything in Postgres: it becomes 1

ALTER TABLE associations DROP CONSTRAINT IF EXISTS associations_strength_range;
ALTER TABLE associations ADD CONSTRAINT associations_strength_range CHECK (strength >= 0 AND strength <= 1);

-- The bounded graph walk (shared/db/associations.py) takes the strongest edges of a node first and stops after
-- a fixed number: with these the database reads only that many rows per node instead of sorting all of them.
-- The (workspace_id, source_id/target_id) indexes stay: workspace deletes and listings use them.
CREATE INDEX IF NOT EXISTS associations_source_strength ON associations (source_id, strength DESC, id);
CREATE INDEX IF NOT EXISTS associations_target_strength ON associations (target_id, strength DESC, id);
