-- Triggers memories_relation_evidence_update and _delete (migration 0016): evidence follows its memory, in the
-- database, so that every path that deletes, supersedes or rewrites a memory (API, batch, extraction writer,
-- cleanup) is covered without each remembering to. An evidence row is active exactly while its memory is live
-- and still reads the excerpt it was hashed from; its relations are refreshed (memorylayer_refresh_relations).
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
GRANT EXECUTE ON FUNCTION memorylayer_evidence_follows_memory() TO memorylayer_app;
