-- 0036: a skill's bundle files (scripts/, references/, assets/, anything else), beside its versioned manifest in
-- `resources` (kind 'skill'). Files are a skill's child resources, not part of its revisions (as the reference's:
-- an asset upload does not invalidate a concurrent manifest edit's ETag); they survive a tombstone, so a
-- restore brings the skill back whole. One row per (workspace, skill, path); content inline (bytea).
CREATE TABLE skill_files (
    workspace_id  text NOT NULL,
    skill_kind    text NOT NULL DEFAULT 'skill' CHECK (skill_kind = 'skill'),
    skill_id      text NOT NULL,
    path          text NOT NULL,
    kind          text NOT NULL CHECK (kind IN ('script', 'reference', 'asset', 'other')),
    content       bytea NOT NULL,
    content_hash  text NOT NULL,
    size_bytes    integer NOT NULL CHECK (size_bytes >= 0),
    mime_type     text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, skill_id, path),
    FOREIGN KEY (workspace_id, skill_kind, skill_id) REFERENCES resources (workspace_id, kind, id) ON DELETE CASCADE
);
