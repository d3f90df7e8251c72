-- 0031: versioned resources: typed documents (prompt notes, agent specifications, refinement records, and the
-- procedural resources after them) with a revision history, optimistic concurrency and idempotent writes
-- (shared/domain/resources/).
--
-- One head per (workspace, kind, id), its `key` unique in its kind; `kind` names the family and may carry a
-- parent (e.g. the observations of one workspace view). Every accepted write appends a revision: the head's
-- state after it, the action, the client's Idempotency-Key (`operation_id`, unique per workspace and kind: a
-- retry finds its revision) and the request's hash (the same key with another request is a conflict). A delete
-- is a tombstone (`deleted_at`), which `restore` clears. `sequence` orders every change of the database: lists
-- are newest change first and page by it.
CREATE SEQUENCE resource_sequence;

CREATE TABLE resources (
    workspace_id   text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind           text NOT NULL,
    id             text NOT NULL,
    key            text NOT NULL,
    tenant_id      text NOT NULL,
    schema_version integer NOT NULL CHECK (schema_version >= 1),
    content        jsonb NOT NULL,
    metadata       jsonb NOT NULL DEFAULT '{}',
    revision       integer NOT NULL CHECK (revision >= 1),
    sequence       bigint NOT NULL,
    etag           text NOT NULL,
    created_by     text,
    updated_by     text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    deleted_at     timestamptz,
    PRIMARY KEY (workspace_id, kind, id),
    UNIQUE (workspace_id, kind, key)
);

CREATE INDEX resources_changed ON resources (workspace_id, kind, sequence DESC);

CREATE TABLE resource_revisions (
    workspace_id   text NOT NULL,
    kind           text NOT NULL,
    id             text NOT NULL,
    revision       integer NOT NULL CHECK (revision >= 1),
    sequence       bigint NOT NULL,
    key            text NOT NULL,
    tenant_id      text NOT NULL,
    schema_version integer NOT NULL,
    content        jsonb NOT NULL,
    metadata       jsonb NOT NULL,
    etag           text NOT NULL,
    created_by     text,
    updated_by     text,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    deleted_at     timestamptz,
    action         text NOT NULL CHECK (action IN ('create', 'replace', 'delete', 'restore')),
    operation_id   text NOT NULL,
    request_hash   text NOT NULL,
    PRIMARY KEY (workspace_id, kind, id, revision),
    UNIQUE (workspace_id, kind, operation_id),
    FOREIGN KEY (workspace_id, kind, id) REFERENCES resources (workspace_id, kind, id) ON DELETE CASCADE
);

CREATE INDEX resource_revisions_changed ON resource_revisions (workspace_id, kind, id, sequence DESC);
