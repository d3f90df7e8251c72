-- 0032: the document pipeline (docs/documents.md). An upload is a document row, its bytes in the document store
-- (S3; `storage_key`), and an ingestion job; the document function parses it into pages, chunks the pages and
-- writes each chunk as a memory whose metadata names the document, the page and the span. A second upload of
-- the same bytes (same `content_hash` in a workspace) is the same document: the unique index makes that so.
CREATE TABLE documents (
    id                      text PRIMARY KEY,
    workspace_id            text NOT NULL,
    filename                text NOT NULL,
    document_type           text NOT NULL,
    content_hash            text NOT NULL,
    size_bytes              bigint NOT NULL CHECK (size_bytes >= 0),
    mime_type               text,
    storage_key             text NOT NULL,
    status                  text NOT NULL DEFAULT 'pending',
    target_context_id       text NOT NULL DEFAULT '_default',
    extraction_options      jsonb NOT NULL DEFAULT '{}'::jsonb,
    page_count              integer NOT NULL DEFAULT 0,
    chunk_count             integer NOT NULL DEFAULT 0,
    memory_ids              text[] NOT NULL DEFAULT '{}',  -- what the last run derived (its memories' ids)
    deduplicated_count      integer NOT NULL DEFAULT 0,
    error_message           text,
    metadata                jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at              timestamptz NOT NULL DEFAULT now(),
    processing_started_at   timestamptz,
    processing_completed_at timestamptz
);
CREATE UNIQUE INDEX documents_workspace_hash ON documents (workspace_id, content_hash);
CREATE INDEX documents_workspace_created ON documents (workspace_id, created_at DESC);

-- One row a page; the page's text embedding is what POST /v1/documents/search ranks (one vector a page).
CREATE TABLE document_pages (
    id              text PRIMARY KEY,
    document_id     text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    workspace_id    text NOT NULL,
    page_no         integer NOT NULL CHECK (page_no >= 0),
    transcript      text NOT NULL,
    transcript_model text,
    embedding       vector,
    metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (document_id, page_no)
);
CREATE INDEX document_pages_workspace ON document_pages (workspace_id, document_id);

CREATE TABLE document_jobs (
    id                     text PRIMARY KEY,
    workspace_id           text NOT NULL,
    document_ids           text[] NOT NULL,
    status                 text NOT NULL DEFAULT 'queued',
    progress_percent       integer NOT NULL DEFAULT 0,
    documents_processed    integer NOT NULL DEFAULT 0,
    total_memories_created integer NOT NULL DEFAULT 0,
    attempts               integer NOT NULL DEFAULT 0,
    errors                 jsonb NOT NULL DEFAULT '[]'::jsonb,
    metadata               jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at             timestamptz NOT NULL DEFAULT now(),
    started_at             timestamptz,
    completed_at           timestamptz
);
CREATE INDEX document_jobs_workspace_created ON document_jobs (workspace_id, created_at DESC);

-- The same wall as every tenant table (migration 0015; shared/db/functions/workspace_wall.sql keeps it).
ALTER TABLE documents ENABLE ROW LEVEL SECURITY;
ALTER TABLE document_pages ENABLE ROW LEVEL SECURITY;
ALTER TABLE document_jobs ENABLE ROW LEVEL SECURITY;
