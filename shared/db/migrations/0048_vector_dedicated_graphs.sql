-- 0048: a graph of its own for each large workspace (shared/db/vector_index.py). A walk of the table-wide HNSW
-- graph filtered to one workspace visits about 1/share of the graph to find its neighbours; a workspace holding
-- at least vector_index.DEDICATED_MIN_ROWS rows also gets a partial HNSW index of the generation's graph over its
-- rows alone (memories_embedding_<dims>_g<G>_w<8 hex>, built CONCURRENTLY by the owner). One row per such graph,
-- so recall knows cheaply whether the one workspace it searches has one at the generation it uses; dropped with
-- its generation. Results never depend on it: recall's two arms partition the rows by G either way.
CREATE TABLE vector_dedicated_graphs (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    dims         integer NOT NULL,
    generation   bigint NOT NULL,
    index_name   text NOT NULL,
    built_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, dims, generation)
);
-- The app reads its own workspaces' rows (the workspace wall, shared/db/functions/workspace_wall.sql); only the
-- owner, who builds the graphs, writes.
REVOKE ALL ON vector_dedicated_graphs FROM memorylayer_app;
GRANT SELECT ON vector_dedicated_graphs TO memorylayer_app;
