-- Records take at most 64 headers of at most 1,000 bytes a value
-- (mancala.MaxHeaders, mancala.MaxHeaderValue). A game imported before
-- those limits keeps its first 61 stored headers (Ruleset, Result and
-- Position are columns of their own) whose values fit, in their order, so
-- that loading it is bounded like any other.
UPDATE games SET headers = coalesce((
	SELECT jsonb_agg(pair ORDER BY i) FROM (
		SELECT pair, i FROM jsonb_array_elements(games.headers) WITH ORDINALITY AS t(pair, i)
		WHERE octet_length(pair->>1) <= 1000
		ORDER BY i LIMIT 61) AS kept), '[]'::jsonb)
WHERE jsonb_array_length(headers) > 61
	OR EXISTS (SELECT 1 FROM jsonb_array_elements(games.headers) AS t(pair) WHERE octet_length(pair->>1) > 1000);
