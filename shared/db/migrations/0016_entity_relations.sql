-- 0016: typed entity relations. An entity registry per workspace (canonical name, kind, aliases),
-- typed directed relations between entities, and evidence rows tying each relation to the memory (and span)
-- it came from. See shared/domain/relations/ and docs/relations.md.
--
-- Evidence follows its memory, here in the database so that every path that deletes, supersedes or rewrites
-- a memory (API, batch, extraction writer, cleanup) is covered without each remembering to: an evidence row
-- is active exactly while its memory is live and still reads the excerpt it was hashed from. A relation is
-- active while it has active evidence; its confidence is the mean of that evidence's. Nothing is ever
-- duplicated on restore: relations are unique per (workspace, source, target, relationship) whether active
-- or not, and evidence per (relation, memory, kind, span, excerpt), so a rewrite reactivates the same rows.

CREATE TABLE entities (
    id                       text PRIMARY KEY,
    workspace_id             text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    entity_type              text NOT NULL CHECK (entity_type ~ '^[a-z][a-z0-9_]{0,63}$'),
    canonical_name           text NOT NULL,
    normalized_name          text NOT NULL,
    confidence               real NOT NULL DEFAULT 1.0 CHECK (confidence >= 0 AND confidence <= 1),
    provenance               jsonb NOT NULL DEFAULT '{}',
    external_ids             jsonb NOT NULL DEFAULT '{}',
    representative_memory_id text REFERENCES memories (id) ON DELETE SET NULL,
    status                   text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'merged')),
    merged_into              text REFERENCES entities (id) ON DELETE SET NULL,
    created_at               timestamptz NOT NULL DEFAULT now(),
    updated_at               timestamptz NOT NULL DEFAULT now()
);
-- One live entity per (workspace, kind, normalised name): the typed upsert's key.
CREATE UNIQUE INDEX entities_typed_name ON entities (workspace_id, entity_type, normalized_name)
    WHERE status = 'active';
-- Resolution by name of any kind (recall seeds, explicit relation endpoints).
CREATE INDEX entities_name ON entities (workspace_id, normalized_name) WHERE status = 'active';

CREATE TABLE entity_aliases (
    id               text PRIMARY KEY,
    workspace_id     text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    entity_id        text NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    alias            text NOT NULL,
    normalized_alias text NOT NULL,
    source           text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'initial', 'upsert', 'merge')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (entity_id, normalized_alias)
);
CREATE INDEX entity_aliases_name ON entity_aliases (workspace_id, normalized_alias);

CREATE TABLE entity_relations (
    id               text PRIMARY KEY,
    workspace_id     text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    source_entity_id text NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    target_entity_id text NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    relationship     text NOT NULL,
    direction        text NOT NULL DEFAULT 'outgoing',
    confidence       real NOT NULL DEFAULT 1.0,
    active           boolean NOT NULL DEFAULT true,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (source_entity_id <> target_entity_id),
    UNIQUE (workspace_id, source_entity_id, target_entity_id, relationship)
);
-- The recall arm walks one hop both ways from its seeds, over active relations only.
CREATE INDEX entity_relations_from ON entity_relations (source_entity_id, relationship) WHERE active;
CREATE INDEX entity_relations_to ON entity_relations (target_entity_id, relationship) WHERE active;

