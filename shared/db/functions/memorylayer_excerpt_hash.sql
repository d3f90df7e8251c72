-- The hash an evidence row keeps of what it read (migration 0016): the span's text, or the whole content
-- without a span (shared/domain/relations/writer.py excerpt_hash computes the same in Python).
CREATE OR REPLACE FUNCTION memorylayer_excerpt_hash(content text, span_start integer, span_end integer)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT encode(sha256(convert_to(
        CASE WHEN span_start IS NULL OR span_end IS NULL THEN content
             ELSE substr(content, span_start + 1, span_end - span_start) END, 'UTF8')), 'hex')
$$;
GRANT EXECUTE ON FUNCTION memorylayer_excerpt_hash(text, integer, integer) TO memorylayer_app;
