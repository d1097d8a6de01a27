package app

import (
	"context"
	"time"

	"matombo/mancala"
)

// loadSeated loads game id and the side token is seated at; what says what
// the seat is needed for, in the error.
func (s *Service) loadSeated(ctx context.Context, id, token, what string) (*played, mancala.Player, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	side, ok := seatSide(p.g, token)
	if !ok {
		return nil, 0, Errorf(EForbidden, "no seat: a valid seat token is needed to %s game %s", what, id)
	}
	return p, side, nil
}

// you returns the side token is seated at in g, as "S", "N" or "".
func you(g *Game, token string) string {
	if side, ok := seatSide(g, token); ok {
		return side.String()
	}
	return ""
}

// Joined tells a joiner their seat.
type Joined struct {
	Seat  string `json:"seat"`
	Token string `json:"token"`
	URL   string `json:"url"`
}

// Join seats the holder of an invite code at the code's side, with a new
// token. The opponent's invite of a friend game seats one player: once
// taken, it is refused (EConflict) until the inviting side asks for a new
// one (Invite); the creator's team link seats any number of team mates.
// A game over seats no one. The joiner's name (cleaned like the
// creator's) names the side if it still has its default name ("North",
// "South"): the first named joiner names it.
func (s *Service) Join(ctx context.Context, id, code, name string) (*Joined, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	g := p.g
	for i, h := range g.Invites {
		if !matchHash(h, code) {
			continue
		}
		side := mancala.Player(i)
		if g.Over() {
			return nil, Errorf(EConflict, "game %s is over (%s, %s); its seats can no longer be joined", id, g.Result, g.Reason)
		}
		if g.InviteOnce[side] && g.InviteTaken[side] {
			return nil, Errorf(EConflict, "this invite to game %s has seated its player already: it seats one opponent; ask whoever invited you for a new link", id)
		}
		token := NewToken()
		seat := Seat{Side: side, Hash: HashToken(token), Created: time.Now().UTC()}
		if err := s.store.TakeInvite(ctx, id, h, seat); err != nil {
			return nil, err
		}
		g.Seats = append(g.Seats, seat)
		if name := cleanName(name, ""); name != "" && g.Players[side].Name == side.Name() {
			// The seat is taken: a name not stored is logged, not refused.
			if got, err := s.store.RenamePlayer(ctx, id, side, side.Name(), name); err != nil {
				s.log.Warn("join: name the player", "game", id, "side", side.String(), "err", err)
			} else {
				g.Players[side].Name = got
				p.rec.SetTag(side.Name(), got)
			}
		}
		s.cache.drop(id)
		s.publish(ctx, id, p.update(nil))
		return &Joined{Seat: side.String(), Token: token, URL: gameURL(id, token)}, nil
	}
	return nil, Errorf(EForbidden, "the invite code is not valid for game %s; ask for a new link", id)
}

// Invited is a new invite link.
type Invited struct {
	Invite string `json:"invite"` // the link for the opponent: /join/{id}/{code}
}

// Invite gives the holder of token, seated at the inviting side of friend
// game id (the creator or a team mate), a new link that seats one
// opponent, as the first: the previous link stops working, and the seats
// already taken stay.
func (s *Service) Invite(ctx context.Context, id, token string) (*Invited, error) {
	p, side, err := s.loadSeated(ctx, id, token, "invite an opponent to")
	if err != nil {
		return nil, err
	}
	g, other := p.g, side.Other()
	if g.Mode != ModeFriend || !g.InviteOnce[other] {
		return nil, Errorf(EForbidden, "game %s has no invite for your opponent: invites are made by the side that created a game with a friend", id)
	}
	if g.Over() {
		return nil, Errorf(EConflict, "game %s is over (%s, %s); ask for a rematch instead", id, g.Result, g.Reason)
	}
	code := NewToken()
	if err := s.store.NewInvite(ctx, id, other, HashToken(code)); err != nil {
		return nil, err
	}
	s.cache.drop(id)
	return &Invited{Invite: "/join/" + id + "/" + code}, nil
}
