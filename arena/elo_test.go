package arena

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestEloOfKnownScores(t *testing.T) {
	for _, c := range []struct{ p, elo float64 }{
		{0.5, 0}, {0.75, 190.85}, {0.25, -190.85}, {0.9, 381.70}, {0.99, 798.25}, {1, MaxElo}, {0, -MaxElo},
	} {
		if got := EloOf(c.p); !near(got, c.elo, 0.01) {
			t.Errorf("EloOf(%v) = %.2f, want %.2f", c.p, got, c.elo)
		}
		if c.p > 0 && c.p < 1 && !near(ScoreOf(c.elo), c.p, 1e-4) {
			t.Errorf("ScoreOf(%v) = %v, want %v", c.elo, ScoreOf(c.elo), c.p)
		}
	}
}

func TestEloInterval(t *testing.T) {
	// 60 wins, 20 draws, 20 losses: mean 0.7 over 100 games. Wilson:
	// centre (0.7 + 1.96²/200) / (1 + 1.96²/100) = 0.69260, half-width
	// 1.96·√(0.0021 + 1.96²/40000) / (1 + 1.96²/100) = 0.08845.
	s := Score{Wins: 60, Draws: 20, Losses: 20}
	elo, lo, hi := s.Elo()
	if !near(elo, EloOf(0.7), 1e-9) || !near(elo, 147.19, 0.01) {
		t.Errorf("elo = %.2f, want 147.19", elo)
	}
	if pl, ph := s.Interval(); !near(pl, 0.60415, 1e-4) || !near(ph, 0.78105, 1e-4) {
		t.Errorf("score interval [%.5f, %.5f], want [0.60415, 0.78105]", pl, ph)
	}
	if !near(lo, 73.4, 0.2) || !near(hi, 220.9, 0.2) {
		t.Errorf("interval [%.2f, %.2f], want about [73.4, 220.9]", lo, hi)
	}
	if e, l, h := (Score{}).Elo(); e != 0 || l != -MaxElo || h != MaxElo {
		t.Errorf("no games: %v [%v, %v]", e, l, h)
	}
	// A perfect score has an infinite Elo (capped) but a finite lower
	// bound: 20 out of 20 is a score of at least 0.8389.
	all := Score{Wins: 20}
	if pl, ph := all.Interval(); !near(pl, 0.8389, 1e-4) || ph != 1 {
		t.Errorf("20/20: score interval [%.4f, %v], want [0.8389, 1]", pl, ph)
	}
	if e, l, h := all.Elo(); e != MaxElo || !near(l, 286.6, 0.5) || h != MaxElo {
		t.Errorf("20/20: %v [%.1f, %v], want %v [286.6, %v]", e, l, h, MaxElo, MaxElo)
	}
	if e, l, h := (Score{Losses: 20}).Elo(); e != -MaxElo || l != -MaxElo || !near(h, -286.6, 0.5) {
		t.Errorf("0/20: %v [%v, %.1f]", e, l, h)
	}
}

func TestSPRT(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	if err := test.Validate(); err != nil {
		t.Fatal(err)
	}
	lo, hi := test.Bounds()
	if !near(lo, -2.944, 0.001) || !near(hi, 2.944, 0.001) {
		t.Errorf("bounds %v %v", lo, hi)
	}
	if d := test.Decide(Score{Wins: 5, Losses: 5}); d != Continue {
		t.Errorf("10 even games: %v", d)
	}
	if d := test.Decide(Score{Wins: 80, Draws: 10, Losses: 10}); d != AcceptH1 {
		t.Errorf("a crushing score should accept H1: %v (llr %v)", d, test.LLR(Score{Wins: 80, Draws: 10, Losses: 10}))
	}
	if d := test.Decide(Score{Wins: 40, Draws: 10, Losses: 60}); d != AcceptH0 {
		t.Errorf("a losing score should accept H0: %v", d)
	}
	// LLR by hand: 70 points won and 30 lost, s0 = 0.5, s1 = ScoreOf(50).
	s1 := ScoreOf(50)
	want := 70*math.Log(s1/0.5) + 30*math.Log((1-s1)/0.5)
	if got := test.LLR(Score{Wins: 60, Draws: 20, Losses: 20}); !near(got, want, 1e-9) {
		t.Errorf("llr %v, want %v", got, want)
	}
	if llr := test.LLR(Score{Wins: 4}); llr <= 0 || llr >= hi {
		t.Errorf("4 wins out of 4 should lean to H1 without deciding: llr %v", llr)
	}
	if (SPRT{Elo0: 10, Elo1: 5, Alpha: 0.05, Beta: 0.05}).Validate() == nil {
		t.Error("elo0 > elo1 should be refused")
	}
}
