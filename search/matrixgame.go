package search

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Equilibrium is a solution of a two-player zero-sum matrix game: a mixed
// strategy for the row player, who receives the payoff and maximises it, one
// for the column player, who minimises it, and the game's value. Neither
// player gains by leaving their strategy while the other keeps theirs.
type Equilibrium struct {
	Row   []float64 // the row player's probabilities, one a row, summing to 1
	Col   []float64 // the column player's, one a column, summing to 1
	Value float64   // the row player's expected payoff when both play them
}

// MaxMatrixSide is the most rows or columns SolveMatrixGame accepts.
const MaxMatrixSide = 256

// SolveMatrixGame returns an equilibrium of the zero-sum game whose payoff to
// the row player is a[i][j] when the row player plays row i and the column
// player column j. It solves the game's linear program exactly, up to
// floating-point rounding, by the simplex method with Bland's rule (which
// cannot cycle on the degenerate programs that games with equal payoffs
// give). The matrix must be rectangular, at most MaxMatrixSide a side, with
// finite entries. A game whose entries are all equal has every pair of
// strategies as an equilibrium; it gets the uniform ones.
func SolveMatrixGame(a [][]float64) (Equilibrium, error) {
	m := len(a)
	if m == 0 || len(a[0]) == 0 {
		return Equilibrium{}, errors.New("search: a matrix game needs at least one row and one column")
	}
	n := len(a[0])
	if m > MaxMatrixSide || n > MaxMatrixSide {
		return Equilibrium{}, fmt.Errorf("search: a %d×%d matrix game is too large; at most %d a side", m, n, MaxMatrixSide)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, row := range a {
		if len(row) != n {
			return Equilibrium{}, fmt.Errorf("search: row %d of the matrix game has %d entries, row 0 has %d", i, len(row), n)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Equilibrium{}, fmt.Errorf("search: entry (%d, %d) of the matrix game is %v; entries must be finite", i, j, v)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi-lo <= 1e-12*max(1, math.Abs(lo)) {
		return Equilibrium{Row: uniform(m), Col: uniform(n), Value: lo}, nil
	}
	// Scale the payoffs to b in [1, 2]: the game's value is then positive,
	// and the column player's problem is the linear program
	//	maximise Σy subject to b·y ≤ 1, y ≥ 0,
	// whose optimum is 1/value(b); y scaled to sum to 1 is the column
	// player's strategy, and the program's dual prices, scaled the same way,
	// are the row player's.
	t := make([][]float64, m+1) // m constraint rows, then the objective row
	width := n + m + 1
	for i := range m {
		t[i] = make([]float64, width)
		for j := range n {
			t[i][j] = (a[i][j]-lo)/(hi-lo) + 1
		}
		t[i][n+i] = 1
		t[i][width-1] = 1
	}
	t[m] = make([]float64, width)
	for j := range n {
		t[m][j] = -1
	}
	basis := make([]int, m)
	for i := range basis {
		basis[i] = n + i
	}
	if err := simplex(t, basis); err != nil {
		return Equilibrium{}, err
	}
	y := make([]float64, n)
	for i, b := range basis {
		if b < n {
			y[b] = t[i][width-1]
		}
	}
	x := make([]float64, m)
	for i := range m {
		x[i] = t[m][n+i]
	}
	z := t[m][width-1] // Σy = Σx = 1/value(b)
	if !(z > 0) {
		return Equilibrium{}, fmt.Errorf("search: the matrix game's program ended with objective %v; a numerical failure", z)
	}
	eq := Equilibrium{Row: normalize(x), Col: normalize(y)}
	eq.Value = (1/z-1)*(hi-lo) + lo
	return eq, nil
}

// pivotEps is the smallest coefficient the simplex pivots on or counts as
// negative; the scaled entries are between 1 and 2.
const pivotEps = 1e-11

// simplex maximises the program in tableau t (constraint rows, then the
// objective row of negated costs; the last column is the right-hand side)
// from the feasible basis given, by Bland's rule.
func simplex(t [][]float64, basis []int) error {
	m := len(basis)
	width := len(t[0])
	obj := t[m]
	for iter := 0; ; iter++ {
		if iter > 50_000 {
			return errors.New("search: the matrix game's simplex did not converge; a numerical failure")
		}
		enter := -1
		for j := 0; j < width-1; j++ {
			if obj[j] < -pivotEps {
				enter = j
				break
			}
		}
		if enter < 0 {
			return nil
		}
		leave := -1
		best := math.Inf(1)
		for i := range m {
			if t[i][enter] <= pivotEps {
				continue
			}
			r := t[i][width-1] / t[i][enter]
			if r < best-1e-12 || (r <= best+1e-12 && leave >= 0 && basis[i] < basis[leave]) {
				best, leave = r, i
			}
		}
		if leave < 0 {
			return errors.New("search: the matrix game's program is unbounded; a numerical failure")
		}
		pivot(t, leave, enter)
		basis[leave] = enter
	}
}

// pivot makes column c a unit column with its 1 in row r.
func pivot(t [][]float64, r, c int) {
	pr := t[r]
	p := pr[c]
	for j := range pr {
		pr[j] /= p
	}
	for i, row := range t {
		if i == r || row[c] == 0 {
			continue
		}
		f := row[c]
		for j := range row {
			row[j] -= f * pr[j]
		}
		row[c] = 0
	}
}

// normalize returns v with negative rounding errors dropped, scaled to sum
// to 1.
func normalize(v []float64) []float64 {
	out := make([]float64, len(v))
	sum := 0.0
	for i, x := range v {
		if x > 0 {
			out[i] = x
			sum += x
		}
	}
	if sum == 0 {
		return uniform(len(v))
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

func uniform(k int) []float64 {
	out := make([]float64, k)
	for i := range out {
		out[i] = 1 / float64(k)
	}
	return out
}

// RowPayoffs returns the row player's expected payoff of each row against
// the column player's mix col.
func RowPayoffs(a [][]float64, col []float64) []float64 {
	out := make([]float64, len(a))
	for i, row := range a {
		for j, v := range row {
			out[i] += v * col[j]
		}
	}
	return out
}

// ColPayoffs returns the row player's expected payoff of each column
// against the row player's mix row.
func ColPayoffs(a [][]float64, row []float64) []float64 {
	if len(a) == 0 {
		return nil
	}
	out := make([]float64, len(a[0]))
	for i, r := range a {
		for j, v := range r {
			out[j] += v * row[i]
		}
	}
	return out
}

// Exploitability returns how much the better of the two players could gain
// by a pure best response to the other's strategy in eq: 0 for an exact
// equilibrium.
func Exploitability(a [][]float64, eq Equilibrium) float64 {
	best := math.Inf(-1)
	for _, v := range RowPayoffs(a, eq.Col) {
		best = max(best, v)
	}
	worst := math.Inf(1)
	for _, v := range ColPayoffs(a, eq.Row) {
		worst = min(worst, v)
	}
	return max(best-eq.Value, eq.Value-worst)
}

// drawMix draws an index with the probabilities of mix.
func drawMix(mix []float64, rng *rand.Rand) int {
	u := rng.Float64()
	for i, p := range mix {
		if u < p {
			return i
		}
		u -= p
	}
	for i := len(mix) - 1; i > 0; i-- { // rounding left u just above the total
		if mix[i] > 0 {
			return i
		}
	}
	return 0
}
