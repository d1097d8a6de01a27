package search_test

import (
	"context"
	"fmt"

	"matombo/mancala"
	"matombo/search"
)

// A level player chooses an action; with a depth or node limit the choice
// is reproducible.
func ExampleNewLevel() {
	s, _ := mancala.NewGame(mancala.MustParseRuleset("tsoro size=8"))
	p, err := search.NewLevel(4, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, err := p.Choose(context.Background(), s, search.Limits{})
	fmt.Println(a, err)
	// Output: a6 <nil>
}

// The endgame solver proves a position: here South's a5 ends in the empty
// b3 and takes North's last stones.
func ExampleSolver() {
	s, _ := mancala.NewGame(mancala.MustParseRuleset("tsoro size=6 heads=none bonus=0"))
	if err := s.SetPosition("0,0,0,0,0,0/0,0,3,0,0,0/0,0,0,0,0,0/2,0,0,0,5,0 S"); err != nil {
		fmt.Println(err)
		return
	}
	sv, _ := search.NewSolver(12)
	sol, _ := sv.Solve(context.Background(), s, search.Limits{Depth: 4})
	fmt.Println(sol.Value, sol.Best)
	// Output: win a5
}
