package search

import (
	"context"
	"errors"
	"time"

	"matombo/mancala"
)

// OpeningSolution is what the exact solver proved about the simultaneous
// Choro opening as a matrix game. Each of the joint openings leads to a
// position of the main phase; Lower[i][j] and Upper[i][j] bound its value
// for South (-1 loss, 0 draw, +1 win; equal when proven). Low is the
// equilibrium of the game whose payoffs are South's expected scores (win 1,
// draw ½, loss 0) at the lower bounds, High at the upper bounds: the game's
// value for South lies between Low.Value and High.Value, South's Low.Row
// earns at least Low.Value against anything, and North's High.Col holds
// South to at most High.Value. When every entry is proven, Low and High are
// the same game.
type OpeningSolution struct {
	South, North []mancala.Action
	Lower, Upper [][]int
	Depth        [][]int // the horizon within which each entry was proven, or the last it was searched to
	Low, High    Equilibrium
	Nodes        int
	Horizon      int // the last horizon every unproven entry was searched to
}

// Proven returns how many entries are proven.
func (o OpeningSolution) Proven() int {
	n := 0
	for i := range o.Lower {
		for j := range o.Lower[i] {
			if o.Lower[i][j] == o.Upper[i][j] {
				n++
			}
		}
	}
	return n
}

// Entry returns the verdict for South of South's i and North's j: Win, Loss,
// Draw or Unknown.
func (o OpeningSolution) Entry(i, j int) Verdict {
	if o.Lower[i][j] != o.Upper[i][j] {
		return Unknown
	}
	return Verdict(o.Lower[i][j])
}

// RowBounds returns the bounds of South's pure choice i against a North who
// answers it best: the least of its row's bounds.
func (o OpeningSolution) RowBounds(i int) (lower, upper int) {
	lower, upper = 1, 1
	for j := range o.Lower[i] {
		lower, upper = min(lower, o.Lower[i][j]), min(upper, o.Upper[i][j])
	}
	return lower, upper
}

// OpeningProgress is called after each horizon round of SolveOpening with
// the horizon just searched and the solution so far.
type OpeningProgress func(horizon int, so OpeningSolution)

// SolveOpening solves the simultaneous opening at s as a matrix game by
// solving each position after the joint openings with sv. It searches in
// rounds of growing horizon: round d solves every entry not yet proven to a
// horizon of d decisions, so that the easy entries are proven first and
// the hard ones share the rest of the limits evenly. The limits (Nodes and
// MoveTime in all, Depth the largest horizon) and ctx stop it; what was
// proven by then is returned. progress, if not nil, is called after each
// round.
func SolveOpening(ctx context.Context, s *mancala.State, sv *Solver, lim Limits, progress OpeningProgress) (OpeningSolution, error) {
	if err := lim.Validate(); err != nil {
		return OpeningSolution{}, err
	}
	if sv == nil {
		return OpeningSolution{}, errors.New("search: SolveOpening needs a solver")
	}
	south, north, after, err := JointOpenings(s)
	if err != nil {
		return OpeningSolution{}, err
	}
	so := OpeningSolution{South: south, North: north}
	grid := func() [][]int {
		g := make([][]int, len(south))
		for i := range g {
			g[i] = make([]int, len(north))
		}
		return g
	}
	so.Lower, so.Upper, so.Depth = grid(), grid(), grid()
	open := 0
	for i := range south {
		for j := range north {
			st := after[i][j]
			if st.IsOver() {
				v := outcomeFor(st, mancala.South)
				so.Lower[i][j], so.Upper[i][j] = v, v
				continue
			}
			so.Lower[i][j], so.Upper[i][j] = -1, 1
			open++
		}
	}
	clk := newClock(ctx, lim)
	maxDepth := MaxDepth
	if lim.Depth > 0 {
		maxDepth = lim.Depth
	}
	for d := 1; d <= maxDepth && open > 0; d++ {
		complete := true
		for i := range south {
			for j := range north {
				if so.Lower[i][j] == so.Upper[i][j] {
					continue
				}
				if clk.expired() || (lim.Nodes > 0 && so.Nodes >= lim.Nodes) {
					complete = false
					break
				}
				el := Limits{Depth: d}
				if lim.Nodes > 0 {
					el.Nodes = lim.Nodes - so.Nodes
				}
				if clk.timed {
					el.MoveTime = max(time.Until(clk.deadline), time.Millisecond)
				}
				st := after[i][j]
				sol, err := sv.solveFrom(ctx, st, el, d) // horizon d-1 is done
				if err != nil {
					return so, err
				}
				so.Nodes += sol.Nodes
				lo, hi := -1, -1 // bounds proven by the passes that finished, even if a limit stopped the search
				for _, ab := range sol.Actions {
					lo, hi = max(lo, ab.Lower), max(hi, ab.Upper)
				}
				if st.ToMove() == mancala.North {
					lo, hi = -hi, -lo
				}
				so.Lower[i][j], so.Upper[i][j] = max(so.Lower[i][j], lo), min(so.Upper[i][j], hi)
				so.Depth[i][j] = max(so.Depth[i][j], sol.Depth)
				if so.Lower[i][j] == so.Upper[i][j] {
					so.Depth[i][j] = d // proven within horizon d, even if a limit stopped the rest
					open--
				} else if sol.Depth < d { // a limit stopped it within this horizon
					complete = false
					break
				}
			}
			if !complete {
				break
			}
		}
		if !complete {
			break
		}
		so.Horizon = d
		if progress != nil {
			if err := so.solveGames(); err != nil {
				return so, err
			}
			progress(d, so)
		}
	}
	return so, so.solveGames()
}

// solveGames fills Low and High from the bounds.
func (o *OpeningSolution) solveGames() error {
	score := func(g [][]int) [][]float64 {
		out := make([][]float64, len(g))
		for i, row := range g {
			out[i] = make([]float64, len(row))
			for j, v := range row {
				out[i][j] = float64(v+1) / 2
			}
		}
		return out
	}
	var err error
	if o.Low, err = SolveMatrixGame(score(o.Lower)); err != nil {
		return err
	}
	o.High, err = SolveMatrixGame(score(o.Upper))
	return err
}
