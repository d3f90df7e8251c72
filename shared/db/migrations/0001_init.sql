-- 0001: workspaces, memories, associations, revisions, idempotency records.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE workspaces (
    id              text PRIMARY KEY,
    tenant_id       text NOT NULL DEFAULT '_default',
    name            text NOT NULL,
    settings        jsonb NOT NULL DEFAULT '{}',
    tags            text[] NOT NULL DEFAULT '{}',
    -- A workspace is bound to the embedding model of its first memory: vectors of two models never mix.
    embedding_model text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE contexts (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    id           text NOT NULL,
    name         text NOT NULL,
    description  text,
    settings     jsonb NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, id)
);

CREATE TABLE memories (
    id                  text PRIMARY KEY,
    workspace_id        text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    tenant_id           text NOT NULL DEFAULT '_default',
    context_id          text NOT NULL DEFAULT '_default',
    user_id             text,
    observer_id         text,
    subject_id          text,
    session_id          text,
    content             text NOT NULL,
    content_hash        text NOT NULL,
    -- sha256 over content, tags, metadata, user and type: equal keys are the same memory (dedup).
    dedup_key           text NOT NULL,
    type                text NOT NULL,
    subtype             text,
    importance          real NOT NULL DEFAULT 0.5,
    tags                text[] NOT NULL DEFAULT '{}',
    -- Lower-cased copy of tags: filters match case-insensitively through a GIN index.
    tags_lower          text[] NOT NULL DEFAULT '{}',
    metadata            jsonb NOT NULL DEFAULT '{}',
    refinement_metadata jsonb NOT NULL DEFAULT '{}',
    logical_key         text,
    pinned              boolean NOT NULL DEFAULT false,
    status              text NOT NULL DEFAULT 'active',
    embedding           vector,
    embedding_model     text,
    tsv                 tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
    revision            integer NOT NULL DEFAULT 1,
    access_count        integer NOT NULL DEFAULT 0,
    last_accessed_at    timestamptz,
    decay_factor        real NOT NULL DEFAULT 1.0,
    source_thread_id    text,
    source_message_ids  text[] NOT NULL DEFAULT '{}',
    source_memory_id    text,
    fact_key            text,
    -- Ordered streams inside a workspace (a chat's messages): the index is assigned by the database.
    sequence_key        text,
    sequence_index      integer,
    valid_from          timestamptz NOT NULL DEFAULT now(),
    valid_to            timestamptz,
    superseded_by       text,
    event_time          timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    deleted_at          timestamptz
);

-- Live rows only: recall, list and dedup never look at deleted memories.
-- Superseded rows (valid_to set) stay as history and do not block the same fact from becoming current again.
CREATE UNIQUE INDEX memories_dedup ON memories (workspace_id, dedup_key) WHERE deleted_at IS NULL AND valid_to IS NULL;
CREATE UNIQUE INDEX memories_logical_key ON memories (workspace_id, coalesce(user_id, ''), logical_key)
    WHERE logical_key IS NOT NULL AND deleted_at IS NULL;
CREATE UNIQUE INDEX memories_sequence ON memories (workspace_id, sequence_key, sequence_index)
    WHERE sequence_key IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX memories_ws_created ON memories (workspace_id, created_at DESC) WHERE deleted_at IS NULL;
CREATE INDEX memories_tsv ON memories USING gin (tsv) WHERE deleted_at IS NULL;
CREATE INDEX memories_tags ON memories USING gin (tags_lower) WHERE deleted_at IS NULL;
CREATE INDEX memories_user ON memories (workspace_id, user_id) WHERE deleted_at IS NULL;
CREATE INDEX memories_fact_key ON memories (workspace_id, fact_key) WHERE fact_key IS NOT NULL AND valid_to IS NULL;
-- HNSW indexes are per embedding size (the column is untyped so one schema serves every model); the
-- 384-d one is here, others are created by `memorylayer migrate` for the configured size.
CREATE INDEX memories_embedding_384 ON memories USING hnsw ((embedding::vector(384)) vector_cosine_ops)
    WHERE deleted_at IS NULL AND vector_dims(embedding) = 384;

CREATE TABLE associations (
    id            text PRIMARY KEY,
    workspace_id  text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    source_id     text NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    target_id     text NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    relationship  text NOT NULL,
    strength      real NOT NULL DEFAULT 0.5,
    metadata      jsonb NOT NULL DEFAULT '{}',
    created_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (source_id, target_id, relationship)
);
CREATE INDEX associations_source ON associations (workspace_id, source_id);
CREATE INDEX associations_target ON associations (workspace_id, target_id);

CREATE TABLE memory_revisions (
    memory_id    text NOT NULL,
    workspace_id text NOT NULL,
    revision     integer NOT NULL,
    action       text NOT NULL,
    operation_id text,
    snapshot     jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (memory_id, revision)
);
CREATE INDEX memory_revisions_ws ON memory_revisions (workspace_id, memory_id);

CREATE TABLE idempotency_records (
    workspace_id  text NOT NULL,
    key           text NOT NULL,
    request_hash  text NOT NULL,
    memory_id     text,
    response      jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, key)
);

-- Every write of a memory leaves a revision, in the same transaction, without each caller remembering to.
CREATE FUNCTION record_memory_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Only writes that bump the revision are history (re-embedding or bookkeeping updates are not).
    IF TG_OP = 'UPDATE' AND NEW.revision = OLD.revision THEN
        RETURN NEW;
    END IF;
    INSERT INTO memory_revisions (memory_id, workspace_id, revision, action, operation_id, snapshot)
    VALUES (
        NEW.id, NEW.workspace_id, NEW.revision,
        CASE
            WHEN TG_OP = 'INSERT' THEN 'create'
            WHEN NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL THEN 'delete'
            WHEN NEW.deleted_at IS NULL AND OLD.deleted_at IS NOT NULL THEN 'restore'
            WHEN NEW.valid_to IS NOT NULL AND OLD.valid_to IS NULL THEN 'supersede'
            ELSE 'update'
        END,
        nullif(current_setting('memorylayer.operation_id', true), ''),
        to_jsonb(NEW) - 'embedding' - 'tsv'
    )
    ON CONFLICT (memory_id, revision) DO UPDATE SET snapshot = excluded.snapshot, action = excluded.action;
    RETURN NEW;
END $$;

CREATE TRIGGER memories_revision AFTER INSERT OR UPDATE ON memories
    FOR EACH ROW EXECUTE FUNCTION record_memory_revision();
