package search

import (
	"context"
	"errors"
	"testing"

	"matombo/mancala"
)

// TestOnePly: the only capturing action wins over the others, ties go to
// pick, and a finished game has nothing to choose.
func TestOnePly(t *testing.T) {
	s, _ := mancala.NewGame(mancala.MustParseRuleset("tsoro size=6 heads=none bonus=0"))
	// a6 (2) ends in b5 and captures c5 and d5; a1 (2) ends in a3, no capture.
	if err := s.SetPosition("2,2,0,0,2,0/1,0,0,0,3,0/0,0,0,0,0,0/2,0,0,0,0,2 S"); err != nil {
		t.Fatal(err)
	}
	a, err := OnePly(context.Background(), s, func(int) int { t.Fatal("no tie to break"); return 0 })
	if err != nil || a.String() != "a6" {
		t.Fatalf("OnePly chose %v (%v), want the capture a6", a, err)
	}
	// From the start every action keeps the count: a tie among all eight.
	s, _ = mancala.NewGame(mancala.MustParseRuleset("tsoro size=8 heads=none bonus=0"))
	calls := 0
	a, _ = OnePly(context.Background(), s, func(k int) int { calls++; return 0 })
	if calls != 7 || a.String() != "a8" {
		t.Fatalf("pick called %d times, chose %v; want 7 calls and the last tied action a8", calls, a)
	}
	if err := s.SetPosition("2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1 S"); err != nil {
		t.Fatal(err)
	}
	if _, err := OnePly(context.Background(), s, nil); !errors.Is(err, ErrNoAction) {
		t.Fatalf("finished game: %v", err)
	}
}

// TestGreedyOpeningIgnoresSouthsChoice checks OnePly, which the protocol's
// default chooser uses, the same way.
func TestGreedyOpeningIgnoresSouthsChoice(t *testing.T) {
	s := choroStart(t)
	var first mancala.Action
	for i, a := range s.Legal(nil) {
		mid := s.Clone()
		if err := mid.Apply(a); err != nil {
			t.Fatal(err)
		}
		b, err := OnePly(context.Background(), mid, func(int) int { return 0 })
		if err != nil || !isLegal(mid, b) {
			t.Fatalf("after %s: %s (%v)", a, b, err)
		}
		if i > 0 && b != first {
			t.Errorf("North chose %s after South's %s, %s before", b, a, first)
		}
		first = b
	}
}

// TestGreedyLevelsPlayLegally: the greedy stand-ins of every level play
// whole games of every preset legally.
func TestGreedyLevelsPlayLegally(t *testing.T) {
	levels := NewGreedyLevels(1)
	for _, rs := range mancala.Presets() {
		for level := MinLevel; level <= MaxLevel; level++ {
			s, _ := mancala.NewGame(rs)
			for n := 0; n < 400 && !s.IsOver(); n++ {
				a, err := levels[level].Choose(context.Background(), s, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Apply(a); err != nil {
					t.Fatalf("%s level %d: %v", rs, level, err)
				}
			}
		}
	}
}
