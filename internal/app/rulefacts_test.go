package app

import (
	"fmt"
	"testing"

	"matombo/mancala"
)

// TestViewsCarryTheRuleFacts: the views say which holes are special, each
// side's rows and loop, the opening, and the hole a mid-turn decision is
// about, from the engine.
func TestViewsCarryTheRuleFacts(t *testing.T) {
	v, err := PositionView("choro", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(v.SpecialHoles); got != "[a1 b2 d8 c7]" || !v.SimultaneousOpening {
		t.Errorf("choro: special holes %s, simultaneous %v", got, v.SimultaneousOpening)
	}
	s, n := v.Sides["S"], v.Sides["N"]
	if s.Outer != "a" || s.Inner != "b" || n.Outer != "d" || n.Inner != "c" {
		t.Errorf("choro: rows %+v %+v", s, n)
	}
	if fmt.Sprint(s.Loop) != "[a1 a2 a3 a4 a5 a6 a7 a8 b8 b7 b6 b5 b4 b3 b2 b1]" || fmt.Sprint(n.Special) != "[d8 c7]" {
		t.Errorf("choro: South's loop %v, North's special holes %v", s.Loop, n.Special)
	}
	v, err = PositionView("choro opening=sequential cw=any leave=no", "")
	if err != nil {
		t.Fatal(err)
	}
	if v.SimultaneousOpening || len(v.SpecialHoles) != 4 {
		t.Errorf("the DLP reading: simultaneous %v, special holes %v", v.SimultaneousOpening, v.SpecialHoles)
	}
	v, err = PositionView("tsoro size=6", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.SpecialHoles) != 0 || v.SpecialHoles == nil || len(v.Sides["N"].Loop) != 12 || v.SimultaneousOpening || v.PendingHole != "" {
		t.Errorf("tsoro size=6: %+v", v.RuleFacts)
	}

	// Play the first legal action until a Choro lap decision: its hole is
	// the view's pending hole.
	st, err := mancala.NewGame(mancala.DLPChoro())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 400 && st.Decision().Kind != mancala.DecisionLap; i++ {
		legal := st.Legal(nil)
		if len(legal) == 0 {
			break
		}
		if err := st.Apply(legal[i%len(legal)]); err != nil {
			t.Fatal(err)
		}
	}
	d := st.Decision()
	if d.Kind != mancala.DecisionLap {
		t.Fatal("no lap decision reached")
	}
	var pv GameView
	positionView(&pv, st)
	if pv.Decision != "direction" || pv.PendingHole != d.Hole.String() || pv.PendingHole == "" {
		t.Errorf("lap decision: decision %q, pending hole %q, want %s", pv.Decision, pv.PendingHole, d.Hole)
	}
}
