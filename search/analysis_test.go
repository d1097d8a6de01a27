package search

import (
	"context"
	"slices"
	"testing"

	"matombo/mancala"
)

func TestJudgeThresholds(t *testing.T) {
	at := func(south float64) Chance { return Chance{South: south} }
	won, lost, drawn := Chance{South: 1, Proven: true}, Chance{South: 0, Proven: true}, Chance{South: 0.5, Proven: true}
	for _, tc := range []struct {
		name          string
		mover         mancala.Player
		before, after Chance
		best          bool
		drop          float64
		want          Judgement
	}{
		{"9.9 points", mancala.South, at(0.60), at(0.501), false, 9.9, Good},
		{"10 points", mancala.South, at(0.60), at(0.50), false, 10, Inaccuracy},
		{"19.9 points", mancala.South, at(0.60), at(0.401), false, 19.9, Inaccuracy},
		{"20 points", mancala.South, at(0.60), at(0.40), false, 20, Mistake},
		{"30 points", mancala.South, at(0.60), at(0.30), false, 30, Blunder},
		{"North's drop is South's gain", mancala.North, at(0.30), at(0.55), false, 25, Mistake},
		{"a gain", mancala.South, at(0.40), at(0.70), false, -30, Good},
		{"the best turn is never judged", mancala.South, at(0.90), at(0.20), true, 70, Good},
		{"a proven win thrown into a draw", mancala.South, won, drawn, false, 50, Blunder},
		{"a proven win to a likely win is judged by the drop", mancala.South, won, at(0.95), false, 5, Good},
		{"North throws a proven win away", mancala.North, lost, Chance{South: 0.96, Proven: true}, false, 96, Blunder},
		{"a proven win kept", mancala.South, won, won, false, 0, Good},
	} {
		drop, j := Judge(tc.mover, tc.before, tc.after, tc.best)
		if j != tc.want || drop < tc.drop-1e-9 || drop > tc.drop+1e-9 {
			t.Errorf("%s: drop %.4f, %q; want %.1f, %q", tc.name, drop, j, tc.drop, tc.want)
		}
	}
}

func TestChanceString(t *testing.T) {
	for c, want := range map[Chance]string{
		{South: 0.5731}:              "57.3%",
		{South: 1, Proven: true}:     "South wins: proven",
		{South: 0, Proven: true}:     "North wins: proven",
		{South: 0.5, Proven: true}:   "draw: proven",
		{South: 0.005, Score: -2000}: "0.5%",
	} {
		if got := c.String(); got != want {
			t.Errorf("%+v: %q, want %q", c, got, want)
		}
	}
}

