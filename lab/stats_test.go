package lab

import (
	"math"
	"reflect"
	"testing"

	"matombo/mancala"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func accOf(turns ...int) *Acc {
	a := NewAcc()
	for _, t := range turns {
		a.Add(Game{Turns: t, Outcome: mancala.Outcome{Result: mancala.SouthWins, Reason: mancala.NoMoves}})
	}
	return a
}

// TestAccMoments checks mean, standard deviation, median and quantiles
// against numbers worked out by hand.
func TestAccMoments(t *testing.T) {
	// 2 4 4 4 5 5 7 9: sum 40, mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32,
	// sample variance 32/7; the middle two are 4 and 5.
	a := accOf(9, 4, 2, 5, 4, 7, 4, 5)
	if a.TurnsMean() != 5 {
		t.Errorf("mean %v, want 5", a.TurnsMean())
	}
	if want := math.Sqrt(32.0 / 7); !near(a.TurnsSD(), want, 1e-12) {
		t.Errorf("sd %v, want %v", a.TurnsSD(), want)
	}
	if a.TurnsMedian() != 4.5 {
		t.Errorf("median %v, want 4.5", a.TurnsMedian())
	}
	if lo, hi := a.TurnsRange(); lo != 2 || hi != 9 {
		t.Errorf("range %d..%d, want 2..9", lo, hi)
	}
	if q := a.TurnsQuantile(0.75); q != 5 { // the 6th of 8
		t.Errorf("75%% quantile %d, want 5", q)
	}
	// One more game of 10: nine games, sum 50, the 5th is 5.
	a.Add(Game{Turns: 10})
	if a.TurnsMedian() != 5 || !near(a.TurnsMean(), 50.0/9, 1e-12) {
		t.Errorf("median %v mean %v, want 5 and 50/9", a.TurnsMedian(), a.TurnsMean())
	}
	// Captures 1, 2, 3, 6: mean 3, squared deviations 4+1+0+9 = 14, variance 14/3.
	c := NewAcc()
	for _, k := range []int{1, 2, 3, 6} {
		c.Add(Game{Captures: k, Turns: 1})
	}
	if c.CapturesMean() != 3 || !near(c.CapturesSD(), math.Sqrt(14.0/3), 1e-12) {
		t.Errorf("captures mean %v sd %v, want 3 and %v", c.CapturesMean(), c.CapturesSD(), math.Sqrt(14.0/3))
	}
	empty := NewAcc()
	if empty.TurnsMean() != 0 || empty.TurnsSD() != 0 || empty.TurnsMedian() != 0 || empty.Histogram(10) != nil {
		t.Error("an empty accumulator must give zeros and no histogram")
	}
}

// TestAccMerge checks that merging gives the accumulator of all the games,
// in any order and any split.
func TestAccMerge(t *testing.T) {
	games := []Game{
		{Turns: 3, Decisions: 4, Legal: 9, Laps: 5, Captures: 1, Outcome: mancala.Outcome{Result: mancala.NorthWins, Reason: mancala.NoMoves}},
		{Turns: 2100, Decisions: 2200, Legal: 5000, Laps: 3000, Captures: 7, LapCuts: 2, Outcome: mancala.Outcome{Result: mancala.Draw, Reason: mancala.TurnLimit}},
		{Turns: 40, Decisions: 41, Legal: 100, Laps: 60, Captures: 3, Outcome: mancala.Outcome{Result: mancala.SouthWins, Reason: mancala.Repetition}},
	}
	whole := NewAcc()
	for _, g := range games {
		whole.Add(g)
	}
	a, b := NewAcc(), &Acc{} // b starts without a length table
	a.Add(games[0])
	b.Add(games[2])
	b.Add(games[1])
	b.Merge(a)
	if !reflect.DeepEqual(whole, b) {
		t.Errorf("merged %+v\nwant %+v", b, whole)
	}
	if b.LapCutGames != 1 || b.LapCuts != 2 || b.Ended(mancala.TurnLimit) != 1 {
		t.Errorf("lap cuts %d in %d games, turn-limit endings %d", b.LapCuts, b.LapCutGames, b.Ended(mancala.TurnLimit))
	}
	if s, n, d := b.Results(); s != 1 || n != 1 || d != 1 {
		t.Errorf("results %d %d %d, want 1 1 1", s, n, d)
	}
}

// TestWilson checks the Wilson interval against values worked by hand:
// for k/n = 1/2 the interval is 1/2 ± z/(1+z²/n)·sqrt(1/(4n) + z²/(4n²)).
func TestWilson(t *testing.T) {
	cases := []struct {
		k, n   int64
		lo, hi float64
	}{
		{50, 100, 0.403832, 0.596168},
		{0, 10, 0, 0.277533},  // z²/(n+z²)
		{10, 10, 0.722467, 1}, // the mirror image
		{1, 1000, 0.000177, 0.005643},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.k, c.n)
		if !near(lo, c.lo, 1e-6) || !near(hi, c.hi, 1e-6) {
			t.Errorf("Wilson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = [%v, %v], want [0, 1]", lo, hi)
	}
	// Mean 10, sd 2, 100 observations: 10 ± 1.959964·0.2.
	if lo, hi := NormalCI(10, 2, 100); !near(lo, 9.608007, 1e-6) || !near(hi, 10.391993, 1e-6) {
		t.Errorf("NormalCI = [%v, %v]", lo, hi)
	}
	if lo, hi := NormalCI(3, 0, 1); lo != 3 || hi != 3 {
		t.Errorf("NormalCI of one observation = [%v, %v]", lo, hi)
	}
}

// TestHistogram checks the bars: round widths from the shortest game, every
// game counted once, and an overflow bar for far outliers.
func TestHistogram(t *testing.T) {
	a := accOf(12, 13, 17, 25, 25, 31)
	got := a.Histogram(3) // (31-12+1)/3 = 6.7: width 10 from 10
	want := []Bin{{10, 19, 3}, {20, 29, 2}, {30, 39, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("histogram %v, want %v", got, want)
	}
	// 2,000 games of 10 to 29 turns and one of 2,000: the last bar gathers
	// the outlier instead of stretching the axis to 2,000.
	b := NewAcc()
	for i := range 2000 {
		b.Add(Game{Turns: 10 + i%20})
	}
	b.Add(Game{Turns: 2000})
	h := b.Histogram(10)
	last := h[len(h)-1]
	if last.Hi != 2000 || last.Count != 1 || len(h) > 12 {
		t.Errorf("histogram %v: want ten bars of width 2 and an overflow bar up to 2000", h)
	}
	var total int64
	for _, bin := range h {
		total += bin.Count
	}
	if total != b.Games {
		t.Errorf("bars count %d games, want %d", total, b.Games)
	}
}

// TestDistinct checks that the distinct games of two workers are their
// union.
func TestDistinct(t *testing.T) {
	a, b := NewAcc(), NewAcc()
	a.Seen, b.Seen = map[uint64]struct{}{}, map[uint64]struct{}{}
	for _, h := range []uint64{1, 2, 2} {
		a.Add(Game{Turns: 5, Hash: h})
	}
	for _, h := range []uint64{2, 3} {
		b.Add(Game{Turns: 5, Hash: h})
	}
	whole := NewAcc()
	whole.Merge(a)
	whole.Merge(b)
	if len(whole.Seen) != 3 || whole.Games != 5 {
		t.Errorf("%d distinct of %d games, want 3 of 5", len(whole.Seen), whole.Games)
	}
}

func TestRoundWidth(t *testing.T) {
	for w, want := range map[float64]int{0.3: 1, 1: 1, 1.5: 2, 2.1: 5, 6.7: 10, 11: 20, 47: 50, 120: 200} {
		if got := roundWidth(w); got != want {
			t.Errorf("roundWidth(%v) = %d, want %d", w, got, want)
		}
	}
}
