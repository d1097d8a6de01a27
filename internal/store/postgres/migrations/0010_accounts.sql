-- Player accounts (package accounts): the accounts with their Argon2id
-- password hashes, their sessions (token hashes), the seats they hold,
-- the games to be rated, and the ratings with their history.
CREATE TABLE accounts (
	id       TEXT PRIMARY KEY,
	name     TEXT NOT NULL,
	name_key TEXT NOT NULL UNIQUE,  -- the name in lower case
	hash     TEXT NOT NULL,         -- the password's Argon2id PHC string
	seat_key BYTEA NOT NULL,         -- the secret the account's seat tokens derive from
	created  TIMESTAMPTZ NOT NULL
);

CREATE TABLE sessions (
	hash       BYTEA PRIMARY KEY,    -- sha256 of the session token
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created    TIMESTAMPTZ NOT NULL,
	expires    TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id, created);

CREATE TABLE account_seats (
	seq        BIGINT GENERATED ALWAYS AS IDENTITY,
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	side       TEXT NOT NULL CHECK (side IN ('S', 'N')),
	linked     TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (account_id, game_id, side)
);
CREATE INDEX account_seats_game ON account_seats (game_id);

CREATE TABLE rated_games (
	game_id  TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	ruleset  TEXT NOT NULL,
	category TEXT NOT NULL,
	rated    TIMESTAMPTZ, -- when its ratings were applied; NULL before
	unrated  TEXT         -- why it was not rated (a side not held by one account); NULL before
);

CREATE INDEX rated_games_pending ON rated_games (game_id) WHERE rated IS NULL AND unrated IS NULL;

CREATE TABLE ratings (
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	ruleset    TEXT NOT NULL,
	category   TEXT NOT NULL,
	rating     DOUBLE PRECISION NOT NULL,
	rd         DOUBLE PRECISION NOT NULL,
	volatility DOUBLE PRECISION NOT NULL,
	games      INTEGER NOT NULL,
	updated    TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (account_id, ruleset, category)
);
CREATE INDEX ratings_board ON ratings (ruleset, category, rating DESC);

CREATE TABLE rating_history (
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	game_id    TEXT NOT NULL,
	ruleset    TEXT NOT NULL,
	category   TEXT NOT NULL,
	rating     DOUBLE PRECISION NOT NULL,
	rd         DOUBLE PRECISION NOT NULL,
	at         TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (account_id, game_id)
);
CREATE INDEX rating_history_key ON rating_history (account_id, ruleset, category, at);