// playRecord plays n turns of level-2 self-play on rs and returns the record.
func playRecord(t *testing.T, rs mancala.Ruleset, n int) *mancala.Record {
	t.Helper()
	s, err := mancala.NewGame(rs)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := mancala.NewRecorder(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewLevel(2, 9)
	if err != nil {
		t.Fatal(err)
	}
	for rec.State().Turns() < n && !rec.State().IsOver() {
		a, err := p.Choose(context.Background(), rec.State(), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	return rec.Record()
}

func TestAnalyseGame(t *testing.T) {
	rec := playRecord(t, mancala.Default(mancala.Nsolo), 12)
	cfg := AnalysisConfig{Limits: Limits{Nodes: 20_000}}
	rev, err := AnalyseGame(context.Background(), rec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Turns) != len(rec.Turns) {
		t.Fatalf("%d turns reviewed, the record has %d", len(rev.Turns), len(rec.Turns))
	}
	for i, tr := range rev.Turns {
		if tr.Turn != i+1 || !slices.Equal(tr.Actions, rec.Turns[i]) || tr.Before.South < 0 || tr.Before.South > 1 {
			t.Errorf("turn %d: %+v", i+1, tr)
		}
		if i > 0 && tr.Before != rev.Turns[i-1].After {
			t.Errorf("turn %d starts at %v, the turn before ended at %v", i+1, tr.Before, rev.Turns[i-1].After)
		}
		if len(tr.Best) == 0 || len(tr.PV) == 0 || !slices.Equal(tr.Best, tr.PV[0]) {
			t.Errorf("turn %d: best %v, line %v", i+1, tr.Best, tr.PV)
		}
	}
	if rev.Turns[0].Number != "1." || rev.Turns[1].Number != "1..." || rev.Turns[2].Number != "2." {
		t.Errorf("move numbers %q %q %q", rev.Turns[0].Number, rev.Turns[1].Number, rev.Turns[2].Number)
	}
	again, err := AnalyseGame(context.Background(), rec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rev.Turns {
		if rev.Turns[i].After != again.Turns[i].After || !slices.Equal(rev.Turns[i].Best, again.Turns[i].Best) {
			t.Fatalf("turn %d differs between two reviews with a node limit", i+1)
		}
	}
}

// TestPrincipalVariation: the line starts with the chosen action, plays
// legally and reaches as far as the search's depth.
func TestPrincipalVariation(t *testing.T) {
	s, _ := mancala.NewGame(mancala.Default(mancala.Tsoro))
	ab, err := NewAlphaBeta(AlphaBetaConfig{Workers: 2, TableBits: 16, Limits: Limits{Depth: 6}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := ab.Choose(context.Background(), s, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	pv := ab.PrincipalVariation(s, a, 20)
	if len(pv) < 4 || pv[0] != a {
		t.Fatalf("line %v from %v, want 4 decisions or more from it", pv, a)
	}
	c := s.Clone()
	for _, x := range pv {
		if err := c.Apply(x); err != nil {
			t.Fatalf("line %v: %v", pv, err)
		}
	}
	if got := SplitTurns(s, pv); len(got) == 0 || len(slices.Concat(got...)) != len(pv) {
		t.Errorf("turns %v of line %v", got, pv)
	}
	if ab.PrincipalVariation(s, mancala.Stop, 20) != nil {
		t.Error("a line from an illegal action should be empty")
	}
}

// TestEvaluateProvesEndgames: a position the solver proves is certain.
func TestEvaluateProvesEndgames(t *testing.T) {
	rs, err := mancala.ParseRuleset("tsoro size=6 heads=none bonus=0")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := mancala.NewGame(rs)
	if err := s.SetPosition("0,0,0,0,0,0/0,0,3,0,0,0/0,0,0,0,0,0/2,0,0,0,5,0 S"); err != nil {
		t.Fatal(err)
	}
	an, err := NewAnalyst(AnalysisConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := an.Evaluate(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Chance.Proven || ev.Chance.South != 1 || ev.Best.String() != "a5" || ev.Chance.String() != "South wins: proven" {
		t.Errorf("evaluation %+v, want South's proven win by a5", ev)
	}
}

func TestFormatLine(t *testing.T) {
	a := func(s string) mancala.Action {
		x, err := mancala.ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	turns := [][]mancala.Action{{a("c3")}, {a("a4"), a("xc2")}, {a("d1")}, {a("b2")}}
	if got, want := FormatLine("12...", mancala.North, turns), "12... c3 13. a4,xc2 d1 14. b2"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := FormatLine("3.", mancala.South, turns[:2]), "3. c3 a4,xc2"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestReviewOpening judges the choices of a simultaneous opening against a
// matching-pennies-like game whose value is 50%: South's pure choices each
// get 50% against North's even mix, North's second column is dominated.
func TestReviewOpening(t *testing.T) {
	a6, a7 := mancala.HoleAction(mustHole(t, "a6")), mancala.HoleAction(mustHole(t, "a7"))
	d3, d4, d5 := mancala.HoleAction(mustHole(t, "d3")), mancala.HoleAction(mustHole(t, "d4")), mancala.HoleAction(mustHole(t, "d5"))
	payoff := [][]float64{{0.8, 0.9, 0.2}, {0.2, 0.95, 0.8}}
	eq, err := SolveMatrixGame(payoff)
	if err != nil {
		t.Fatal(err)
	}
	g := OpeningGame{South: []mancala.Action{a6, a7}, North: []mancala.Action{d3, d4, d5}, Payoff: payoff, Equilibrium: eq}
	rev, err := reviewOpening(g, a6, d4)
	if err != nil {
		t.Fatal(err)
	}
	s, n := rev.Sides[0], rev.Sides[1]
	if rev.Value < 0.5-1e-9 || rev.Value > 0.5+1e-9 || s.Judgement != Good || s.Drop > 1e-9 {
		t.Errorf("South: value %v, %+v", rev.Value, s)
	}
	// d4 against South's even mix gives South 92.5%: North loses 42.5 points.
	if n.Judgement != Blunder || n.Drop < 42.5-1e-9 || n.Drop > 42.5+1e-9 || n.Chance < 0.925-1e-9 || n.Best == d4 {
		t.Errorf("North: %+v", n)
	}
	if _, err := reviewOpening(g, a6, a7); err == nil {
		t.Error("a choice that is not North's should be refused")
	}
}

func mustHole(t *testing.T, s string) mancala.Hole {
	t.Helper()
	h, err := mancala.ParseHole(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
