package search

import (
	"context"
	"testing"

	"matombo/mancala"
)

// minimax is plain negamax to depth d with the alpha-beta player's leaf
// evaluation: no pruning, no table, no ordering.
func minimax(w *abWorker, s *mancala.State, d, ply int) int {
	if s.IsOver() {
		return terminalScore(s, ply)
	}
	if d == 0 {
		w.states[ply].CopyFrom(s)
		return w.leaf(w.states[ply], ply)
	}
	best := -infinity
	for _, a := range s.Legal(nil) {
		c := s.Clone()
		if err := c.Apply(a); err != nil {
			panic(err)
		}
		v := minimax(w, c, d-1, ply+1)
		if c.ToMove() != s.ToMove() {
			v = -v
		}
		best = max(best, v)
	}
	return best
}

func TestAlphaBetaMatchesMinimax(t *testing.T) {
	for _, s := range positions(t, 3) {
		for _, d := range []int{1, 2, 3} {
			cfg := DefaultAlphaBeta(1)
			cfg.Workers = 1 + d%2
			ab, err := NewAlphaBeta(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Legal(nil)) == 1 {
				continue
			}
			if _, err := ab.Choose(context.Background(), s, Limits{Depth: d}); err != nil {
				t.Fatal(err)
			}
			w := ab.workers[0]
			want := minimax(w, s, d, 0)
			if got := ab.LastStats().Score; got != want {
				t.Errorf("%s %q depth %d: alpha-beta %d, minimax %d", s.Ruleset(), s.Position(), d, got, want)
			}
		}
	}
}
