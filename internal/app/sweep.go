package app

import (
	"context"
	"sync"
	"time"

	"matombo/mancala"
)

// The sweeper ends the games that are due to end with nobody there: the
// flags and correspondence turns that passed their time, the real-time
// games whose first turns were not played within StartWindow, and the
// games without a clock nobody acted in for AbandonAfter (abandonedResult).
// Each instance sweeps every SweepEvery; an end is stored by Finish, which
// is conditional on the game being in play at the ply it was judged at, so
// with several instances on one database each game ends once, on the
// instance whose write commits first (the others' fail with EConflict and
// say nothing), and only that instance tells the FinishListener.

// SweepEvery is how often an instance looks for games due to end: a flag
// is stored at most this long after the time ran out.
const SweepEvery = time.Second

// sweepBatch is the most games one sweep looks at (the next sweep takes
// the rest).
const sweepBatch = 100

// sweepTimeout bounds one sweep.
const sweepTimeout = 30 * time.Second

// sweepRetry is how long a game the sweep failed to end (a store error, a
// stored game that does not replay) is left before it is tried again, so
// that it neither fills the log every second nor holds the others back.
const sweepRetry = 10 * time.Minute

// maxSweepFailures bounds the games remembered as failed (the oldest
// failure is forgotten first).
const maxSweepFailures = 1000

// sweeper runs the sweeps on the service's clock.
type sweeper struct {
	mu      sync.Mutex
	timer   Timer
	stopped bool
	running sync.WaitGroup
}

// StartSweeping starts ending the games due to end, every SweepEvery on
// the service's clock, until StopSweeping or Close. It does nothing if the
// store keeps no clocks, or if it is sweeping already.
func (s *Service) StartSweeping() {
	if s.clocks == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sweeper != nil || s.closed {
		return
	}
	sw := &sweeper{}
	s.sweeper = sw
	s.scheduleSweep(sw)
}

// scheduleSweep arms sw's next sweep.
func (s *Service) scheduleSweep(sw *sweeper) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.stopped {
		return
	}
	sw.running.Add(1)
	sw.timer = s.clock.AfterFunc(SweepEvery, func() {
		defer sw.running.Done()
		ctx, cancel := context.WithTimeout(context.Background(), sweepTimeout)
		if _, err := s.Sweep(ctx); err != nil {
			s.log.Warn("clock: sweep the games due to end", "err", err)
		}
		cancel()
		s.scheduleSweep(sw)
	})
}

// StopSweeping stops the sweeps and waits for the one running, if any.
func (s *Service) StopSweeping() {
	s.mu.Lock()
	sw := s.sweeper
	s.mu.Unlock()
	if sw == nil {
		return
	}
	sw.mu.Lock()
	sw.stopped = true
	if sw.timer != nil && sw.timer.Stop() {
		sw.running.Done() // its sweep will not run
	}
	sw.mu.Unlock()
	sw.running.Wait()
}

// Sweep ends the games due to end now, by the service's clock, and returns
// how many this call ended (a game another instance ended first is not
// counted).
func (s *Service) Sweep(ctx context.Context) (int, error) {
	if s.clocks == nil {
		return 0, nil
	}
	now := s.clock.Now().UTC()
	failed := s.sweepFailures(now)
	ids, err := s.clocks.DueGames(ctx, now, now.Add(-AbandonAfter), sweepBatch+len(failed))
	if err != nil {
		return 0, err
	}
	ended := 0
	for _, id := range ids {
		if _, skip := failed[id]; skip {
			continue
		}
		ok, err := s.sweepGame(ctx, id)
		if err != nil {
			s.log.Warn("clock: end a game due to end; trying again later", "game", id, "retry_in", sweepRetry, "err", err)
			s.sweepFailed(id, now)
			continue
		}
		if ok {
			ended++
		}
	}
	return ended, ctx.Err()
}

// sweepFailures returns the games whose end failed within sweepRetry of
// now, forgetting the older failures.
func (s *Service) sweepFailures(now time.Time) map[string]time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]time.Time{}
	for id, at := range s.sweepFails {
		if now.Sub(at) >= sweepRetry {
			delete(s.sweepFails, id)
			continue
		}
		out[id] = at
	}
	return out
}

// sweepFailed remembers that ending game id failed at now.
func (s *Service) sweepFailed(id string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sweepFails == nil {
		s.sweepFails = map[string]time.Time{}
	}
	if len(s.sweepFails) >= maxSweepFailures {
		oldest, at := "", now
		for k, t := range s.sweepFails {
			if t.Before(at) {
				oldest, at = k, t
			}
		}
		delete(s.sweepFails, oldest)
	}
	s.sweepFails[id] = now
}

// sweepGame ends game id if it is due to end now, and reports whether
// this call ended it.
func (s *Service) sweepGame(ctx context.Context, id string) (bool, error) {
	e := s.cache.entry(id)
	e.mu.Lock()
	defer e.mu.Unlock()
	p, err := loaded(e, func() (*played, error) { return s.load(ctx, id) }, true)
	if err != nil {
		if ErrorCode(err) == ENotFound {
			s.cache.drop(id)
			return false, nil
		}
		return false, err
	}
	result, reason, ok := dueEnd(p.g, p.state().ToMove(), s.clock.Now())
	if !ok {
		return false, nil
	}
	_, err = s.end(ctx, p, result, reason)
	switch {
	case ErrorCode(err) == EConflict:
		return false, nil // it changed, or another instance ended it: the next sweep judges it again if needed
	case err != nil:
		return false, err
	}
	s.log.Info("clock: a game ended by its time", "game", id, "result", result, "reason", reason)
	return true, nil
}

// end stores the end of p's game, in play with its actions, as result for
// reason, and tells its clients and the FinishListener; EConflict if the
// game moved on or ended meanwhile.
func (s *Service) end(ctx context.Context, p *played, result, reason string) (*GameView, error) {
	g := p.g
	if err := s.store.Finish(context.WithoutCancel(ctx), g.ID, len(g.Actions), result, reason); err != nil {
		return nil, err
	}
	s.cache.drop(g.ID)
	g.Result, g.Reason, g.Updated, g.Offer = result, reason, s.clock.Now().UTC(), ""
	if r, err := mancala.ParseResult(result); err == nil {
		p.rec.SetResult(r)
	}
	v := p.view("")
	s.publish(ctx, g.ID, Update{Game: v})
	s.finished(ctx, g)
	return v, nil
}
