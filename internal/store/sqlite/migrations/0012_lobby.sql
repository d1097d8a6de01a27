-- The lobby's challenges (package lobby). key_hash is the sha256 of the
-- creator's key, which is also the creator's seat token in the game.
CREATE TABLE challenges (
	id           TEXT PRIMARY KEY,
	key_hash     BLOB NOT NULL UNIQUE,
	account_id   TEXT NOT NULL DEFAULT '',  -- the creator's account; '' anonymous
	name         TEXT NOT NULL,
	ruleset      TEXT NOT NULL,
	time_control TEXT NOT NULL DEFAULT '',
	rated        INTEGER NOT NULL DEFAULT 0,
	side         TEXT NOT NULL CHECK (side IN ('S', 'N', 'random')),
	kind         TEXT NOT NULL CHECK (kind IN ('open', 'direct', 'quick')),
	to_account   TEXT NOT NULL DEFAULT '',
	to_name      TEXT NOT NULL DEFAULT '',
	status       TEXT NOT NULL CHECK (status IN ('open', 'taken', 'accepted', 'cancelled', 'expired')),
	game_id      TEXT NOT NULL DEFAULT '',
	created      INTEGER NOT NULL,  -- unix microseconds
	seen         INTEGER NOT NULL,
	updated      INTEGER NOT NULL
);
CREATE INDEX challenges_open ON challenges (status, created);
