-- 0003: sessions, working memory, checkpoints and the context-event log behind context deltas.

CREATE TABLE sessions (
    -- Client-supplied or sess_<32 hex>; globally unique so that X-Session-ID alone names one session.
    id           text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    tenant_id    text NOT NULL DEFAULT '_default',
    context_id   text NOT NULL DEFAULT '_default',
    user_id      text,
    metadata     jsonb NOT NULL DEFAULT '{}',
    auto_commit  boolean NOT NULL DEFAULT true,
    committed_at timestamptz,
    -- Enforced on every read: an expired session is gone even before cleanup removes it.
    expires_at   timestamptz NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_ws ON sessions (workspace_id, created_at DESC);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE working_memory (
    session_id  text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    key         text NOT NULL,
    value       jsonb NOT NULL,
    ttl_seconds integer,
    -- NULL: lives as long as the session. Otherwise enforced on read, like the session's own TTL.
    expires_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, key)
);

CREATE TABLE session_checkpoints (
    id                text PRIMARY KEY,
    workspace_id      text NOT NULL,
    session_id        text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    -- The durable copy of the segment lives on as a memory after the session is gone.
    raw_memory_id     text NOT NULL,
    source_kind       text NOT NULL,
    source_sequence   bigint,
    source_boundary   bigint,
    content_hash      text NOT NULL,
    byte_count        integer NOT NULL,
    capture_status    text NOT NULL DEFAULT 'durable',
    index_status      text NOT NULL DEFAULT 'pending',
    enrichment_status text NOT NULL DEFAULT 'skipped',
    idempotency_key   text NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (session_id, idempotency_key)
);
CREATE INDEX session_checkpoints_session ON session_checkpoints (session_id, created_at DESC);

-- What changed, in commit-ish order, for context deltas. Memory events carry no session: every session of
-- the workspace sees them (as its context pack does); working memory, checkpoint and commit events do.
-- No foreign key to workspaces: a cascading workspace delete fires the memory trigger below mid-delete.
CREATE TABLE session_context_events (
    sequence     bigserial PRIMARY KEY,
    workspace_id text NOT NULL,
    session_id   text,
    kind         text NOT NULL CHECK (kind IN ('memory_upsert', 'memory_delete', 'working_upsert',
                                               'working_delete', 'checkpoint', 'commit')),
    subject_id   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_context_events_ws ON session_context_events (workspace_id, sequence);
CREATE INDEX session_context_events_age ON session_context_events (created_at);

-- The highest sequence retention has removed, per workspace: a cursor below it may have missed events.
CREATE TABLE session_context_horizon (
    workspace_id   text PRIMARY KEY,
    purged_through bigint NOT NULL
);

-- Every write path (API, batch, extraction writer, import) logs its memory changes without knowing about it.
CREATE FUNCTION record_memory_context_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO session_context_events (workspace_id, kind, subject_id)
        VALUES (OLD.workspace_id, 'memory_delete', OLD.id);
        RETURN OLD;
    END IF;
    INSERT INTO session_context_events (workspace_id, kind, subject_id)
    VALUES (
        NEW.workspace_id,
        -- A superseded memory leaves the current view just as a deleted one does.
        CASE WHEN NEW.deleted_at IS NOT NULL OR NEW.valid_to IS NOT NULL THEN 'memory_delete'
             ELSE 'memory_upsert' END,
        NEW.id
    );
    RETURN NEW;
END $$;

CREATE TRIGGER memories_context_insert AFTER INSERT ON memories
    FOR EACH ROW EXECUTE FUNCTION record_memory_context_event();
-- Only real changes: access bookkeeping (access_count, last_accessed_at) is not news to a context.
CREATE TRIGGER memories_context_update AFTER UPDATE ON memories
    FOR EACH ROW WHEN (OLD.revision IS DISTINCT FROM NEW.revision
                       OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
                       OR OLD.valid_to IS DISTINCT FROM NEW.valid_to)
    EXECUTE FUNCTION record_memory_context_event();
CREATE TRIGGER memories_context_delete AFTER DELETE ON memories
    FOR EACH ROW EXECUTE FUNCTION record_memory_context_event();
