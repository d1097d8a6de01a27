package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// solveSimultaneous is what matombo solve proved of the simultaneous Choro
// opening, a matrix game: the verdict for South of each joint opening, an
// equilibrium strategy of each player and the bounds of South's value
// (expected score: win 1, draw ½, loss 0). South's mix earns at least
// ValueLow whatever North does, North's holds South to at most ValueHigh;
// they are equal when the value is proven.
type solveSimultaneous struct {
	Joint     []solveJoint       `json:"joint"`
	SouthMix  map[string]float64 `json:"south_mix"`
	NorthMix  map[string]float64 `json:"north_mix"`
	ValueLow  float64            `json:"value_low"`  // unproven entries at their lower bounds (unknown: a loss for South)
	ValueHigh float64            `json:"value_high"` // at their upper bounds (unknown: a win for South)
	Proven    int                `json:"proven"`     // entries proven, of len(Joint)
}

// solveJoint is one joint opening: South's choice, North's, and the value
// for South of the position after both: win, loss, draw or unknown.
type solveJoint struct {
	South string `json:"south"`
	North string `json:"north"`
	Value string `json:"value"`
	Depth int    `json:"depth"` // the horizon it was proven at, or searched to
}

// solveOpening solves the simultaneous opening at s as a matrix game and
// fills rep.
func solveOpening(ctx context.Context, e *env, s *mancala.State, bits int, lim search.Limits, progress bool, rep *solveReport) error {
	sv, err := search.NewSolver(bits)
	if err != nil {
		return err
	}
	start := time.Now()
	var report search.OpeningProgress
	if progress {
		report = func(d int, so search.OpeningSolution) {
			fmt.Fprintf(e.stderr, "horizon %d: %d of %d proven, South's value %s to %s, %s nodes, %.0f s\n",
				d, so.Proven(), len(so.South)*len(so.North), score(so.Low.Value), score(so.High.Value),
				thousands(float64(so.Nodes)), time.Since(start).Seconds())
		}
	}
	so, err := search.SolveOpening(ctx, s, sv, lim, report)
	if err != nil {
		return err
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.Depth, rep.Nodes = so.Horizon, so.Nodes
	sim := &solveSimultaneous{
		Joint:     []solveJoint{},
		SouthMix:  map[string]float64{},
		NorthMix:  map[string]float64{},
		ValueLow:  round9(so.Low.Value),
		ValueHigh: round9(so.High.Value),
		Proven:    so.Proven(),
	}
	for i, a := range so.South {
		for j, b := range so.North {
			sim.Joint = append(sim.Joint, solveJoint{South: a.String(), North: b.String(), Value: so.Entry(i, j).String(), Depth: so.Depth[i][j]})
		}
		sim.SouthMix[a.String()] = round9(so.Low.Row[i])
		lo, hi := so.RowBounds(i)
		rep.Actions = append(rep.Actions, solveAction{Action: a.String(), Lower: lo, Upper: hi, Value: boundsText(lo, hi)})
		if lo == 1 && rep.Best == "" {
			rep.Best = a.String()
		}
	}
	for j, b := range so.North {
		sim.NorthMix[b.String()] = round9(so.High.Col[j])
	}
	rep.Simultaneous = sim
	switch {
	case sim.ValueLow != sim.ValueHigh:
		rep.Value = "unknown"
	case sim.ValueLow == 1:
		rep.Value, rep.Winner = "win", "South"
	case sim.ValueLow == 0:
		rep.Value, rep.Winner = "loss", "North"
	default:
		rep.Value = "mixed"
	}
	if rep.Value != "win" {
		rep.Best = ""
	}
	return nil
}

// round9 rounds v to nine decimals, so that rounding errors of the linear
// program do not show.
func round9(v float64) float64 { return math.Round(v*1e9) / 1e9 }

// score writes an expected score for South.
func score(v float64) string { return fmt.Sprintf("%.4f", v) }

// writeOpeningText prints the matrix game of the simultaneous opening.
func writeOpeningText(w io.Writer, rep solveReport) {
	sim := rep.Simultaneous
	fmt.Fprintln(w, "the simultaneous opening: South and North choose at once, a matrix game")
	var souths, norths []string
	seen := map[string]bool{}
	for _, j := range sim.Joint {
		if len(souths) == 0 || souths[len(souths)-1] != j.South {
			souths = append(souths, j.South)
		}
		if !seen[j.North] {
			seen[j.North] = true
			norths = append(norths, j.North)
		}
	}
	fmt.Fprintln(w, "value for South of each joint opening (rows South's choice, columns North's;")
	fmt.Fprintln(w, "W win, D draw, L loss for South, ? not proven):")
	fmt.Fprintf(w, "       %s\n", strings.Join(norths, " "))
	for i, a := range souths {
		cells := make([]string, len(norths))
		for j := range norths {
			cells[j] = map[string]string{"win": "W", "loss": "L", "draw": "D"}[sim.Joint[i*len(norths)+j].Value]
			if cells[j] == "" {
				cells[j] = "?"
			}
		}
		fmt.Fprintf(w, "  %-4s %s\n", a, strings.Join(cells, "  "))
	}
	fmt.Fprintf(w, "proven: %d of %d joint openings\n", sim.Proven, len(sim.Joint))
	mix := func(name string, holes []string, m map[string]float64) {
		parts := []string{}
		for _, h := range holes {
			if m[h] > 0 {
				parts = append(parts, fmt.Sprintf("%s %.4f", h, m[h]))
			}
		}
		fmt.Fprintf(w, "%s: %s\n", name, strings.Join(parts, ", "))
	}
	if sim.ValueLow == sim.ValueHigh {
		mix("South's strategy", souths, sim.SouthMix)
		mix("North's strategy", norths, sim.NorthMix)
	} else {
		mix("South's strategy (earns South at least the lower value)", souths, sim.SouthMix)
		mix("North's strategy (holds South to at most the upper value)", norths, sim.NorthMix)
	}
	if sim.ValueLow == sim.ValueHigh {
		fmt.Fprintf(w, "value for South (win 1, draw ½, loss 0): %s\n", score(sim.ValueLow))
	} else {
		fmt.Fprintf(w, "value for South (win 1, draw ½, loss 0): between %s and %s\n", score(sim.ValueLow), score(sim.ValueHigh))
	}
	switch rep.Value {
	case "win":
		fmt.Fprintf(w, "South wins, by %s whatever North chooses\n", rep.Best)
	case "loss":
		fmt.Fprintln(w, "North wins, whatever South chooses")
	}
	fmt.Fprintf(w, "horizon: %d decisions; %s nodes in %.1f s\n", rep.Depth, thousands(float64(rep.Nodes)), rep.Seconds)
}
