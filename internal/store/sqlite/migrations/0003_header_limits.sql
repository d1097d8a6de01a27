-- Records take at most 64 headers of at most 1,000 bytes a value
-- (mancala.MaxHeaders, mancala.MaxHeaderValue). A game imported before
-- those limits keeps its first 61 stored headers (Ruleset, Result and
-- Position are columns of their own) whose values fit, in their order, so
-- that loading it is bounded like any other.
UPDATE games SET headers = coalesce((
	SELECT json_group_array(json(pair) ORDER BY i) FROM (
		SELECT key AS i, value AS pair FROM json_each(games.headers)
		WHERE length(CAST(json_extract(value, '$[1]') AS BLOB)) <= 1000
		ORDER BY key LIMIT 61)), '[]')
WHERE json_array_length(headers) > 61
	OR EXISTS (SELECT 1 FROM json_each(games.headers) WHERE length(CAST(json_extract(value, '$[1]') AS BLOB)) > 1000);
