-- Games, their seats (token hashes) and their written actions.
CREATE TABLE games (
	id       TEXT PRIMARY KEY,
	ruleset  TEXT NOT NULL,
	start    TEXT NOT NULL DEFAULT '',
	mode     TEXT NOT NULL,
	players  JSONB NOT NULL,         -- the two players, South first
	invite_s BYTEA,                  -- sha256 of South's invite code
	invite_n BYTEA,                  -- sha256 of North's invite code
	plies    INTEGER NOT NULL DEFAULT 0 CHECK (plies >= 0),
	turns    INTEGER NOT NULL DEFAULT 0,
	result   TEXT NOT NULL DEFAULT '*',
	reason   TEXT NOT NULL DEFAULT '',
	rematch  TEXT NOT NULL DEFAULT '',
	created  TIMESTAMPTZ NOT NULL,
	updated  TIMESTAMPTZ NOT NULL
);
CREATE INDEX games_updated ON games (updated DESC, id DESC);

CREATE TABLE seats (
	seq        BIGINT GENERATED ALWAYS AS IDENTITY,
	game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	side       TEXT NOT NULL CHECK (side IN ('S', 'N')),
	token_hash BYTEA NOT NULL,
	created    TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (game_id, token_hash)
);

-- The primary key (game_id, ply) is the last guard against two writers
-- appending the same ply; AppendAction also locks the game row.
CREATE TABLE actions (
	game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply     INTEGER NOT NULL CHECK (ply >= 0),
	action  TEXT NOT NULL,
	side    TEXT NOT NULL CHECK (side IN ('S', 'N')),
	created TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (game_id, ply)
);
