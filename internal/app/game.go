// Package app is the matombo web application's domain: games, seats and
// players, the Store interface that keeps them, the game Service that checks
// every action with the rules engine, and the AI worker pool. It imports no
// technology: storage and transport live in adapters (internal/store/...,
// internal/server).
package app

import (
	"context"
	"time"

	"matombo/mancala"
)

// The kinds of game, by who plays against the creator.
const (
	ModeAI       = "ai"       // the creator against the computer
	ModeFriend   = "friend"   // the creator against whoever joins by invite
	ModeLocal    = "local"    // two players on one device
	ModeImported = "imported" // a game imported from a record
)

// The kinds of player.
const (
	KindHuman = "human"
	KindAI    = "ai"
)

// Game is a stored game: its rules, who plays, the secret seats, the written
// actions in order, and the result.
type Game struct {
	ID      string
	Ruleset string // canonical ruleset string
	Start   string // start position (RULES.md §5); "" for the ruleset's start
	Mode    string // ModeAI, ModeFriend, ModeLocal or ModeImported
	Players [2]Player
	Invites [2][]byte // sha256 of each side's invite code; nil: no invite
	// InviteOnce says, per side, whether its invite seats one player (a
	// friend game's link for the opponent) rather than a team (the
	// creator's link for team mates); InviteTaken whether that player has
	// joined, so that the link seats no one else.
	InviteOnce  [2]bool
	InviteTaken [2]bool
	Seats       []Seat        // token hashes; several seats may share a side
	Actions     []Move        // the written actions, Actions[i].Ply == i
	Turns       int           // completed turns
	Result      string        // "S", "N", "draw" or "*" (in play)
	Reason      string        // why the game ended; "" in play
	Rematch     string        // the id of the rematch game, "" if none
	Headers     []mancala.Tag // an imported record's headers but Ruleset, Position and Result, in its order (Players hold the names); nil for games played here
	// TimeControl is the game's clock as ParseTimeControl reads it; ""
	// for none (clock.go).
	TimeControl string
	// ClockFrom is when the decision in play began: the last action's
	// time, or the game's creation or last takeback.
	ClockFrom time.Time
	// Deadline is when the decision in play ends a game with a clock (a
	// flag, an abort, a correspondence turn's end); zero for none.
	Deadline time.Time
	// Offer is a player's offer waiting for the opponent's answer:
	// OfferDraw or OfferTakeback followed by ":" and the offering side
	// ("draw:S"); "" for none. An action clears it.
	Offer string
	// Takebacks counts the takebacks accepted (the actions they removed
	// are gone): of two views, the one with more is the newer.
	Takebacks int
	// Rated says the game was created rated (package accounts rates it):
	// it has no takebacks.
	Rated   bool
	Created time.Time
	Updated time.Time
}

// Over reports whether the game has a result.
func (g *Game) Over() bool { return g.Result != "*" }

// Player is who plays one side.
type Player struct {
	Kind  string `json:"kind"`            // KindHuman or KindAI
	Level int    `json:"level,omitempty"` // AI level 1..8
	Name  string `json:"name"`
}

// Seat is a secret token's right to act for one side; only the token's hash
// is kept.
type Seat struct {
	Side    mancala.Player
	Hash    []byte // sha256 of the token
	Created time.Time
}

// Move is one written action of a game.
type Move struct {
	Ply    int    // 0-based index in the game's actions
	Action string // in notation, such as "a3" or "xd5"
	Side   mancala.Player
	At     time.Time
	// Clock is the mover's time left after the action, stored with it,
	// if Clocked (a game with a clock).
	Clock   time.Duration
	Clocked bool
	// Deadline is the deadline of the decision after the action, kept
	// with the game (Game.Deadline) by AppendAction; zero for none.
	Deadline time.Time
}

