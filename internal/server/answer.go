package server

import (
	"context"

	"matombo/internal/app"
)

// Answer is the one shape of every action-like answer: creating a game,
// joining it, a new invite, an action, resigning and a rematch (docs/API.md,
// "Action answers"). Game is the game the answer is about as its asker now
// sees it (You set): the new game, the joined one, the rematch. Events are
// what the operation played, in order ([] when it played nothing). The seat
// fields are set by the operations that give a seat or a link, and left out
// otherwise. Game is null only when the game cannot be read back after an
// operation that gave a seat or a link (which is valid all the same). The WebSocket's update message carries the same game and
// events.
type Answer struct {
	Game       *app.GameView     `json:"game"`
	Events     []app.EventView   `json:"events"`
	ID         string            `json:"id,omitempty"`          // create, join, rematch: the id of the game seated at (Game.ID)
	Seat       string            `json:"seat,omitempty"`        // create, join, rematch: the asker's side, "S" or "N"
	Token      string            `json:"token,omitempty"`       // create, join, rematch: the seat token (a secret)
	Tokens     map[string]string `json:"tokens,omitempty"`      // local games: a token per side
	Invite     string            `json:"invite,omitempty"`      // friend games (create, invite): the link for the opponent
	TeamInvite string            `json:"team_invite,omitempty"` // friend games (create): the link for the creator's team mates
	URL        string            `json:"url,omitempty"`         // create, join, rematch: the game's page, with the token in its fragment
}

// answer returns v and events as an Answer, events never null.
func answer(v *app.GameView, events []app.EventView) *Answer {
	if events == nil {
		events = []app.EventView{}
	}
	return &Answer{Game: v, Events: events}
}

// seated returns the Answer to an operation that gave the seat of token in
// game id a seat or a link: the game as that seat sees it. The operation is
// done (a seat taken, a link made) and what it gave must not be lost, so
// when the game cannot be read back Game is null and the failure is logged.
func (s *Server) seated(ctx context.Context, id, token string) *Answer {
	v, err := s.svc.View(ctx, id, token)
	if err != nil {
		s.log.Warn("answer: read the game back", "game", id, "err", err)
	}
	return answer(v, nil)
}

// created returns the Answer to creating game c (or its rematch).
func (s *Server) created(ctx context.Context, c *app.Created) *Answer {
	a := s.seated(ctx, c.ID, c.Token)
	a.ID, a.Seat, a.Token, a.Tokens = c.ID, c.Seat, c.Token, c.Tokens
	a.Invite, a.TeamInvite, a.URL = c.Invite, c.TeamInvite, c.URL
	return a
}

// joined returns the Answer to joining game id with the seat j.
func (s *Server) joined(ctx context.Context, id string, j *app.Joined) *Answer {
	a := s.seated(ctx, id, j.Token)
	a.ID, a.Seat, a.Token, a.URL = id, j.Seat, j.Token, j.URL
	return a
}

// invited returns the Answer to a new invite link of game id, asked by the
// seat of token.
func (s *Server) invited(ctx context.Context, id, token string, in *app.Invited) *Answer {
	a := s.seated(ctx, id, token)
	a.Invite = in.Invite
	return a
}
