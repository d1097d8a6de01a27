// Package accounts is matombo's optional player accounts: sign-up and
// log-in with Argon2id password hashes, revocable server-side sessions
// with a CSRF token each, the seats that follow an account to any browser,
// the profile's games and results, and Glicko-2 ratings of rated games
// with their leaderboards. Anonymous play by link does not need it.
//
// It imports no technology: its Store is implemented by the game stores
// (internal/store/sqlite, internal/store/postgres), and the HTTP side is
// the server's.
package accounts

import (
	"context"
	"time"

	"matombo/internal/app"
	"matombo/mancala"
)

// Account is a stored account. Hash and SeatKey never leave the server.
type Account struct {
	ID      string
	Name    string // as the player typed it at sign-up
	Key     string // the name folded to lower case: unique
	Hash    string // the password's Argon2id PHC string
	SeatKey []byte // the secret the account's seat tokens derive from (seatToken)
	Created time.Time
}

// Session is a stored session: only the hash of its cookie's token is kept.
type Session struct {
	Hash    []byte // sha256 of the session token
	Account string
	Created time.Time
	Expires time.Time
}

// SeatLink says that an account holds a seat at a side of a game.
type SeatLink struct {
	Account string
	Game    string
	Side    mancala.Player
}

// GameFilter selects an account's games for its profile.
type GameFilter struct {
	Ruleset string // "": every ruleset; else the canonical ruleset string
	// Result is "" (all), "won", "lost", "drawn" or "playing", from the
	// account's side.
	Result   string
	Limit    int       // 1..100
	Before   time.Time // the cursor: games updated before, or at Before with an ID below BeforeID
	BeforeID string
}

// AccountGame is one of an account's games: the game's summary (without
// seats and actions) and the side the account holds.
type AccountGame struct {
	Game *app.Game
	Side mancala.Player
}

// RulesetStats counts an account's games of one ruleset by result.
type RulesetStats struct {
	Ruleset string `json:"ruleset"`
	Games   int    `json:"games"`
	Won     int    `json:"won"`
	Lost    int    `json:"lost"`
	Drawn   int    `json:"drawn"`
	Playing int    `json:"playing"`
}

// RatingKey names one rating of a player: a preset ruleset and a time
// category (CategoryUntimed until games have clocks).
type RatingKey struct {
	Ruleset  string `json:"ruleset"`
	Category string `json:"category"`
}

// Rating is an account's rating under one key.
type Rating struct {
	RatingKey
	Glicko
	Account string    `json:"-"`
	Name    string    `json:"name,omitempty"` // the account's name, in leaderboards
	Games   int       `json:"games"`
	Updated time.Time `json:"updated"`
}

// RatingPoint is an account's rating after one rated game.
type RatingPoint struct {
	Game   string    `json:"game"`
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
	At     time.Time `json:"at"`
}

// RateFunc computes the new ratings of a rated game's South and North
// players from their ratings before it.
type RateFunc func(before [2]Glicko) [2]Glicko

// Store keeps accounts, sessions, seat links and ratings. Errors use the
// app codes: ENotFound for what does not exist, EConflict for a name taken.
type Store interface {
	// CreateAccount stores a new account (EConflict if its Key is taken).
	CreateAccount(ctx context.Context, a *Account) error
	// AccountByName returns the account whose Key is key (ENotFound).
	AccountByName(ctx context.Context, key string) (*Account, error)
	// AccountByID returns account id (ENotFound).
	AccountByID(ctx context.Context, id string) (*Account, error)
	// SetPassword replaces account id's password hash and deletes its
	// sessions but the one whose hash is keep (nil: all of them).
	SetPassword(ctx context.Context, id, hash string, keep []byte) error
	// CreateSession stores s, and deletes the account's expired sessions.
	CreateSession(ctx context.Context, s Session) error
	// SessionAccount returns the session whose hash is hash, if it expires
	// after now, with its account (ENotFound otherwise).
	SessionAccount(ctx context.Context, hash []byte, now time.Time) (*Session, *Account, error)
	// DeleteSession deletes the session whose hash is hash (none: no error).
	DeleteSession(ctx context.Context, hash []byte) error
	// LinkSeat records that l.Account holds a seat at l.Side of l.Game; a
	// link stored already is kept (no error).
	LinkSeat(ctx context.Context, l SeatLink, at time.Time) error
	// GameLinks returns the links of game id, in the order they were made.
	GameLinks(ctx context.Context, id string) ([]SeatLink, error)
	// AccountGames returns account id's games by f, newest first (by the
	// game's Updated, then ID, both descending).
	AccountGames(ctx context.Context, id string, f GameFilter) ([]AccountGame, error)
	// AccountStats counts account id's games per ruleset by result.
	AccountStats(ctx context.Context, id string) ([]RulesetStats, error)
	// MarkRated records that game id, of key's ruleset and category, is to
	// be rated when it ends.
	MarkRated(ctx context.Context, id string, key RatingKey) error
	// RatedKey returns the key game id was marked rated under and whether
	// it was.
	RatedKey(ctx context.Context, id string) (RatingKey, bool, error)
	// ApplyRating rates game id once: if the game is marked rated and not
	// yet rated, it reads the ratings of accounts[0] (South) and
	// accounts[1] (North) under the game's key (NewGlicko for a first
	// game), stores rate's results with a history point each, and marks
	// the game rated, in one transaction; it reports whether it did.
	ApplyRating(ctx context.Context, id string, accounts [2]string, at time.Time, rate RateFunc) (bool, error)
	// SettleUnrated records why game id, marked rated and not yet rated,
	// will not be: it is no longer pending.
	SettleUnrated(ctx context.Context, id, reason string) error
	// PendingRatings returns up to limit games marked rated, neither rated
	// nor settled unrated, that are over: games whose rating was missed
	// (a failed write, an instance stopped at the end of a game).
	PendingRatings(ctx context.Context, limit int) ([]string, error)
	// Ratings returns account id's ratings.
	Ratings(ctx context.Context, id string) ([]Rating, error)
	// RatingHistory returns account id's rating points under key, oldest
	// first, at most limit of the newest.
	RatingHistory(ctx context.Context, id string, key RatingKey, limit int) ([]RatingPoint, error)
	// Leaderboard returns the ratings under key, highest first, at most limit.
	Leaderboard(ctx context.Context, key RatingKey, limit int) ([]Rating, error)
}
