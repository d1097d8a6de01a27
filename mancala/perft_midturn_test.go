package mancala_test

import (
	"math/rand/v2"
	"testing"

	"matombo/mancala"
)

// TestPerftMidTurn checks the engine's perft from positions in the middle of
// a game against the reference implementation's: decisions within a turn (a
// head pending, picks or removals due, a Choro lap decision, North's choice
// of the simultaneous opening) and a turn cut by the 1,000-lap limit. Each
// position is found by seeded random play, so the test is the same on every
// run.
func TestPerftMidTurn(t *testing.T) {
	const depth = 3
	for _, c := range []struct {
		name, ruleset string
		hit           func(s *mancala.State, before mancala.Stats) bool
	}{
		{"head", "tsoro size=8", kindIs(mancala.DecisionHead)},
		{"picks", "tsoro size=8 heads=none bonus=3", kindIs(mancala.DecisionPick)},
		{"removal", "nsolo", kindIs(mancala.DecisionRemove)},
		{"choro direction", "choro opening=sequential cw=any leave=no", kindIs(mancala.DecisionLap)},
		{"choro switch", "choro", func(s *mancala.State, _ mancala.Stats) bool {
			d := s.Decision()
			return d.Kind == mancala.DecisionLap && d.Switch != 0
		}},
		{"choro other holes", "choro cw=any", func(s *mancala.State, _ mancala.Stats) bool {
			return s.Decision().OtherHoles
		}},
		{"choro opening", "choro", kindIs(mancala.DecisionOpening)},
		{"lap limit", "nsolo", func(s *mancala.State, before mancala.Stats) bool {
			return s.Stats().LapCuts > before.LapCuts
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			actions, ok := findPosition(t, c.ruleset, c.hit)
			if !ok {
				t.Fatalf("no random game of %s reached a %s position", c.ruleset, c.name)
			}
			if c.name == "lap limit" { // perft from just before the cut turn's action
				actions = actions[:len(actions)-1]
			}
			s := game(t, c.ruleset, "")
			ref := newRef(mancala.MustParseRuleset(c.ruleset))
			for _, a := range actions {
				if err := s.Apply(a); err != nil {
					t.Fatal(err)
				}
				if err := ref.play(a.String()); err != nil {
					t.Fatal(err)
				}
			}
			if s.IsOver() || len(s.Legal(nil)) < 2 {
				t.Fatalf("the %s position %s offers %v: nothing to count", c.name, s.Position(), s.Legal(nil))
			}
			for d := 1; d <= depth; d++ {
				if got, want := mancala.Perft(s, d), refPerft(ref, d); got != want {
					t.Fatalf("after %d actions (%s): perft(%d) = %d, reference %d", len(actions), s.Position(), d, got, want)
				}
			}
		})
	}
}

func kindIs(k mancala.DecisionKind) func(*mancala.State, mancala.Stats) bool {
	return func(s *mancala.State, _ mancala.Stats) bool { return s.Decision().Kind == k }
}

// findPosition plays seeded random games of rs until hit holds after an
// action, and returns the actions played up to there.
func findPosition(t *testing.T, rs string, hit func(*mancala.State, mancala.Stats) bool) ([]mancala.Action, bool) {
	t.Helper()
	s := game(t, rs, "")
	var legal []mancala.Action
	for seed := uint64(1); seed <= 3000; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s.Reset()
		var played []mancala.Action
		for !s.IsOver() {
			legal = s.Legal(legal[:0])
			a := legal[rng.IntN(len(legal))]
			before := s.Stats()
			if err := s.Apply(a); err != nil {
				t.Fatal(err)
			}
			played = append(played, a)
			if hit(s, before) {
				return played, true
			}
		}
	}
	return nil, false
}