CREATE TABLE entity_relation_evidence (
    id                text PRIMARY KEY,
    workspace_id      text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    relation_id       text NOT NULL REFERENCES entity_relations (id) ON DELETE CASCADE,
    source_memory_id  text NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    evidence_kind     text NOT NULL CHECK (evidence_kind IN ('explicit', 'adapter', 'pattern', 'generated')),
    source_span_start integer CHECK (source_span_start >= 0),
    source_span_end   integer CHECK (source_span_end >= source_span_start),
    excerpt_hash      text NOT NULL,
    confidence        real NOT NULL DEFAULT 1.0 CHECK (confidence >= 0 AND confidence <= 1),
    extraction_method text NOT NULL,
    active            boolean NOT NULL DEFAULT true,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX entity_relation_evidence_key ON entity_relation_evidence
    (relation_id, source_memory_id, evidence_kind, coalesce(source_span_start, -1), coalesce(source_span_end, -1),
     excerpt_hash);
CREATE INDEX entity_relation_evidence_relation ON entity_relation_evidence (relation_id) WHERE active;
CREATE INDEX entity_relation_evidence_memory ON entity_relation_evidence (source_memory_id);

-- The hash an evidence row keeps of what it read: the span's text, or the whole content without a span
-- (shared/domain/relations/writer.py excerpt_hash computes the same in Python).
CREATE OR REPLACE FUNCTION memorylayer_excerpt_hash(content text, span_start integer, span_end integer)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT encode(sha256(convert_to(
        CASE WHEN span_start IS NULL OR span_end IS NULL THEN content
             ELSE substr(content, span_start + 1, span_end - span_start) END, 'UTF8')), 'hex')
$$;

-- A relation is active while some evidence is; its confidence is the mean of the active evidence's (the last
-- one is kept when none is left, for history). Only the given relations are touched, never the workspace.
-- plpgsql, not sql: the trigger below calls it once per changed memory, and plpgsql keeps its plan.
CREATE OR REPLACE FUNCTION memorylayer_refresh_relations(relation_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE entity_relations r
    SET active = s.n > 0, confidence = coalesce(s.mean, r.confidence), updated_at = now()
    FROM (
        SELECT r2.id, count(e.id) AS n, avg(e.confidence) AS mean
        FROM entity_relations r2
        LEFT JOIN entity_relation_evidence e ON e.relation_id = r2.id AND e.active
        WHERE r2.id = ANY (relation_ids)
        GROUP BY r2.id
    ) s
    WHERE r.id = s.id AND (r.active IS DISTINCT FROM (s.n > 0) OR r.confidence IS DISTINCT FROM coalesce(s.mean, r.confidence)::real);
END
$$;

CREATE OR REPLACE FUNCTION memorylayer_evidence_follows_memory() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    touched text[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        -- Hard delete: the evidence rows go with the memory (FK cascade); their relations are refreshed now.
        WITH gone AS (
            UPDATE entity_relation_evidence SET active = false
            WHERE source_memory_id = OLD.id AND active
            RETURNING relation_id
        )
        SELECT array_agg(DISTINCT relation_id) INTO touched FROM gone;
        IF touched IS NOT NULL THEN
            PERFORM memorylayer_refresh_relations(touched);
        END IF;
        RETURN OLD;
    END IF;
    IF NEW.deleted_at IS NOT NULL OR NEW.valid_to IS NOT NULL THEN
        WITH changed AS (
            UPDATE entity_relation_evidence SET active = false
            WHERE source_memory_id = NEW.id AND active
            RETURNING relation_id
        )
        SELECT array_agg(DISTINCT relation_id) INTO touched FROM changed;
    ELSE
        -- Live (again, or with new content): active exactly where the excerpt still reads the same.
        WITH changed AS (
            UPDATE entity_relation_evidence e
            SET active = (e.excerpt_hash = memorylayer_excerpt_hash(NEW.content, e.source_span_start, e.source_span_end))
            WHERE e.source_memory_id = NEW.id
              AND e.active IS DISTINCT FROM
                  (e.excerpt_hash = memorylayer_excerpt_hash(NEW.content, e.source_span_start, e.source_span_end))
            RETURNING e.relation_id
        )
        SELECT array_agg(DISTINCT relation_id) INTO touched FROM changed;
    END IF;
    IF touched IS NOT NULL THEN
        PERFORM memorylayer_refresh_relations(touched);
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER memories_relation_evidence_update
    AFTER UPDATE OF content, deleted_at, valid_to ON memories
    FOR EACH ROW
    WHEN (OLD.content IS DISTINCT FROM NEW.content
          OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
          OR OLD.valid_to IS DISTINCT FROM NEW.valid_to)
    EXECUTE FUNCTION memorylayer_evidence_follows_memory();

CREATE TRIGGER memories_relation_evidence_delete
    BEFORE DELETE ON memories
    FOR EACH ROW
    EXECUTE FUNCTION memorylayer_evidence_follows_memory();

GRANT EXECUTE ON FUNCTION memorylayer_excerpt_hash(text, integer, integer) TO memorylayer_app;
GRANT EXECUTE ON FUNCTION memorylayer_refresh_relations(text[]) TO memorylayer_app;
GRANT EXECUTE ON FUNCTION memorylayer_evidence_follows_memory() TO memorylayer_app;

-- The wall of migration 0015, on the new tables.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['entities', 'entity_aliases', 'entity_relations', 'entity_relation_evidence']
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format(
            'CREATE POLICY workspace_wall ON %I TO memorylayer_app '
            'USING ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[])) '
            'WITH CHECK ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]))',
            t
        );
    END LOOP;
END $$;
