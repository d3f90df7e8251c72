-- 0041: contradictions between two memories of a workspace (/v1/workspaces/{id}/contradictions, resolve). The
-- deterministic scan (shared/domain/contradictions/) records each pair once, whichever way round, so a rescan adds
-- only new pairs and a pair once resolved is not raised again. Resolving keeps one memory and supersedes the other
-- (valid_to, superseded_by: its history stays), or keeps both; a memory's hard delete takes its rows with it.
CREATE TABLE contradictions (
    id                 text PRIMARY KEY,
    workspace_id       text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    memory_a_id        text NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    memory_b_id        text NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    contradiction_type text NOT NULL,
    confidence         real NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    detection_method   text NOT NULL,
    newer_memory_id    text,
    detected_at        timestamptz NOT NULL DEFAULT now(),
    resolved_at        timestamptz,
    resolution         text CHECK (resolution IN ('keep_a', 'keep_b', 'keep_both', 'merge')),
    merged_content     text,
    CHECK (memory_a_id <> memory_b_id),
    CHECK ((resolved_at IS NULL) = (resolution IS NULL))
);
CREATE UNIQUE INDEX contradictions_pair
    ON contradictions (workspace_id, least(memory_a_id, memory_b_id), greatest(memory_a_id, memory_b_id));
CREATE INDEX contradictions_open ON contradictions (workspace_id, detected_at DESC, id) WHERE resolved_at IS NULL;
-- The foreign keys' cascades look rows up by either memory.
CREATE INDEX contradictions_memory_a ON contradictions (memory_a_id);
CREATE INDEX contradictions_memory_b ON contradictions (memory_b_id);
