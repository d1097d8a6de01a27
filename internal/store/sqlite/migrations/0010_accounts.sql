-- Player accounts (package accounts): the accounts with their Argon2id
-- password hashes, their sessions (token hashes), the seats they hold,
-- the games to be rated, and the ratings with their history.
CREATE TABLE accounts (
	id       TEXT PRIMARY KEY,
	name     TEXT NOT NULL,
	name_key TEXT NOT NULL UNIQUE,  -- the name in lower case
	hash     TEXT NOT NULL,         -- the password's Argon2id PHC string
	seat_key BLOB NOT NULL,         -- the secret the account's seat tokens derive from
	created  INTEGER NOT NULL       -- unix microseconds
);

CREATE TABLE sessions (
	hash       BLOB PRIMARY KEY,    -- sha256 of the session token
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created    INTEGER NOT NULL,
	expires    INTEGER NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id, created);

CREATE TABLE account_seats (
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	side       TEXT NOT NULL CHECK (side IN ('S', 'N')),
	linked     INTEGER NOT NULL,
	PRIMARY KEY (account_id, game_id, side)
);
CREATE INDEX account_seats_game ON account_seats (game_id);

CREATE TABLE rated_games (
	game_id  TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	ruleset  TEXT NOT NULL,
	category TEXT NOT NULL,
	rated    INTEGER,     -- when its ratings were applied; NULL before
	unrated  TEXT         -- why it was not rated (a side not held by one account); NULL before
);

CREATE INDEX rated_games_pending ON rated_games (game_id) WHERE rated IS NULL AND unrated IS NULL;

CREATE TABLE ratings (
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	ruleset    TEXT NOT NULL,
	category   TEXT NOT NULL,
	rating     REAL NOT NULL,
	rd         REAL NOT NULL,
	volatility REAL NOT NULL,
	games      INTEGER NOT NULL,
	updated    INTEGER NOT NULL,
	PRIMARY KEY (account_id, ruleset, category)
);
CREATE INDEX ratings_board ON ratings (ruleset, category, rating DESC);

CREATE TABLE rating_history (
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	game_id    TEXT NOT NULL,
	ruleset    TEXT NOT NULL,
	category   TEXT NOT NULL,
	rating     REAL NOT NULL,
	rd         REAL NOT NULL,
	at         INTEGER NOT NULL,
	PRIMARY KEY (account_id, game_id)
);
CREATE INDEX rating_history_key ON rating_history (account_id, ruleset, category, at);
