-- 0047: when the graph build marked in ``building`` began, and whether a build ran out of its caller's time.
-- The extraction worker asks the migrate function for a bulk build (shared/domain/indexing/indexer.py); it does
-- not ask again while a build is in flight (``building_since`` within the function's longest run: an older mark
-- is a build that died without clearing it), nor, after a build was cut off at the function's time limit
-- (``build_timed_out_at``), until a build publishes: that graph is too large for the function, so its rows move
-- row by row until the owner builds it elsewhere (``memorylayer index --bulk``, infra/README.md).
ALTER TABLE vector_index_generations ADD COLUMN building_since timestamptz;
ALTER TABLE vector_index_generations ADD COLUMN build_timed_out_at timestamptz;