// ListFilter selects games for the archive.
type ListFilter struct {
	Status string    // "", "playing" (games that can go on), "unfinished" (imported records without a result) or "over"
	Limit  int       // at most this many (1..100)
	Before time.Time // only games updated strictly before; zero: no bound
	// BeforeID, with Before, makes the bound a cursor on the list's order
	// (Updated, then ID, both descending): only games updated before
	// Before, or at Before with an ID below BeforeID. The next page starts
	// after the last game listed, even among games of equal Updated.
	BeforeID string
}

// Store keeps games. Implementations must make AppendAction and Finish
// atomic with their checks, so that two concurrent writers on one game never
// both succeed; errors use the codes ENotFound and EConflict.
type Store interface {
	// CreateGame stores a new game with its seats and actions, its time
	// control and clock.
	CreateGame(ctx context.Context, g *Game) error
	// Game returns the game id with its seats and actions (ENotFound).
	Game(ctx context.Context, id string) (*Game, error)
	// AddSeat adds a seat to game id; a seat whose token hash the game has
	// already is left as it is (no error).
	AddSeat(ctx context.Context, id string, s Seat) error
	// AppendAction stores m as the action at ply m.Ply, which must equal the
	// number of actions stored, in a game still in play (else EConflict),
	// with its clock, and sets the game's turn count, result and reason,
	// its ClockFrom to m.At and its Deadline to m.Deadline, and clears its
	// Offer.
	AppendAction(ctx context.Context, id string, m Move, turns int, result, reason string) error
	// Finish sets the result of a game in play that has exactly plies
	// actions (else EConflict).
	Finish(ctx context.Context, id string, plies int, result, reason string) error
	// RenamePlayer names side's player of game id name if its name is still
	// from, and returns the name in effect. It changes neither the kind of
	// player nor the game's Updated time.
	RenamePlayer(ctx context.Context, id string, side mancala.Player, from, name string) (string, error)
	// TakeInvite adds seat s to game id by the invite of side s.Side whose
	// hash is invite, atomically with its checks: EForbidden if the side's
	// invite is no longer invite (a new one replaced it), EConflict if the
	// invite seats one player and has seated one already; else the seat is
	// added and a one-seat invite marked taken.
	TakeInvite(ctx context.Context, id string, invite []byte, s Seat) error
	// NewInvite makes invite the hash of side's invite of game id, an
	// invite that seats one player and has seated no one yet.
	NewInvite(ctx context.Context, id string, side mancala.Player, invite []byte) error
	// CreateRematch stores g as the rematch of game id, and links them,
	// unless game id has a rematch already (then g is not stored); it
	// returns the rematch in effect. Concurrent calls store one rematch.
	CreateRematch(ctx context.Context, id string, g *Game) (string, error)
	// ListGames returns games newest first (by Updated, then by ID, both
	// descending) without their seats and actions.
	ListGames(ctx context.Context, f ListFilter) ([]*Game, error)
	// CheckWrite makes a write that changes nothing, through the path the
	// games' writes take, and reports whether it was committed: a database
	// that answers reads but refuses writes (a full disk, a read-only
	// replica, a stuck writer) fails it.
	CheckWrite(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// ClockStore is what a Store needs besides Store for games with clocks,
// offers and the abandonment rule (the SQLite and PostgreSQL stores have
// it); without it, games have no clock and none is ended by time.
type ClockStore interface {
	// DueGames returns up to limit ids of games in play that may be due
	// to end at now: those with a Deadline at or before now, and those
	// without a time control, imported records aside, last changed at or
	// before idle; the longest due first.
	DueGames(ctx context.Context, now, idle time.Time, limit int) ([]string, error)
	// SetOffer sets the Offer of game id if it is in play with exactly
	// plies actions (else EConflict).
	SetOffer(ctx context.Context, id string, plies int, offer string) error
	// TakeBack removes the actions from ply to on of game id, in play with
	// exactly plies actions (else EConflict), sets its turn count, its
	// ClockFrom to from and its Deadline to deadline, clears its Offer
	// and counts the takeback (Takebacks).
	TakeBack(ctx context.Context, id string, plies, to, turns int, from, deadline time.Time) error
}
