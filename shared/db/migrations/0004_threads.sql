-- 0004: conversation threads, their messages (indexed by the database) and extraction jobs.
CREATE TABLE threads (
    id                    text PRIMARY KEY,
    workspace_id          text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    tenant_id             text NOT NULL DEFAULT '_default',
    user_id               text,
    context_id            text NOT NULL DEFAULT '_default',
    observer_id           text,
    subject_id            text,
    title                 text,
    metadata              jsonb NOT NULL DEFAULT '{}',
    scope                 text,
    ownership             text NOT NULL DEFAULT 'user',
    parent_thread         text,
    -- The next message_index: taken under the row lock, so concurrent appends get distinct, gapless indexes.
    message_count         integer NOT NULL DEFAULT 0,
    last_decomposed_at    timestamptz,
    last_decomposed_index integer NOT NULL DEFAULT 0,
    summary               text,
    expires_at            timestamptz,
    idle_action           text,
    hidden_at             timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX threads_ws ON threads (workspace_id, created_at DESC);

CREATE TABLE thread_messages (
    id                text PRIMARY KEY,
    thread_id         text NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    workspace_id      text NOT NULL,
    message_index     integer NOT NULL,
    role              text NOT NULL,
    content           jsonb NOT NULL,
    metadata          jsonb NOT NULL DEFAULT '{}',
    -- The client's own id for the message: appending it twice stores it once.
    client_message_id text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (thread_id, message_index)
);
CREATE UNIQUE INDEX thread_messages_client_id ON thread_messages (thread_id, client_message_id)
    WHERE client_message_id IS NOT NULL;

CREATE TABLE extraction_jobs (
    id           text PRIMARY KEY,
    workspace_id text NOT NULL,
    thread_id    text NOT NULL,
    from_index   integer NOT NULL,
    to_index     integer NOT NULL,
    status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    attempts     integer NOT NULL DEFAULT 0,
    error        text,
    result       jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    started_at   timestamptz,
    finished_at  timestamptz
);
CREATE INDEX extraction_jobs_ws ON extraction_jobs (workspace_id, created_at DESC);
