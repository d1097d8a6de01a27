package search

import (
	"context"
	"testing"

	"matombo/mancala"
)

// TestSolveOpening checks the exact solution of the opening within a small
// horizon: each entry proven agrees with the solver on its position, and
// the value bounds hold the equilibria.
func TestSolveOpening(t *testing.T) {
	s := choroStart(t)
	sv, err := NewSolver(18)
	if err != nil {
		t.Fatal(err)
	}
	rounds := 0
	so, err := SolveOpening(context.Background(), s, sv, Limits{Depth: 5}, func(d int, so OpeningSolution) {
		rounds++
		if d != rounds || so.Horizon != d {
			t.Errorf("round %d reported horizon %d (%d)", rounds, d, so.Horizon)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rounds != 5 || so.Horizon != 5 || so.Proven() == 0 || so.Proven() == 64 {
		t.Fatalf("%d rounds to horizon %d, %d proven; want 5 rounds and some proven", rounds, so.Horizon, so.Proven())
	}
	_, _, after, _ := JointOpenings(s)
	check, _ := NewSolver(18)
	for i := range so.South {
		for j := range so.North {
			v := so.Entry(i, j)
			if v == Unknown {
				if so.Lower[i][j] >= so.Upper[i][j] {
					t.Errorf("entry (%d, %d): unknown with bounds %d..%d", i, j, so.Lower[i][j], so.Upper[i][j])
				}
				continue
			}
			sol, err := check.Solve(context.Background(), after[i][j], Limits{Depth: 5})
			if err != nil {
				t.Fatal(err)
			}
			want := sol.Value
			if after[i][j].ToMove() == mancala.North {
				want = -want
			}
			if v != want {
				t.Errorf("entry %s|%s: %s, the solver says %s for South", so.South[i], so.North[j], v, want)
			}
		}
	}
	if so.Low.Value > so.High.Value+1e-9 {
		t.Errorf("value bounds %v > %v", so.Low.Value, so.High.Value)
	}
	// Unproven entries cut as losses for South in Low, as wins in High.
	lowGame, highGame := make([][]float64, 8), make([][]float64, 8)
	for i := range lowGame {
		lowGame[i], highGame[i] = make([]float64, 8), make([]float64, 8)
		for j := range lowGame[i] {
			lowGame[i][j], highGame[i][j] = float64(so.Lower[i][j]+1)/2, float64(so.Upper[i][j]+1)/2
		}
	}
	checkEquilibrium(t, "low", lowGame, so.Low)
	checkEquilibrium(t, "high", highGame, so.High)
	// A node limit stops it early, with sound bounds.
	cut, err := SolveOpening(context.Background(), s, sv, Limits{Nodes: 5000}, nil)
	if err != nil || cut.Nodes < 5000 || cut.Nodes > 5000+2000 || cut.Horizon >= 5 {
		t.Errorf("a 5,000-node run: %d nodes, horizon %d (%v)", cut.Nodes, cut.Horizon, err)
	}
}
