-- migration: contract — reshapes the keys of sessions and threads, which the previous code's ON CONFLICT targets
-- name. Allowed as one step only because no database had been deployed yet (it was written before the first deploy).
--
-- 0012: session and thread ids are unique per workspace, not across every tenant. Both are client-chosen: with
-- one global namespace, creating an id another tenant holds answered 409 "already exists" (an oracle), and an
-- expired session's id could be taken by another workspace, locking its owner out. Now the key of a session or
-- a thread is (workspace_id, id), and every table that points at one carries the workspace in its foreign key,
-- so a row can only ever hang off the session or thread of its own workspace.
-- Ids the server mints (checkpoints chk_…, messages msg_…, jobs job_…) stay globally unique primary keys.

-- ------------------------------------------------------------------ sessions
ALTER TABLE working_memory DROP CONSTRAINT working_memory_session_id_fkey;
ALTER TABLE session_checkpoints DROP CONSTRAINT session_checkpoints_session_id_fkey;
ALTER TABLE sessions DROP CONSTRAINT sessions_pkey;
ALTER TABLE sessions ADD CONSTRAINT sessions_pkey PRIMARY KEY (workspace_id, id);
-- Auth off with no workspace named looks a session up by id alone (the reference's global lookup).
CREATE INDEX sessions_id ON sessions (id);

-- Working memory had no workspace of its own: it took it from the session row. Backfilled while session ids
-- are still unique (this file runs in one transaction), then part of the key.
ALTER TABLE working_memory ADD COLUMN workspace_id text;
UPDATE working_memory w SET workspace_id = s.workspace_id FROM sessions s WHERE s.id = w.session_id;
DELETE FROM working_memory WHERE workspace_id IS NULL;  -- orphans cannot exist under the old FK; be sure
ALTER TABLE working_memory ALTER COLUMN workspace_id SET NOT NULL;
ALTER TABLE working_memory DROP CONSTRAINT working_memory_pkey;
ALTER TABLE working_memory ADD CONSTRAINT working_memory_pkey PRIMARY KEY (workspace_id, session_id, key);
ALTER TABLE working_memory ADD CONSTRAINT working_memory_session_fkey
    FOREIGN KEY (workspace_id, session_id) REFERENCES sessions (workspace_id, id) ON DELETE CASCADE;
-- Cleanup drops expired keys across workspaces.
CREATE INDEX working_memory_expires ON working_memory (expires_at) WHERE expires_at IS NOT NULL;

ALTER TABLE session_checkpoints DROP CONSTRAINT session_checkpoints_session_id_idempotency_key_key;
ALTER TABLE session_checkpoints ADD CONSTRAINT session_checkpoints_idempotency_key
    UNIQUE (workspace_id, session_id, idempotency_key);
ALTER TABLE session_checkpoints ADD CONSTRAINT session_checkpoints_session_fkey
    FOREIGN KEY (workspace_id, session_id) REFERENCES sessions (workspace_id, id) ON DELETE CASCADE;
DROP INDEX session_checkpoints_session;
CREATE INDEX session_checkpoints_session ON session_checkpoints (workspace_id, session_id, created_at DESC);

-- session_context_events already carries workspace_id (every read filters on it) and has no foreign key to
-- sessions on purpose: a session's events outlive it until retention. session_context_horizon is keyed by
-- workspace alone. Neither needs reshaping.

-- ------------------------------------------------------------------ threads
ALTER TABLE thread_messages DROP CONSTRAINT thread_messages_thread_id_fkey;
ALTER TABLE threads DROP CONSTRAINT threads_pkey;
ALTER TABLE threads ADD CONSTRAINT threads_pkey PRIMARY KEY (workspace_id, id);

ALTER TABLE thread_messages ADD CONSTRAINT thread_messages_thread_fkey
    FOREIGN KEY (workspace_id, thread_id) REFERENCES threads (workspace_id, id) ON DELETE CASCADE;
ALTER TABLE thread_messages DROP CONSTRAINT thread_messages_thread_id_message_index_key;
ALTER TABLE thread_messages ADD CONSTRAINT thread_messages_thread_index
    UNIQUE (workspace_id, thread_id, message_index);
DROP INDEX thread_messages_client_id;
CREATE UNIQUE INDEX thread_messages_client_id ON thread_messages (workspace_id, thread_id, client_message_id)
    WHERE client_message_id IS NOT NULL;

-- extraction_jobs keeps no foreign key to threads (a job's record outlives a deleted thread, and the worker
-- reports the thread gone); it already names its workspace, and the worker reads and updates the thread by
-- (workspace_id, thread_id).
