package app

import (
	"context"

	"matombo/mancala"
)

// View returns game id as seen by the holder of token ("" for a spectator).
// It resumes the AI of a game left waiting (resumeAI).
func (s *Service) View(ctx context.Context, id, token string) (*GameView, error) {
	v, _, err := s.CatchUp(ctx, id, token, -1)
	return v, err
}

// MaxCatchUp is the most actions whose events CatchUp returns.
const MaxCatchUp = 64

// CatchUp returns the view of game id for token's seat, as View, with the
// events of the actions after ply since, for a client that saw ply since
// and missed the rest: it can show them as updates. The events are nil
// when since is not behind the game, or more than MaxCatchUp actions
// behind (a negative since asks for none).
func (s *Service) CatchUp(ctx context.Context, id, token string, since int) (*GameView, []EventView, error) {
	p, err := s.load(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	s.resumeAI(p)
	var evs []EventView
	if n := len(p.g.Actions); since >= 0 && since < n && n-since <= MaxCatchUp {
		err = traced(p.g, since, func(t *tracedStep) { evs = append(evs, t.events()...) })
		if err != nil {
			return nil, nil, err
		}
	}
	return p.view(you(p.g, token)), evs, nil
}

// ActResult is the answer to an action: the game after it and the events of
// the action. The AI's answers follow as updates to the Notifier.
type ActResult struct {
	Game   *GameView   `json:"game"`
	Events []EventView `json:"events"`
	update Update      // what was published: the actor's view is made from it
}

// Act plays action for the holder of token, who must be seated at the side
// whose decision it is; ply is the number of actions the client saw (a stale
// ply is refused with EConflict).
func (s *Service) Act(ctx context.Context, id, token, action string, ply int) (*ActResult, error) {
	e := s.cache.entry(id)
	e.mu.Lock()
	res, err := s.actOn(ctx, e, id, token, action, ply, false)
	e.mu.Unlock()
	if err != nil {
		if ErrorCode(err) == ENotFound {
			s.cache.drop(id)
		}
		return nil, err
	}
	return res, nil
}

// actOn is Act on the cached game of e (locked). A check that fails on the
// cached game is made again on the stored game (fresh), which another
// instance may have changed.
func (s *Service) actOn(ctx context.Context, e *cacheEntry, id, token, action string, ply int, fresh bool) (*ActResult, error) {
	p, err := loaded(e, func() (*played, error) { return s.load(ctx, id) }, fresh)
	if err != nil {
		return nil, err
	}
	g, st := p.g, p.state()
	side, ok := seatSide(g, token)
	var refusal error
	switch {
	case !ok:
		refusal = Errorf(EForbidden, "no seat: a valid seat token is needed to act in game %s", id)
	case g.Over():
		refusal = Errorf(EConflict, "the game is over (%s, %s); no action can be played", g.Result, g.Reason)
	case ply != len(g.Actions):
		refusal = Errorf(EConflict, "stale ply %d: the game is at ply %d; reload it", ply, len(g.Actions))
	case st.ToMove() != side:
		refusal = Errorf(EForbidden, "it is %s's decision; your seat is %s", st.ToMove().Name(), side.Name())
	}
	if refusal != nil {
		if !fresh {
			return s.actOn(ctx, e, id, token, action, ply, true)
		}
		return nil, refusal
	}
	a, err := mancala.ParseAction(action)
	if err != nil {
		return nil, Errorf(EInvalid, "%s", mancala.Message(err))
	}
	res, err := s.apply(ctx, p, a)
	if err != nil {
		e.p = nil // p may be ahead of the store
		return nil, err
	}
	res.Game = res.update.ViewFor(side.String())
	s.kickAI(g) // under the entry's lock: the AI job changes g
	return res, nil
}

// apply plays a in p, stores it and publishes the update.
func (s *Service) apply(ctx context.Context, p *played, a mancala.Action) (*ActResult, error) {
	g, st := p.g, p.state()
	side := st.ToMove()
	now := s.clock.Now().UTC()
	if result, reason, ok := dueEnd(g, side, now); ok {
		// The time ran out before the action came: the game ends by it.
		if _, err := s.end(ctx, p, result, reason); err != nil && ErrorCode(err) != EConflict {
			return nil, err
		}
		return nil, Errorf(EConflict, "the game is over (%s, %s): %s's time ran out before the action; no action can be played", result, reason, side.Name())
	}
	south := mancala.Action(0) // South's choice of the simultaneous opening, for the events of North's
	if st.OpeningChoiceHidden() && len(g.Actions) > 0 {
		south, _ = mancala.ParseAction(g.Actions[len(g.Actions)-1].Action)
	}
	evs, err := st.Clone().ApplyTraced(a, nil)
	if err != nil {
		return nil, Errorf(EInvalid, "%s", mancala.Message(err))
	}
	if err := p.rec.Apply(a); err != nil {
		return nil, Errorf(EInternal, "action %s traced but refused: %v", a, err)
	}
	result, reason := "*", ""
	if st.IsOver() {
		result, reason = st.Outcome().Result.String(), st.Outcome().Reason.String()
	}
	m := Move{Ply: len(g.Actions), Action: a.String(), Side: side, At: now}
	stamp(g, &m, side, st.ToMove(), st.IsOver() || result != "*")
	// The write completes even if the client goes away.
	if err := s.store.AppendAction(context.WithoutCancel(ctx), g.ID, m, st.Turns(), result, reason); err != nil {
		return nil, err
	}
	g.Actions = append(g.Actions, m)
	g.Turns, g.Result, g.Reason, g.Updated = st.Turns(), result, reason, m.At
	g.ClockFrom, g.Deadline, g.Offer = m.At, m.Deadline, ""
	events := eventViews(evs, a, side, south)
	if openingHidden(g, st) {
		events = []EventView{} // South's secret choice changes nothing on the board
	}
	u := p.update(events)
	s.publish(ctx, g.ID, u)
	s.finished(ctx, g)
	return &ActResult{Game: u.Game, Events: u.Events, update: u}, nil
}
