package lab

import (
	"math"

	"matombo/mancala"
)

// Z95 is the normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Game is what the lab records of one finished game.
type Game struct {
	Outcome   mancala.Outcome
	Turns     int // completed turns, head-setup turns included
	Decisions int // decisions taken (written actions)
	Legal     int // legal actions summed over the decisions
	Laps      int // laps sown
	Captures  int // captures (with their picks or removals, once each)
	LapCuts   int // turns cut by the lap limit
	// Hash identifies the game's sequence of actions; it is set for level
	// players only, whose games may repeat.
	Hash uint64

	// Choro (RULES.md §3.4).
	Opened     bool           // the game played a simultaneous opening to its end
	FirstMover mancala.Player // who played first after it
	SameStep   bool           // both openings ended in the same step
	CWLimited  int            // decisions where cw=first withheld a clockwise lap cw=any offers
	Switches   int            // leave=yes switches played
	OtherHoles int            // leave=yes any-hole alternatives played
}

// Acc accumulates the games of one ruleset. Every field is an integer sum,
// so merging accumulators gives the same totals in any order: a report does
// not depend on how the games were shared among workers. The zero value is
// an empty accumulator.
type Acc struct {
	Games int64
	// ByEnd counts the games by how they ended and their result:
	// ByEnd[reason][result], indexed by mancala.EndReason and mancala.Result.
	ByEnd       [4][4]int64
	TurnCounts  []int64 // TurnCounts[t]: games of exactly t turns
	TurnsSum    int64
	TurnsSq     int64 // sum of squared turns
	Decisions   int64
	Legal       int64
	Laps        int64
	Captures    int64
	CapturesSq  int64
	LapCuts     int64 // turns cut by the lap limit
	LapCutGames int64 // games with at least one such turn

	// Choro: the simultaneous opening and how often each option's rule
	// comes into play.
	Opened         int64 // games that played a simultaneous opening to its end
	NorthFirst     int64 // of those, games where North played first after it
	FirstMoverWins int64 // of those, games won by the side that played first after it
	SameStep       int64 // of those, openings that ended in the same step
	CWLimited      int64
	CWLimitedGames int64
	Switches       int64
	SwitchGames    int64
	OtherHoles     int64
	OtherHoleGames int64
	// Seen, when not nil, collects the Hash of every game, to count the
	// distinct games (level players are deterministic once the random
	// opening is over, so their games may repeat).
	Seen map[uint64]struct{}
}

// NewAcc returns an empty accumulator whose length table already covers
// games of up to mancala.MaxTurns turns, so that adding games allocates
// nothing.
func NewAcc() *Acc { return &Acc{TurnCounts: make([]int64, mancala.MaxTurns+1)} }

// Add counts one game.
func (a *Acc) Add(g Game) {
	a.Games++
	a.ByEnd[g.Outcome.Reason&3][g.Outcome.Result&3]++
	if g.Turns >= len(a.TurnCounts) {
		a.TurnCounts = append(a.TurnCounts, make([]int64, g.Turns+1-len(a.TurnCounts))...)
	}
	a.TurnCounts[g.Turns]++
	t := int64(g.Turns)
	a.TurnsSum += t
	a.TurnsSq += t * t
	a.Decisions += int64(g.Decisions)
	a.Legal += int64(g.Legal)
	a.Laps += int64(g.Laps)
	c := int64(g.Captures)
	a.Captures += c
	a.CapturesSq += c * c
	a.LapCuts += int64(g.LapCuts)
	if g.LapCuts > 0 {
		a.LapCutGames++
	}
	if a.Seen != nil {
		a.Seen[g.Hash] = struct{}{}
	}
	if g.Opened {
		a.Opened++
		if g.FirstMover == mancala.North {
			a.NorthFirst++
		}
		if w, ok := g.Outcome.Result.Winner(); ok && w == g.FirstMover {
			a.FirstMoverWins++
		}
		if g.SameStep {
			a.SameStep++
		}
	}
	a.CWLimited += int64(g.CWLimited)
	a.Switches += int64(g.Switches)
	a.OtherHoles += int64(g.OtherHoles)
	for _, c := range []struct {
		n     int
		games *int64
	}{{g.CWLimited, &a.CWLimitedGames}, {g.Switches, &a.SwitchGames}, {g.OtherHoles, &a.OtherHoleGames}} {
		if c.n > 0 {
			*c.games++
		}
	}
}

// Merge adds the counts of b to a.
func (a *Acc) Merge(b *Acc) {
	a.Games += b.Games
	for i := range a.ByEnd {
		for j := range a.ByEnd[i] {
			a.ByEnd[i][j] += b.ByEnd[i][j]
		}
	}
	if len(b.TurnCounts) > len(a.TurnCounts) {
		a.TurnCounts = append(a.TurnCounts, make([]int64, len(b.TurnCounts)-len(a.TurnCounts))...)
	}
	for t, n := range b.TurnCounts {
		a.TurnCounts[t] += n
	}
	a.TurnsSum += b.TurnsSum
	a.TurnsSq += b.TurnsSq
	a.Decisions += b.Decisions
	a.Legal += b.Legal
	a.Laps += b.Laps
	a.Captures += b.Captures
	a.CapturesSq += b.CapturesSq
	a.LapCuts += b.LapCuts
	a.LapCutGames += b.LapCutGames
	a.Opened += b.Opened
	a.NorthFirst += b.NorthFirst
	a.FirstMoverWins += b.FirstMoverWins
	a.SameStep += b.SameStep
	a.CWLimited += b.CWLimited
	a.CWLimitedGames += b.CWLimitedGames
	a.Switches += b.Switches
	a.SwitchGames += b.SwitchGames
	a.OtherHoles += b.OtherHoles
	a.OtherHoleGames += b.OtherHoleGames
	if b.Seen != nil {
		if a.Seen == nil {
			a.Seen = make(map[uint64]struct{}, len(b.Seen))
		}
		for h := range b.Seen {
			a.Seen[h] = struct{}{}
		}
	}
}

