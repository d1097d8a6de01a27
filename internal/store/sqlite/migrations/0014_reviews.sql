-- Finished game reviews (app.ReviewStore): the review of a game, made with
-- the search of limits, as the JSON the API answers, so that a review
-- outlives the process and is shared by the instances of a server.
CREATE TABLE reviews (
	game_id TEXT NOT NULL,
	limits  TEXT NOT NULL,   -- the search of each position: "level 6 (64000 nodes)"
	body    BLOB NOT NULL,   -- the review's turns, JSON
	created INTEGER NOT NULL, -- microseconds since 1970, UTC
	PRIMARY KEY (game_id, limits)
);
