package arena

import (
	"fmt"
	"math"
)

// Score counts the results of a match from player A's side.
type Score struct {
	Wins, Draws, Losses int
}

// Games returns the number of games counted.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Mean returns A's mean points per game (win 1, draw 1/2), or 0.5 before
// any game.
func (s Score) Mean() float64 {
	n := s.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(n)
}

// MaxElo bounds reported Elo differences: a score of 0% or 100% has no
// finite Elo, and is reported as -MaxElo or +MaxElo.
const MaxElo = 1000.0

// EloOf returns the Elo difference that gives the expected score p under
// the logistic model, clamped to ±MaxElo.
func EloOf(p float64) float64 {
	if p <= 0 || p >= 1 || math.IsNaN(p) {
		if p >= 1 {
			return MaxElo
		}
		return -MaxElo
	}
	return math.Max(-MaxElo, math.Min(MaxElo, -400*math.Log10(1/p-1)))
}

// ScoreOf returns the expected score of a player elo points stronger.
func ScoreOf(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959964

// Interval returns the 95% confidence interval of A's mean score: the
// Wilson score interval, each game's points taken as a Bernoulli trial. It
// stays inside [0, 1] and is not empty at a score of 0% or 100% (20 wins
// out of 20 give [0.839, 1]), where the normal approximation collapses to
// a point; with draws it is a little wider than it needs to be.
func (s Score) Interval() (low, high float64) {
	n := float64(s.Games())
	if n == 0 {
		return 0, 1
	}
	p, z2 := s.Mean(), z95*z95
	center := (p + z2/(2*n)) / (1 + z2/n)
	half := z95 * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / (1 + z2/n)
	return math.Max(0, center-half), math.Min(1, center+half)
}

// Elo returns A's Elo difference over B and its 95% confidence interval,
// the Elo of the ends of Interval.
func (s Score) Elo() (elo, low, high float64) {
	if s.Games() == 0 {
		return 0, -MaxElo, MaxElo
	}
	lo, hi := s.Interval()
	return EloOf(s.Mean()), EloOf(lo), EloOf(hi)
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against
// H1: elo = Elo1, with error rates Alpha (accepting H1 wrongly) and Beta
// (accepting H0 wrongly).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Validate reports whether the test is well formed.
func (t SPRT) Validate() error {
	switch {
	case !(t.Elo1 > t.Elo0):
		return fmt.Errorf("arena: sprt needs elo0 < elo1, got %v and %v", t.Elo0, t.Elo1)
	case !(t.Alpha > 0 && t.Alpha < 0.5 && t.Beta > 0 && t.Beta < 0.5):
		return fmt.Errorf("arena: sprt error rates must be between 0 and 0.5, got %v and %v", t.Alpha, t.Beta)
	}
	return nil
}

// Decision is the state of an SPRT.
type Decision int

// The decisions of an SPRT.
const (
	Continue Decision = iota
	AcceptH0
	AcceptH1
)

func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "inconclusive"
}

// LLR returns the log-likelihood ratio of H1 over H0 for s, each game's
// points taken as a Bernoulli trial of mean ScoreOf(elo) (a draw counts as
// half a win and half a loss).
func (t SPRT) LLR(s Score) float64 {
	s0, s1 := ScoreOf(t.Elo0), ScoreOf(t.Elo1)
	w := float64(s.Wins) + float64(s.Draws)/2
	l := float64(s.Losses) + float64(s.Draws)/2
	return w*math.Log(s1/s0) + l*math.Log((1-s1)/(1-s0))
}

// Bounds returns the LLR bounds: below lower H0 is accepted, above upper H1.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decide returns the test's decision after s.
func (t SPRT) Decide(s Score) Decision {
	lo, hi := t.Bounds()
	switch llr := t.LLR(s); {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}
