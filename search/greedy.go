package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	"matombo/mancala"
)

// ErrNoAction is returned when a player is asked to choose in a state that
// offers no legal action.
var ErrNoAction = errors.New("search: no legal action to choose")

// OnePly returns the legal action after which the side to move has the most
// stones relative to the opponent: a win above everything, a loss below, a
// draw as even. Ties are broken by pick(k), which returns a number from 0 to
// k-1 uniformly (each tied action is kept with equal chance). It returns its
// best so far when ctx ends, having looked at one action at least.
//
// In the simultaneous Choro opening it never uses South's choice: it plays
// the best response, by the stones right after the openings, to an opponent
// who opens at random.
func OnePly(ctx context.Context, s *mancala.State, pick func(k int) int) (mancala.Action, error) {
	if s.InSimultaneousOpening() {
		return greedyOpening(s, s.ToMove(), pick)
	}
	legal := s.Legal(nil)
	if len(legal) == 0 {
		return 0, ErrNoAction
	}
	me := s.ToMove()
	best, bestScore, ties := legal[0], 0, 0
	child := s.Clone()
	for i, a := range legal {
		if i > 0 && ctx.Err() != nil {
			break
		}
		child.CopyFrom(s)
		if err := child.Apply(a); err != nil {
			continue
		}
		score := child.Stones(me) - child.Stones(me.Other())
		if child.IsOver() {
			switch w, ok := child.Outcome().Result.Winner(); {
			case !ok:
				score = 0
			case w == me:
				score = 1 << 20
			default:
				score = -1 << 20
			}
		}
		switch {
		case ties == 0 || score > bestScore:
			best, bestScore, ties = a, score, 1
		case score == bestScore:
			ties++
			if pick(ties) == 0 {
				best = a
			}
		}
	}
	return best, nil
}

// Greedy is the one-ply player (OnePly), ties broken at random from its seed,
// that now and then plays a uniformly random legal action instead: with
// probability Random (0: never, 1: always). It ignores the limits and returns
// its best so far when the context ends. It is safe for concurrent use.
type Greedy struct {
	random float64
	mu     sync.Mutex
	rng    *rand.Rand
}

// NewGreedy returns a Greedy player seeded with seed that plays a random
// legal action with probability random (clamped to 0..1).
func NewGreedy(seed uint64, random float64) *Greedy {
	return &Greedy{random: min(max(random, 0), 1), rng: rand.New(rand.NewPCG(seed, 0x67726565647921))}
}

// Choose implements Player.
func (g *Greedy) Choose(ctx context.Context, s *mancala.State, lim Limits) (mancala.Action, error) {
	if err := begin(s, lim); err != nil {
		return 0, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.random > 0 && g.rng.Float64() < g.random {
		legal := s.Legal(nil)
		if len(legal) == 0 {
			return 0, ErrNoAction
		}
		return legal[g.rng.IntN(len(legal))], nil
	}
	return OnePly(ctx, s, g.rng.IntN)
}
