package search

import (
	"context"
	"errors"

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