// Results returns the games won by South, won by North and drawn.
func (a *Acc) Results() (south, north, draws int64) {
	for r := range a.ByEnd {
		south += a.ByEnd[r][mancala.SouthWins]
		north += a.ByEnd[r][mancala.NorthWins]
		draws += a.ByEnd[r][mancala.Draw]
	}
	return south, north, draws
}

// Ended returns the games that ended for reason why.
func (a *Acc) Ended(why mancala.EndReason) int64 {
	var n int64
	for _, k := range a.ByEnd[why&3] {
		n += k
	}
	return n
}

// TurnsMean returns the mean game length in turns (0 for no games).
func (a *Acc) TurnsMean() float64 { return mean(a.TurnsSum, a.Games) }

// TurnsSD returns the sample standard deviation of the game length.
func (a *Acc) TurnsSD() float64 { return sd(a.TurnsSum, a.TurnsSq, a.Games) }

// TurnsMedian returns the median game length: the middle length, or the
// mean of the two middle ones for an even number of games (0 for none).
func (a *Acc) TurnsMedian() float64 {
	if a.Games == 0 {
		return 0
	}
	lo := a.quantileIndex((a.Games - 1) / 2)
	hi := a.quantileIndex(a.Games / 2)
	return float64(lo+hi) / 2
}

// TurnsQuantile returns the smallest length t such that at least the share
// q of the games took t turns or fewer (0 for no games).
func (a *Acc) TurnsQuantile(q float64) int {
	if a.Games == 0 {
		return 0
	}
	k := int64(math.Ceil(q*float64(a.Games))) - 1
	return a.quantileIndex(min(max(k, 0), a.Games-1))
}

// TurnsRange returns the shortest and longest game.
func (a *Acc) TurnsRange() (lo, hi int) {
	if a.Games == 0 {
		return 0, 0
	}
	return a.quantileIndex(0), a.quantileIndex(a.Games - 1)
}

// quantileIndex returns the length of the k-th shortest game (from 0).
func (a *Acc) quantileIndex(k int64) int {
	var seen int64
	for t, n := range a.TurnCounts {
		seen += n
		if seen > k {
			return t
		}
	}
	return len(a.TurnCounts) - 1
}

// CapturesMean returns the mean captures per game.
func (a *Acc) CapturesMean() float64 { return mean(a.Captures, a.Games) }

// CapturesSD returns the sample standard deviation of the captures per game.
func (a *Acc) CapturesSD() float64 { return sd(a.Captures, a.CapturesSq, a.Games) }

// Bin is one bar of a histogram: the games of Lo to Hi turns, both
// included.
type Bin struct {
	Lo    int   `json:"lo"`
	Hi    int   `json:"hi"`
	Count int64 `json:"count"`
}

// Histogram returns the game lengths in at most bins bars of equal, round
// width (1, 2 or 5 times a power of ten) from the shortest game; when the
// longest games lie far beyond the rest, the last bar gathers everything
// above the 99.9th percentile. No games give no bars.
func (a *Acc) Histogram(bins int) []Bin {
	if a.Games == 0 || bins < 1 {
		return nil
	}
	lo, hi := a.TurnsRange()
	top := hi
	if q := a.TurnsQuantile(0.999); hi-lo > 2*(q-lo)+10 {
		top = q
	}
	width := roundWidth(float64(top-lo+1) / float64(bins))
	start := lo / width * width
	n := (top-start)/width + 1
	if top < hi {
		n++ // the overflow bar
	}
	out := make([]Bin, n)
	for i := range out {
		out[i].Lo = start + i*width
		out[i].Hi = out[i].Lo + width - 1
	}
	out[n-1].Hi = max(out[n-1].Hi, hi)
	for t := lo; t <= hi; t++ {
		c := a.TurnCounts[t]
		if c == 0 {
			continue
		}
		out[min((t-start)/width, n-1)].Count += c
	}
	return out
}

// roundWidth returns the smallest of 1, 2, 5, 10, 20, 50, … at least w.
func roundWidth(w float64) int {
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if float64(m*p) >= w {
				return m * p
			}
		}
	}
}

func mean(sum, n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(sum) / float64(n)
}

// sd is the sample standard deviation from the integer sum and sum of
// squares, so it does not depend on the order in which games were added.
func sd(sum, sq, n int64) float64 {
	if n < 2 {
		return 0
	}
	num := float64(n)*float64(sq) - float64(sum)*float64(sum)
	if num < 0 {
		num = 0
	}
	return math.Sqrt(num / (float64(n) * float64(n-1)))
}

// Wilson returns the Wilson score 95% interval of a proportion of k
// successes in n trials; n = 0 gives [0, 1].
func Wilson(k, n int64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), Z95*Z95
	center := (p + z2/(2*nf)) / (1 + z2/nf)
	half := Z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, center-half), min(1, center+half)
}

// NormalCI returns the normal 95% interval of a mean with sample standard
// deviation s over n observations; n < 2 gives the mean itself.
func NormalCI(m, s float64, n int64) (lo, hi float64) {
	if n < 2 {
		return m, m
	}
	half := Z95 * s / math.Sqrt(float64(n))
	return m - half, m + half
}
