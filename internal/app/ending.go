package app

import (
	"context"
	"time"

	"matombo/mancala"
)

// Resign ends game id as lost for the side of token, at any time, even in
// the middle of a turn (the record then ends with the unfinished turn).
func (s *Service) Resign(ctx context.Context, id, token string) (*GameView, error) {
	p, side, err := s.loadSeated(ctx, id, token, "resign")
	if err != nil {
		return nil, err
	}
	g := p.g
	if g.Over() {
		return nil, Errorf(EConflict, "the game is already over (%s, %s)", g.Result, g.Reason)
	}
	result := side.Other().String()
	if err := s.store.Finish(context.WithoutCancel(ctx), id, len(g.Actions), result, "resigned"); err != nil {
		return nil, err
	}
	s.cache.drop(id)
	g.Result, g.Reason, g.Updated = result, "resigned", time.Now().UTC()
	if r, err := mancala.ParseResult(result); err == nil {
		p.rec.SetResult(r)
	}
	v := p.view("")
	s.publish(ctx, id, Update{Game: v})
	s.finished(ctx, g)
	v.You = side.String()
	return v, nil
}

// Rematch returns a seat in the rematch of game id (created by the first
// seated player who asks, sides swapped) for the holder of token. The seat's
// token is derived from the old one (rematchToken), so asking again gives
// the same seat back and adds none.
func (s *Service) Rematch(ctx context.Context, id, token string) (*Created, error) {
	p, side, err := s.loadSeated(ctx, id, token, "ask for a rematch of")
	if err != nil {
		return nil, err
	}
	g := p.g
	if !g.Over() {
		return nil, Errorf(EConflict, "game %s is still in play; a rematch follows the end of the game", id)
	}
	newSide := side.Other()
	rid := g.Rematch
	if rid == "" {
		// The rematch has no invites: its seats are those of the old
		// game's seats that ask for them.
		now := s.clock.Now().UTC()
		ng := &Game{ID: newID(), Ruleset: g.Ruleset, Start: g.Start, Mode: g.Mode, Result: "*", Created: now, Updated: now,
			TimeControl: g.TimeControl} // a rematch is casual: only a created game is marked rated
		startClock(ng, timeControlOf(ng))
		ng.Players[0], ng.Players[1] = g.Players[1], g.Players[0]
		if rid, err = s.store.CreateRematch(ctx, id, ng); err != nil {
			return nil, err
		}
		g.Rematch = rid
		s.cache.drop(id)
		s.publish(ctx, id, Update{Game: p.view("")})
	}
	out := &Created{ID: rid, Seat: newSide.String()}
	sides := []mancala.Player{newSide}
	if g.Mode == ModeLocal {
		sides = append(sides, side)
		out.Tokens = map[string]string{}
	}
	for _, sd := range sides {
		t := rematchToken(token, rid, sd)
		if err := s.store.AddSeat(ctx, rid, Seat{Side: sd, Hash: HashToken(t), Created: time.Now().UTC()}); err != nil {
			return nil, err
		}
		if out.Token == "" {
			out.Token = t
		}
		if out.Tokens != nil {
			out.Tokens[sd.String()] = t
		}
	}
	out.URL = gameURL(rid, out.Token)
	if ng, err := s.store.Game(ctx, rid); err == nil {
		s.kickAI(ng)
	}
	return out, nil
}
