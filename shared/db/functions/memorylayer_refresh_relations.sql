-- A relation is active while some evidence is; its confidence is the mean of the active evidence's (the last
-- one is kept when none is left, for history; migration 0016). Only the given relations are touched, never the
-- workspace. plpgsql, not sql: memorylayer_evidence_follows_memory calls it once per changed memory, and plpgsql
-- keeps its plan.
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
GRANT EXECUTE ON FUNCTION memorylayer_refresh_relations(text[]) TO memorylayer_app;
