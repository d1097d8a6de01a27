package app

import (
	"context"
	"time"

	"matombo/mancala"
)

// aiToMove reports whether the AI has the decision in g.
func aiToMove(p *played) bool {
	st := p.state()
	return !p.g.Over() && !st.IsOver() && p.g.Players[st.ToMove()].Kind == KindAI
}

// kickAI queues the AI's turn of g if the AI may be to move (the
// scheduler keeps one turn a game, and a running turn looks again).
func (s *Service) kickAI(g *Game) {
	if g.Over() || (g.Players[0].Kind != KindAI && g.Players[1].Kind != KindAI) {
		return
	}
	if !s.sched.kick(g.ID) {
		s.log.Warn("ai queue full or closed; the game waits for its next visit", "game", g.ID)
	}
}

// resumeAI is kickAI for a game changed elsewhere: by another instance, or
// by this one before a restart. The instance that makes a change thinks for
// the AI after it; another one starts only once the game has waited for
// the stall time since its last change with the AI to move (that instance
// stopped), and until then checks again when the time is up. So the AI
// of a game thinks on one instance, and a game is never left waiting.
func (s *Service) resumeAI(p *played) {
	if !aiToMove(p) {
		return
	}
	wait := s.stall - time.Since(p.g.Updated)
	if wait <= 0 {
		s.kickAI(p.g)
		return
	}
	id := p.g.ID
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.checking[id] {
		return
	}
	s.checking[id] = true
	time.AfterFunc(wait, func() {
		s.mu.Lock()
		delete(s.checking, id)
		s.mu.Unlock()
		s.pool.Submit(func(ctx context.Context) { s.checkStalled(ctx, id) }) // false once closed: nothing to resume
	})
}

// checkStalled reloads game id from the store and resumes its AI if it
// has stalled.
func (s *Service) checkStalled(ctx context.Context, id string) {
	e := s.cache.entry(id)
	e.mu.Lock()
	defer e.mu.Unlock()
	p, err := loaded(e, func() (*played, error) { return s.load(ctx, id) }, true)
	if err != nil {
		if ErrorCode(err) != ENotFound && ctx.Err() == nil {
			s.log.Warn("ai: check a waiting game", "game", id, "err", err)
		}
		return
	}
	s.resumeAI(p)
}

// playTurn plays the AI's decisions in game id until its turn ends, a human
// is to decide or the game is over, within the turn's time budget: the
// game level's TurnTime on a thinker (laneFull), quickTurnTime at
// min(level, QuickLevel) on a quick worker (laneQuick). It runs on the
// scheduler and reports whether the AI is still to move (its next turn, or
// the game changed meanwhile): the scheduler then queues it again.
func (s *Service) playTurn(ctx context.Context, id string, l lane) bool {
	load := func() (*played, error) { return s.load(ctx, id) }
	var (
		level, turn int
		deadline    time.Time
	)
	for first := true; ctx.Err() == nil; first = false {
		e := s.cache.entry(id)
		e.mu.Lock()
		p, err := loaded(e, load, false)
		if err != nil {
			e.mu.Unlock()
			s.log.Error("ai: load game", "game", id, "err", err)
			return false
		}
		if !aiToMove(p) {
			e.mu.Unlock()
			return false
		}
		st, ply := p.state().Clone(), len(p.g.Actions)
		if first {
			level, turn = p.g.Players[st.ToMove()].Level, st.Turns()
			budget := TurnTime(level)
			if l == laneQuick {
				s.log.Warn("ai: no thinker free in time; playing a turn at a cheaper level", "game", id, "level", level, "played_at", min(level, QuickLevel))
				level, budget = min(level, QuickLevel), quickTurnTime
			}
			deadline = time.Now().Add(budget)
		} else if st.Turns() != turn {
			e.mu.Unlock()
			return true // the AI's next turn: after the other games'
		}
		e.mu.Unlock()

		// Think without holding the game.
		a, ok := s.decide(ctx, id, st, level, time.Until(deadline))
		if !ok {
			return false
		}

		e.mu.Lock()
		p, err = loaded(e, load, false)
		if err != nil || len(p.g.Actions) != ply {
			// The game changed while the AI thought: look again.
			e.mu.Unlock()
			continue
		}
		_, err = s.apply(ctx, p, a)
		if err != nil {
			e.p = nil
		}
		e.mu.Unlock()
		if err != nil {
			if ErrorCode(err) != EConflict {
				s.log.Error("ai: apply", "game", id, "action", a.String(), "err", err)
			}
			return false
		}
	}
	return false
}

// decide searches the AI's action in st at level, with left of its turn's
// budget (decisionTime). A search that fails is made again at QuickLevel;
// if that fails too, no action is played (ok false) and the game waits for
// its next visit: an action is never played without a search.
func (s *Service) decide(ctx context.Context, id string, st *mancala.State, level int, left time.Duration) (mancala.Action, bool) {
	dctx, cancel := context.WithTimeout(ctx, decisionTime(left))
	a, err := s.choose(dctx, st, level)
	cancel()
	if err == nil || ctx.Err() != nil {
		return a, err == nil
	}
	s.sched.failed()
	s.log.Warn("ai: search failed; searching again at a cheaper level", "game", id, "level", level, "err", err)
	dctx, cancel = context.WithTimeout(ctx, quickTurnTime)
	a, err = s.choose(dctx, st, min(level, QuickLevel))
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			s.sched.failed()
			s.log.Error("ai: search failed again; the game waits for its next visit", "game", id, "err", err)
		}
		return 0, false
	}
	return a, true
}
