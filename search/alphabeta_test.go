package search

import (
	"context"
	"testing"

	"matombo/mancala"
)

// minimax is plain negamax to depth d with the alpha-beta player's leaf
// evaluation, after q decisions of quiescence: no pruning, no table, no
// ordering.
func minimax(w *abWorker, s *mancala.State, d, q, ply int) int {
	if s.IsOver() {
		return terminalScore(s, ply)
	}
	if d == 0 {
		return quiesceMinimax(w, s, q, ply)
	}
	best := -infinity
	for _, a := range s.Legal(nil) {
		c := s.Clone()
		if err := c.Apply(a); err != nil {
			panic(err)
		}
		v := minimax(w, c, d-1, q, ply+1)
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
			if len(s.Legal(nil)) == 1 || s.InSimultaneousOpening() { // a matrix game there (opening_test.go)
				continue
			}
			if _, err := ab.Choose(context.Background(), s, Limits{Depth: d}); err != nil {
				t.Fatal(err)
			}
			w := ab.workers[0]
			want := minimax(w, s, d, 0, 0)
			if got := ab.LastStats().Score; got != want {
				t.Errorf("%s %q depth %d: alpha-beta %d, minimax %d", s.Ruleset(), s.Position(), d, got, want)
			}
		}
	}
}

// quiesceMinimax is quiesce without pruning: the static score or the best
// capture at the start of a turn, every choice inside one.
func quiesceMinimax(w *abWorker, s *mancala.State, q, ply int) int {
	if s.IsOver() {
		return terminalScore(s, ply)
	}
	legal := s.Legal(nil)
	if q == 0 || legal[0].Kind() == mancala.KindTake {
		w.states[ply].CopyFrom(s)
		return w.leaf(w.states[ply], ply)
	}
	best := -infinity
	if s.AtTurnStart() {
		best = w.cfg.Eval.Evaluate(s)
	}
	me, opp := s.ToMove(), s.ToMove().Other()
	for _, a := range legal {
		c := s.Clone()
		if err := c.Apply(a); err != nil {
			panic(err)
		}
		if s.AtTurnStart() && c.Stones(opp) >= s.Stones(opp) && !c.IsOver() && c.ToMove() != me {
			continue
		}
		v := quiesceMinimax(w, c, q-1, ply+1)
		if c.ToMove() != me {
			v = -v
		}
		best = max(best, v)
	}
	return best
}

func TestQuiescenceMatchesMinimax(t *testing.T) {
	changed := 0
	for _, s := range positions(t, 3) {
		if len(s.Legal(nil)) == 1 || s.InSimultaneousOpening() { // a matrix game there (opening_test.go)
			continue
		}
		for _, d := range []int{1, 2} {
			for _, q := range []int{1, 3} {
				cfg := DefaultAlphaBeta(1)
				cfg.Workers = 1 + d%2
				cfg.Quiesce = q
				ab, err := NewAlphaBeta(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := ab.Choose(context.Background(), s, Limits{Depth: d}); err != nil {
					t.Fatal(err)
				}
				want := minimax(ab.workers[0], s, d, q, 0)
				if got := ab.LastStats().Score; got != want {
					t.Errorf("%s %q depth %d quiesce %d: alpha-beta %d, minimax %d", s.Ruleset(), s.Position(), d, q, got, want)
				}
				if want != minimax(ab.workers[0], s, d, 0, 0) {
					changed++
				}
			}
		}
	}
	if changed == 0 {
		t.Error("the quiescence search changed no score: the test tests nothing")
	}
}
