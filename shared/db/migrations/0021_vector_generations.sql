-- 0021: the HNSW graph is built in bulk for a large pending set, by generations (shared/db/vector_index.py).
-- Moving a bulk-written row into the graph by an UPDATE inserts it there (and, non-HOT, into every other index
-- of the row), one row at a time, so a large import waits long in the exactly scanned tail; a CREATE INDEX
-- builds the graph several times faster (BENCHMARKS.md, the 1M section). So each row carries the generation it
-- joins the graph with, and the graph of generation G is an index over ``vector_gen <= G``
-- (memories_embedding_<dims>_g<G>). Rows written one
-- at a time get 0 (in the graph at once); bulk writes get the generation after the one published or building
-- (pending). Recall partitions by the G it reads from vector_index_generations: ``<= G`` walks that graph,
-- ``> G`` is scanned exactly, so any G gives exact, complete results; only the speed needs G's index. The owner
-- builds generation G+1 concurrently, publishes it here, then drops G's index.
ALTER TABLE memories ADD COLUMN vector_gen bigint NOT NULL DEFAULT 0;

-- One row per embedding size: the generation recall uses, and the one being built (NULL: none).
CREATE TABLE vector_index_generations (
    dims integer PRIMARY KEY,
    published bigint NOT NULL DEFAULT 0,
    building bigint,
    published_at timestamptz NOT NULL DEFAULT now()
);
-- The app reads it; only the owner (who builds the graphs) changes it.
REVOKE ALL ON vector_index_generations FROM memorylayer_app;
GRANT SELECT ON vector_index_generations TO memorylayer_app;

-- Rows that 0006's indexer had not moved yet stay pending (after generation 0); the new graph and the pending
-- lookup index are built concurrently by ensure_vector_index (shared/db/migrate.py), not here.
UPDATE memories SET vector_gen = 1 WHERE NOT vector_indexed AND deleted_at IS NULL;
