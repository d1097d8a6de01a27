-- Puzzle ratings (internal/server/puzzles.go): each puzzle's live
-- Glicko-2 rating, from the results of those who tried it (a puzzle
-- without a row has its shipped rating), and the attempts counted, one
-- per puzzle and attempt id (kept as its sha256).
CREATE TABLE puzzle_ratings (
	preset     TEXT NOT NULL,
	puzzle_id  TEXT NOT NULL,
	rating     REAL NOT NULL,
	rd         REAL NOT NULL,
	volatility REAL NOT NULL,
	attempts   INTEGER NOT NULL,  -- results counted
	solved     INTEGER NOT NULL,  -- of which solved
	updated    INTEGER NOT NULL,  -- unix microseconds
	PRIMARY KEY (preset, puzzle_id)
);

CREATE TABLE puzzle_attempts (
	preset    TEXT NOT NULL,
	puzzle_id TEXT NOT NULL,
	attempt   BLOB NOT NULL,     -- sha256 of the client's attempt id
	solved    INTEGER NOT NULL,
	at        INTEGER NOT NULL,  -- unix microseconds
	PRIMARY KEY (preset, puzzle_id, attempt)
);
