package lobby

import (
	"context"

	"matombo/internal/accounts"
	"matombo/internal/app"
)

// QuickRequest asks to be paired by preset and time control.
type QuickRequest struct {
	Ruleset     string `json:"ruleset"`
	TimeControl string `json:"time_control"`
	Rated       bool   `json:"rated"`
}

// Quick is the outcome of quick pairing: a game with a waiting seek
// (Accepted), or a new seek that the next matching player will accept
// (Posted).
type Quick struct {
	Accepted *Accepted `json:"accepted,omitempty"`
	Posted   *Posted   `json:"posted,omitempty"`
}

// quickTries bounds the rounds of Quick when other seekers race it.
const quickTries = 3

// Quick pairs a with the oldest waiting seek of the same preset, time
// control and rating, or posts a seek (the creator's side is random).
// skip holds the keys of the asker's own seeks (Viewer.Keys).
//
// Two players seeking at the same moment (on two instances) may both find
// nothing and both post: after posting, a seeker that finds an older
// matching seek withdraws its own and pairs with that one. Only the newer
// of two seeks does, so two seekers never take each other's seek at once.
func (s *Service) Quick(ctx context.Context, a *accounts.Account, req QuickRequest, skip map[string]bool, client string) (*Quick, error) {
	rs, err := canonical(req.Ruleset)
	if err != nil {
		return nil, err
	}
	if !isPreset(rs) {
		return nil, app.Errorf(app.EInvalid, "quick pairing is by preset; ruleset %q is not one: %v (post an open challenge for other rulesets)", rs, presetNames())
	}
	tc, err := checkTimeControl(req.TimeControl)
	if err != nil {
		return nil, err
	}
	req.TimeControl = tc
	if req.Rated {
		if err := s.checkRated(a, rs, "seek"); err != nil {
			return nil, err
		}
	}
	me := Viewer{Keys: skip}
	if a != nil {
		me.Account = a.ID
	}
	match := func(c *Challenge) bool {
		return c.Kind == KindQuick && c.Ruleset == rs && c.TimeControl == req.TimeControl && c.Rated == req.Rated && !me.Owns(c)
	}
	for try := 1; ; try++ {
		out, err := s.pair(ctx, a, match, client)
		if err != nil || out != nil {
			return &Quick{Accepted: out}, err
		}
		p, err := s.post(ctx, a, PostRequest{Ruleset: rs, TimeControl: req.TimeControl, Rated: req.Rated, Side: "random"}, KindQuick)
		if err != nil || try == quickTries {
			return &Quick{Posted: p}, err
		}
		mine, err := s.store.Challenge(ctx, p.Challenge.ID)
		if err != nil {
			return nil, err
		}
		older, err := s.anyOpen(ctx, func(c *Challenge) bool { return match(c) && before(c, mine) })
		if err != nil || !older {
			return &Quick{Posted: p}, err
		}
		if err := s.store.SetChallengeStatus(ctx, mine.ID, StatusOpen, StatusCancelled, "", s.now()); err != nil {
			return &Quick{Posted: p}, nil // taken meanwhile: its creator's socket hears "matched"
		}
		s.changed(mine.ID)
	}
}

// pair accepts, for a, the oldest open challenge match takes that no one
// takes first; nil if there is none.
func (s *Service) pair(ctx context.Context, a *accounts.Account, match func(*Challenge) bool, client string) (*Accepted, error) {
	open, err := s.store.OpenChallenges(ctx, MaxOpen)
	if err != nil {
		return nil, err
	}
	for _, c := range open {
		if !match(c) {
			continue
		}
		out, err := s.accept(ctx, a, c, client)
		if app.ErrorCode(err) == app.EConflict {
			continue // another player took it first
		}
		return out, err
	}
	return nil, nil
}

// anyOpen reports whether an open challenge satisfies match.
func (s *Service) anyOpen(ctx context.Context, match func(*Challenge) bool) (bool, error) {
	open, err := s.store.OpenChallenges(ctx, MaxOpen)
	if err != nil {
		return false, err
	}
	for _, c := range open {
		if match(c) {
			return true, nil
		}
	}
	return false, nil
}

// before reports whether c was posted before d (by time, then id: the
// order the store lists them in).
func before(c, d *Challenge) bool {
	if !c.Created.Equal(d.Created) {
		return c.Created.Before(d.Created)
	}
	return c.ID < d.ID
}
