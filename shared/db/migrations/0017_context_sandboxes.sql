-- 0017: the context environment's per-session sandboxes (docs/context-environment.md).
--
-- One row per session that has a sandbox. `state` is opaque to the API: a zlib-compressed pickle written and
-- read only by the isolated executor (shared/domain/context_env/executor.py); the API stores and returns the bytes and never
-- unpickles them. `variables` is the executor's JSON summary ({name: {type, preview, size_bytes}}), which
-- /status, /inspect and the context pack's sandbox_summary read without running anything.
--
-- The row hangs off its session by (workspace_id, session_id): deleting the session deletes the sandbox, and
-- session cleanup (which deletes expired sessions) frees it the same way. `key_id` binds it to the API key that
-- created it: another key of the same workspace is refused (shared/domain/context_env/service.py).
CREATE TABLE context_sandboxes (
    workspace_id    text NOT NULL,
    session_id      text NOT NULL,
    key_id          text NOT NULL,
    state           bytea,
    state_bytes     integer NOT NULL DEFAULT 0 CHECK (state_bytes >= 0),
    variables       jsonb NOT NULL DEFAULT '{}',
    exec_count      integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    last_exec_at    timestamptz,
    checkpointed_at timestamptz,
    PRIMARY KEY (workspace_id, session_id),
    FOREIGN KEY (workspace_id, session_id) REFERENCES sessions (workspace_id, id) ON DELETE CASCADE
);

-- The same wall as every tenant table (migration 0015).
ALTER TABLE context_sandboxes ENABLE ROW LEVEL SECURITY;
CREATE POLICY workspace_wall ON context_sandboxes TO memorylayer_app
    USING ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]))
    WITH CHECK ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]));

-- /checkpoint emits a `sandbox_checkpoint` context event (the reference declares the kind and never emits it).
-- Widening the CHECK is expand-safe: the running code writes none of the new kind.
ALTER TABLE session_context_events DROP CONSTRAINT IF EXISTS session_context_events_kind_check;
ALTER TABLE session_context_events ADD CONSTRAINT session_context_events_kind_check
    CHECK (kind IN ('memory_upsert', 'memory_delete', 'working_upsert', 'working_delete', 'checkpoint', 'commit',
                    'sandbox_checkpoint'));
