// Package lobby is matombo's lobby: open challenges that anyone may
// accept, direct challenges to a named player, and quick pairing by
// preset and time control. A challenge is stored (Store), lives while its
// creator's lobby socket is open (the server touches it; a short grace
// covers a reload) and becomes a friend game when it is accepted.
//
// The creator's seat in that game is a secret the creator got when
// posting: the challenge's key, whose hash the store keeps and the game is
// created with (app.CreateRequest.SeatHash). Accepting sends the acceptor
// its own new seat and nothing else; the creator learns only the game's id
// (a public name), so nobody learns another player's seat token through
// the lobby.
//
// It imports no technology: the stores (internal/store/sqlite,
// internal/store/postgres) implement Store, and the WebSocket side is the
// server's.
package lobby

import (
	"context"
	"time"
)

// The kinds of challenge.
const (
	KindOpen   = "open"   // anyone may accept it
	KindDirect = "direct" // only the named player may accept it, and only they and its creator see it
	KindQuick  = "quick"  // a quick-pairing seek: a matching seek accepts it at once
)

// The states of a challenge.
const (
	StatusOpen      = "open"      // waiting for an opponent
	StatusTaken     = "taken"     // being accepted: its game is being created
	StatusAccepted  = "accepted"  // its game exists (Game)
	StatusCancelled = "cancelled" // its creator withdrew it
	StatusExpired   = "expired"   // its creator left the lobby
)

// AnonymousName is how the lobby shows a creator without an account: a
// name typed into the lobby would be free text everyone sees.
const AnonymousName = "Anonymous"

// Challenge is a stored challenge. KeyHash never leaves the server.
type Challenge struct {
	ID          string
	KeyHash     []byte // sha256 of the creator's key, its seat token in the game
	Account     string // the creator's account id; "" for an anonymous creator
	Name        string // the creator's shown name: the account's, or AnonymousName
	Ruleset     string // canonical
	TimeControl string // "3+2", "corr:3", "" (no clock): app.CreateRequest.TimeControl
	Rated       bool   // between two accounts
	Side        string // the creator's side: "S", "N" or "random"
	Kind        string // KindOpen, KindDirect or KindQuick
	To          string // KindDirect: the account id challenged
	ToName      string // KindDirect: that account's name
	Status      string
	Game        string    // StatusAccepted: the game's id
	Created     time.Time // when it was posted
	Seen        time.Time // when its creator's lobby socket was last known open
	Updated     time.Time // its last change of status
}

// Store keeps challenges. Errors use the app codes: ENotFound for a
// challenge that does not exist, EConflict for a change of status from a
// status it is not in.
type Store interface {
	// CreateChallenge stores a new challenge.
	CreateChallenge(ctx context.Context, c *Challenge) error
	// Challenge returns challenge id (ENotFound).
	Challenge(ctx context.Context, id string) (*Challenge, error)
	// ChallengeByKey returns the challenge whose key hash is hash
	// (ENotFound).
	ChallengeByKey(ctx context.Context, hash []byte) (*Challenge, error)
	// OpenChallenges returns the open challenges, oldest first, at most limit.
	OpenChallenges(ctx context.Context, limit int) ([]*Challenge, error)
	// SetChallengeStatus moves challenge id from status from to status to,
	// setting its game (if game is not "") and its Updated to at
	// (ENotFound; EConflict if it is not in from).
	SetChallengeStatus(ctx context.Context, id, from, to, game string, at time.Time) error
	// TouchChallenges sets Seen to at for the open challenges of ids.
	TouchChallenges(ctx context.Context, ids []string, at time.Time) error
	// ExpireChallenges marks expired, at at, the open challenges last seen
	// before before, and returns their ids.
	ExpireChallenges(ctx context.Context, before, at time.Time) ([]string, error)
	// DeleteChallenges deletes the challenges no longer open whose status
	// changed before before.
	DeleteChallenges(ctx context.Context, before time.Time) error
}

// View is a challenge as the lobby shows it: no key, no account ids.
type View struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"` // the creator's
	Account     bool      `json:"account"`
	Ruleset     string    `json:"ruleset"`
	Title       string    `json:"title"` // the preset's title, or the ruleset's game
	TimeControl string    `json:"time_control"`
	Rated       bool      `json:"rated"`
	Side        string    `json:"side"` // the creator's
	Kind        string    `json:"kind"`
	To          string    `json:"to,omitempty"` // a direct challenge's player
	Status      string    `json:"status"`
	Created     time.Time `json:"created"`
	// Mine: the viewer created it; ForYou: it is a direct challenge to the
	// viewer. The server sets them per viewer.
	Mine   bool `json:"mine"`
	ForYou bool `json:"for_you"`
}

// ViewOf returns the public view of c.
func ViewOf(c *Challenge) View {
	return View{ID: c.ID, Name: c.Name, Account: c.Account != "", Ruleset: c.Ruleset, Title: titleOf(c.Ruleset),
		TimeControl: c.TimeControl, Rated: c.Rated, Side: c.Side, Kind: c.Kind, To: c.ToName, Status: c.Status, Created: c.Created}
}

// Viewer is who looks at the lobby: an account id ("" anonymous) and the
// key hashes of the challenges it posted (hex).
type Viewer struct {
	Account string
	Keys    map[string]bool
}

// Owns reports whether v created c.
func (v Viewer) Owns(c *Challenge) bool {
	return v.Account != "" && c.Account == v.Account || v.Keys[hexOf(c.KeyHash)]
}

// Sees reports whether v sees c in the lobby: an open challenge, direct
// ones only by their creator and their player.
func (v Viewer) Sees(c *Challenge) bool {
	if c.Status != StatusOpen {
		return false
	}
	return c.Kind != KindDirect || v.Owns(c) || v.Account != "" && c.To == v.Account
}

// ViewFor returns c's view for v.
func (v Viewer) ViewFor(c *Challenge) View {
	out := ViewOf(c)
	out.Mine = v.Owns(c)
	out.ForYou = c.Kind == KindDirect && v.Account != "" && c.To == v.Account
	return out
}
