-- Games, their seats (token hashes) and their written actions.
CREATE TABLE games (
	id       TEXT PRIMARY KEY,
	ruleset  TEXT NOT NULL,
	start    TEXT NOT NULL DEFAULT '',
	mode     TEXT NOT NULL,
	players  TEXT NOT NULL,          -- JSON array of the two players, South first
	invite_s BLOB,                   -- sha256 of South's invite code
	invite_n BLOB,                   -- sha256 of North's invite code
	plies    INTEGER NOT NULL DEFAULT 0,
	turns    INTEGER NOT NULL DEFAULT 0,
	result   TEXT NOT NULL DEFAULT '*',
	reason   TEXT NOT NULL DEFAULT '',
	rematch  TEXT NOT NULL DEFAULT '',
	created  INTEGER NOT NULL,       -- unix microseconds
	updated  INTEGER NOT NULL
);
CREATE INDEX games_updated ON games (updated DESC, id DESC);

CREATE TABLE seats (
	game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	side       TEXT NOT NULL CHECK (side IN ('S', 'N')),
	token_hash BLOB NOT NULL,
	created    INTEGER NOT NULL,
	PRIMARY KEY (game_id, token_hash)
);

CREATE TABLE actions (
	game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply     INTEGER NOT NULL,
	action  TEXT NOT NULL,
	side    TEXT NOT NULL CHECK (side IN ('S', 'N')),
	created INTEGER NOT NULL,
	PRIMARY KEY (game_id, ply)
);
