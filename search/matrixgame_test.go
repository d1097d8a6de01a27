package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkEquilibrium checks eq against a by the equilibrium conditions: both
// strategies are probability vectors, no row does better than the value
// against the column mix, and no column holds the row player below it.
func checkEquilibrium(t *testing.T, name string, a [][]float64, eq Equilibrium) {
	t.Helper()
	scale := 1.0
	for _, row := range a {
		for _, v := range row {
			scale = max(scale, math.Abs(v))
		}
	}
	tol := 1e-9 * scale
	for _, mix := range [][]float64{eq.Row, eq.Col} {
		sum := 0.0
		for _, p := range mix {
			if p < 0 || p > 1 {
				t.Errorf("%s: probability %v out of range in %v", name, p, mix)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: mix %v sums to %v", name, mix, sum)
		}
	}
	if len(eq.Row) != len(a) || len(eq.Col) != len(a[0]) {
		t.Fatalf("%s: mixes of %d and %d for a %d×%d game", name, len(eq.Row), len(eq.Col), len(a), len(a[0]))
	}
	for i, v := range RowPayoffs(a, eq.Col) {
		if v > eq.Value+tol {
			t.Errorf("%s: row %d earns %v against the column mix, above the value %v", name, i, v, eq.Value)
		}
	}
	for j, v := range ColPayoffs(a, eq.Row) {
		if v < eq.Value-tol {
			t.Errorf("%s: column %d holds the row mix to %v, below the value %v", name, j, v, eq.Value)
		}
	}
	if e := Exploitability(a, eq); e > tol {
		t.Errorf("%s: exploitability %v", name, e)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestMatrixGameKnownGames(t *testing.T) {
	for _, tc := range []struct {
		name     string
		a        [][]float64
		value    float64
		row, col []float64 // nil: not unique, not checked
	}{
		{"matching pennies", [][]float64{{1, -1}, {-1, 1}}, 0, []float64{0.5, 0.5}, []float64{0.5, 0.5}},
		{"rock paper scissors", [][]float64{{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}, 0, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		// A saddle point at (1, 0): 4 is the smallest of its row and the
		// largest of its column.
		{"saddle point", [][]float64{{3, 1, 2}, {4, 6, 5}, {2, 0, 7}}, 4, []float64{0, 1, 0}, []float64{1, 0, 0}},
		// Column 2 is dominated by column 0; on the rest, row 0 with
		// probability p earns 3p against column 0 and 2-3p against column 1,
		// so p = 1/3; column 0 with probability q gives 4q-1 and 2-2q, so
		// q = 1/2; the value is 1.
		{"mixed 2×3", [][]float64{{3, -1, 4}, {0, 2, 5}}, 1, []float64{1.0 / 3, 2.0 / 3}, []float64{0.5, 0.5, 0}},
		{"one entry", [][]float64{{7}}, 7, []float64{1}, []float64{1}},
		{"one row", [][]float64{{5, 2, 9}}, 2, []float64{1}, []float64{0, 1, 0}},
		{"constant", [][]float64{{2, 2}, {2, 2}}, 2, nil, nil},
		{"win-loss-draw", [][]float64{{1, 0.5, 0}, {0, 1, 0.5}, {0.5, 0, 1}}, 0.5, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
	} {
		eq, err := SolveMatrixGame(tc.a)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		checkEquilibrium(t, tc.name, tc.a, eq)
		if !near(eq.Value, tc.value) {
			t.Errorf("%s: value %v, want %v", tc.name, eq.Value, tc.value)
		}
		for _, c := range []struct{ got, want []float64 }{{eq.Row, tc.row}, {eq.Col, tc.col}} {
			for k := range c.want {
				if !near(c.got[k], c.want[k]) {
					t.Errorf("%s: mix %v, want %v", tc.name, c.got, c.want)
					break
				}
			}
		}
	}
}

// TestMatrixGameRandom solves random games, many of them degenerate (few
// distinct payoffs, as the three outcomes of a game give), and checks every
// equilibrium by its conditions.
func TestMatrixGameRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 6))
	for k := range 400 {
		m, n := 1+rng.IntN(9), 1+rng.IntN(9)
		a := make([][]float64, m)
		for i := range a {
			a[i] = make([]float64, n)
			for j := range a[i] {
				switch k % 3 {
				case 0:
					a[i][j] = rng.NormFloat64() * 1000
				case 1:
					a[i][j] = float64(rng.IntN(3)) / 2 // loss, draw, win
				default:
					a[i][j] = float64(rng.IntN(2001) - 1000)
				}
			}
		}
		eq, err := SolveMatrixGame(a)
		if err != nil {
			t.Fatalf("game %d (%d×%d): %v", k, m, n, err)
		}
		checkEquilibrium(t, "random game", a, eq)
	}
}

func TestMatrixGameRefusesBadMatrices(t *testing.T) {
	for name, a := range map[string][][]float64{
		"empty":     nil,
		"no column": {{}},
		"ragged":    {{1, 2}, {3}},
		"NaN":       {{1, math.NaN()}},
		"infinite":  {{math.Inf(1)}},
		"too large": make([][]float64, MaxMatrixSide+1),
	} {
		if name == "too large" {
			for i := range a {
				a[i] = []float64{0}
			}
		}
		if _, err := SolveMatrixGame(a); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDrawMixFollowsTheMix(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mix := []float64{0.5, 0, 0.25, 0.25}
	counts := make([]int, len(mix))
	const draws = 40_000
	for range draws {
		counts[drawMix(mix, rng)]++
	}
	if counts[1] != 0 {
		t.Errorf("an index of probability 0 was drawn %d times", counts[1])
	}
	for i, p := range mix {
		if got := float64(counts[i]) / draws; math.Abs(got-p) > 0.01 {
			t.Errorf("index %d drawn %.3f of the time, want %.3f", i, got, p)
		}
	}
}

func TestExploitabilityOfANonEquilibrium(t *testing.T) {
	a := [][]float64{{3, 1}, {4, 6}} // saddle point at (1, 0), value 4
	// Uniform play: row 1 earns 5 against the uniform column mix, and
	// column 0 holds the uniform row mix to 3.5.
	eq := Equilibrium{Row: []float64{0.5, 0.5}, Col: []float64{0.5, 0.5}, Value: 3.75}
	if e := Exploitability(a, eq); !near(e, 1.25) {
		t.Errorf("exploitability %v, want 1.25", e)
	}
}
