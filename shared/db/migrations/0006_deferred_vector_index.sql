-- 0006: bulk writes join the HNSW index after they are acknowledged.
-- Inserting into an HNSW graph costs about a millisecond a row here, which caps bulk ingest near 1,000
-- memories/s. Batch writes now land with vector_indexed = false: recall finds them by an exact scan of the
-- (small) pending tail of the workspace, and the indexer flips them into the graph in the background.
ALTER TABLE memories ADD COLUMN vector_indexed boolean NOT NULL DEFAULT true;

DROP INDEX memories_embedding_384;
CREATE INDEX memories_embedding_384 ON memories USING hnsw ((embedding::vector(384)) vector_cosine_ops)
    WHERE deleted_at IS NULL AND vector_dims(embedding) = 384 AND vector_indexed;

CREATE INDEX memories_vector_pending ON memories (workspace_id, created_at)
    WHERE NOT vector_indexed AND deleted_at IS NULL;

-- Bulk loads change the table's shape quickly; plans built on stale statistics skip the HNSW index and get
-- several times slower. Analyse early (the indexer also analyses after moving a large batch).
ALTER TABLE memories SET (autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 500);
