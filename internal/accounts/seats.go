package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"strings"

	"matombo/internal/app"
	"matombo/mancala"
)

// An account's seat in a game is a seat token of its own, derived from the
// account's secret seat key (HMAC-SHA256 of the game and side), whose hash
// is added to the game's seats when the account takes the seat: the
// token is never stored, and the account's owner can get it back in any
// browser (SeatToken). The seat tokens of the link the game was created or
// joined with keep working as before.

// seatToken is the token of a's seat at side of game id.
func seatToken(a *Account, id string, side mancala.Player) string {
	m := hmac.New(sha256.New, a.SeatKey)
	m.Write([]byte("matombo account seat " + id + " " + side.String()))
	return lowerBase32.EncodeToString(m.Sum(nil)[:20])
}

// Attach gives a a seat at side of game id (a seat it holds already by
// another token: the creator's or a joiner's), and links it to a.
func (s *Service) Attach(ctx context.Context, a *Account, id string, side mancala.Player) error {
	seat := app.Seat{Side: side, Hash: app.HashToken(seatToken(a, id, side)), Created: s.now()}
	if err := s.games.AddSeat(ctx, id, seat); err != nil {
		return err
	}
	return s.store.LinkSeat(ctx, SeatLink{Account: a.ID, Game: id, Side: side}, s.now())
}

// Claim attaches to a the seat that token holds in game id: a seat of
// a game played before logging in. Only a valid seat token claims a seat.
func (s *Service) Claim(ctx context.Context, a *Account, id, token string) (mancala.Player, error) {
	g, err := s.games.Game(ctx, id)
	if err != nil {
		return 0, err
	}
	side, ok := seatOf(g, token)
	if !ok {
		return 0, app.Errorf(app.EForbidden, "no seat: a valid seat token of game %s is needed to add its seat to your account", id)
	}
	if ok, err := s.mayTake(ctx, a, g, side); err != nil || !ok {
		return 0, err
	}
	return side, s.Attach(ctx, a, id, side)
}

// mayTake refuses a second account on a side of a rated game: its
// rating needs one account a side.
func (s *Service) mayTake(ctx context.Context, a *Account, g *app.Game, side mancala.Player) (bool, error) {
	if _, rated, err := s.store.RatedKey(ctx, g.ID); err != nil || !rated {
		return err == nil, err
	}
	links, err := s.store.GameLinks(ctx, g.ID)
	if err != nil {
		return false, err
	}
	for _, l := range links {
		if l.Side == side && l.Account != a.ID {
			return false, app.Errorf(app.EConflict, "game %s is rated and another account holds %s's seat", g.ID, side.Name())
		}
	}
	return true, nil
}

// seatOf returns the side token holds a seat for in g, comparing with
// every seat in constant time.
func seatOf(g *app.Game, token string) (mancala.Player, bool) {
	token = strings.TrimSpace(token)
	if token == "" {
		return 0, false
	}
	h := app.HashToken(token)
	found := -1
	for _, st := range g.Seats {
		if subtle.ConstantTimeCompare(st.Hash, h) == 1 {
			found = int(st.Side)
		}
	}
	return mancala.Player(found), found >= 0
}

// Seat is an account's seat token in a game.
type Seat struct {
	Seat  string `json:"seat"`
	Token string `json:"token"`
	URL   string `json:"url"`
}

// SeatToken returns a's seat token in game id (EForbidden if a holds no
// seat there): only the account that took the seat gets it.
func (s *Service) SeatToken(ctx context.Context, a *Account, id string) (*Seat, error) {
	links, err := s.store.GameLinks(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, l := range links {
		if l.Account == a.ID {
			t := seatToken(a, id, l.Side)
			return &Seat{Seat: l.Side.String(), Token: t, URL: "/game/" + id + "#seat=" + t}, nil
		}
	}
	return nil, app.Errorf(app.EForbidden, "your account holds no seat in game %s", id)
}

// MayTake reports whether a may be given the seat at side ("S" or "N")
// of game id: not when the game is rated and another account holds that
// side.
func (s *Service) MayTake(ctx context.Context, a *Account, id, side string) (bool, error) {
	sd := mancala.South
	if side == "N" {
		sd = mancala.North
	}
	return s.mayTake(ctx, a, &app.Game{ID: id}, sd)
}
