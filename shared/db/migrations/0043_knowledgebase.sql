-- 0043: the knowledgebase: articles generated from a workspace's entities, relations, memories and associations
-- (shared/domain/knowledgebase/). A generation replaces the workspace's whole set in one transaction, so a reader
-- sees the previous knowledgebase or the new one, never a mix. `knowledgebases` holds the generation's summary
-- (its graph statistics and coverage); its articles hang off it and go with it, and with the workspace.
CREATE TABLE knowledgebases (
    workspace_id    text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    article_count   integer NOT NULL CHECK (article_count >= 0),
    community_count integer NOT NULL CHECK (community_count >= 0),
    stats           jsonb NOT NULL,
    coverage        jsonb NOT NULL,
    generated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE kb_articles (
    workspace_id text NOT NULL REFERENCES knowledgebases (workspace_id) ON DELETE CASCADE,
    id           text NOT NULL,
    article_type text NOT NULL CHECK (article_type IN ('index', 'community', 'entity')),
    -- The order a listing and the vault follow: the index, then communities by size, then entities.
    position     integer NOT NULL,
    title        text NOT NULL,
    content_md   text NOT NULL,
    metadata     jsonb NOT NULL DEFAULT '{}',
    generated_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, id)
);

CREATE INDEX kb_articles_order ON kb_articles (workspace_id, position);
