package mancala

import (
	"fmt"
	"testing"
)

func TestLoopAndSpecialHoles(t *testing.T) {
	s, err := NewGame(MustParseRuleset("choro"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[Player]string{
		South: "[a1 a2 a3 a4 a5 a6 a7 a8 b8 b7 b6 b5 b4 b3 b2 b1]",
		North: "[c1 c2 c3 c4 c5 c6 c7 c8 d8 d7 d6 d5 d4 d3 d2 d1]",
	}
	special := map[Player]string{South: "[a1 b2]", North: "[d8 c7]"}
	for _, p := range []Player{South, North} {
		if got := fmt.Sprint(s.Loop(p)); got != want[p] {
			t.Errorf("%s's loop %s, want %s", p, got, want[p])
		}
		if got := fmt.Sprint(s.SpecialHoles(p)); got != special[p] {
			t.Errorf("%s's special holes %s, want %s", p, got, special[p])
		}
	}
	ts, err := NewGame(MustParseRuleset("tsoro size=6"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ts.Loop(North); len(got) != 12 || got[0].String() != "c1" || got[11].String() != "d1" {
		t.Errorf("tsoro size=6: North's loop %v", got)
	}
	if ts.SpecialHoles(South) != nil {
		t.Errorf("tsoro has special holes %v", ts.SpecialHoles(South))
	}
}
