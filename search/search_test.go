package search

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"matombo/mancala"
)

// positions returns a few positions of every preset reached by seeded random
// play, the decisions inside turns included.
func positions(t testing.TB, perPreset int) []*mancala.State {
	t.Helper()
	var out []*mancala.State
	rng := rand.New(rand.NewPCG(7, 7))
	for _, rs := range mancala.Presets() {
		s, err := mancala.NewGame(rs)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s.Clone())
		var buf []mancala.Action
		for len(out) < cap(out) || true {
			if s.IsOver() {
				s.Reset()
			}
			buf = s.Legal(buf[:0])
			if err := s.Apply(buf[rng.IntN(len(buf))]); err != nil {
				t.Fatal(err)
			}
			if !s.IsOver() && rng.IntN(6) == 0 {
				out = append(out, s.Clone())
				if countRuleset(out, rs) >= perPreset {
					break
				}
			}
		}
	}
	return out
}

func countRuleset(states []*mancala.State, rs mancala.Ruleset) int {
	n := 0
	for _, s := range states {
		if s.Ruleset() == rs {
			n++
		}
	}
	return n
}

func isLegal(s *mancala.State, a mancala.Action) bool {
	for _, l := range s.Legal(nil) {
		if l == a {
			return true
		}
	}
	return false
}

func testPlayers(t *testing.T) map[string]func(seed uint64) Player {
	return map[string]func(uint64) Player{
		"random": func(seed uint64) Player { return NewRandom(seed) },
		"uct": func(seed uint64) Player {
			m, err := NewMCTS(PlainUCT(seed))
			if err != nil {
				t.Fatal(err)
			}
			return m
		},
		"mcts": func(seed uint64) Player {
			m, err := NewMCTS(DefaultMCTS(seed))
			if err != nil {
				t.Fatal(err)
			}
			return m
		},
		"alphabeta": func(seed uint64) Player {
			ab, err := NewAlphaBeta(DefaultAlphaBeta(seed))
			if err != nil {
				t.Fatal(err)
			}
			return ab
		},
		"alphabeta with quiescence": func(seed uint64) Player {
			cfg := DefaultAlphaBeta(seed)
			cfg.Quiesce = levelSpecs[MaxLevel].Quiesce
			ab, err := NewAlphaBeta(cfg)
			if err != nil {
				t.Fatal(err)
			}
			return ab
		},
	}
}

// limitsFor gives each kind of player a small deterministic budget.
var smallLimits = Limits{Playouts: 64, Nodes: 3000}

func TestPlayersChooseLegalActions(t *testing.T) {
	ps := positions(t, 6)
	for name, mk := range testPlayers(t) {
		p := mk(1)
		for _, s := range ps {
			before := s.Position()
			a, err := p.Choose(context.Background(), s, smallLimits)
			if err != nil {
				t.Fatalf("%s on %s %q: %v", name, s.Ruleset(), before, err)
			}
			if !isLegal(s, a) {
				t.Fatalf("%s on %s %q chose %s, which is not legal", name, s.Ruleset(), before, a)
			}
			if s.Position() != before {
				t.Fatalf("%s changed the state it was given", name)
			}
		}
	}
}

func TestPlayersAreReproducible(t *testing.T) {
	ps := positions(t, 3)
	for name, mk := range testPlayers(t) {
		for _, s := range ps {
			a1, err1 := mk(42).Choose(context.Background(), s, smallLimits)
			p := mk(42)
			p.Choose(context.Background(), ps[0], smallLimits) // history must not matter
			a2, err2 := p.Choose(context.Background(), s, smallLimits)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if a1 != a2 {
				t.Errorf("%s on %s %q: seed 42 chose %s then %s", name, s.Ruleset(), s.Position(), a1, a2)
			}
		}
	}
}

func TestGameOverIsAnError(t *testing.T) {
	s, _ := mancala.NewGame(mancala.MustParseRuleset("tsoro size=6 heads=none"))
	if err := s.SetPosition("2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 S"); err != nil {
		t.Fatal(err)
	}
	if !s.IsOver() {
		t.Fatal("a side with no stones should have lost")
	}
	for name, mk := range testPlayers(t) {
		if _, err := mk(1).Choose(context.Background(), s, smallLimits); err != ErrGameOver {
			t.Errorf("%s: got %v, want ErrGameOver", name, err)
		}
	}
}

// slack bounds how long a search may overrun its time: generous, because
// the machine running the tests may be loaded, and far below the minute a
// search ignoring its limit would take.
const slack = 5 * time.Second

func TestCancellationStopsSearch(t *testing.T) {
	s, _ := mancala.NewGame(mancala.Default(mancala.Tsoro))
	for name, mk := range testPlayers(t) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		start := time.Now()
		a, err := mk(1).Choose(ctx, s, Limits{MoveTime: time.Minute})
		cancel()
		if el := time.Since(start); el > slack {
			t.Errorf("%s took %v after a 50 ms context", name, el)
		}
		if err != nil || !isLegal(s, a) {
			t.Errorf("%s: %s, %v", name, a, err)
		}
	}
}

func TestMoveTimeIsRespected(t *testing.T) {
	s, _ := mancala.NewGame(mancala.Default(mancala.Nsolo))
	for name, mk := range testPlayers(t) {
		start := time.Now()
		if _, err := mk(1).Choose(context.Background(), s, Limits{MoveTime: 60 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		if el := time.Since(start); el > slack {
			t.Errorf("%s took %v for a 60 ms move time", name, el)
		}
	}
}

func TestForeignLimitsFallBackToDefaults(t *testing.T) {
	s, _ := mancala.NewGame(mancala.Default(mancala.Nsolo))
	mc := DefaultMCTS(1)
	mc.Limits = Limits{Playouts: 50}
	m, _ := NewMCTS(mc)
	if _, err := m.Choose(context.Background(), s, Limits{Nodes: 1_000_000, Depth: 3}); err != nil {
		t.Fatal(err)
	}
	if got := m.LastStats().Playouts; got != 50 {
		t.Errorf("tree search with only alpha-beta limits ran %d playouts, want its default 50", got)
	}
	ac := DefaultAlphaBeta(1)
	ac.Limits = Limits{Depth: 2}
	ab, _ := NewAlphaBeta(ac)
	if _, err := ab.Choose(context.Background(), s, Limits{Playouts: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	if got := ab.LastStats().Depth; got != 2 {
		t.Errorf("alpha-beta with only a playout limit searched to depth %d, want its default 2", got)
	}
}
