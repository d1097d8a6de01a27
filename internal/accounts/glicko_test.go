package accounts

import (
	"math"
	"testing"
)

// TestGlickoWorkedExample is the example of Glickman's "Example of the
// Glicko-2 system": a player rated 1500 (RD 200, σ 0.06) beats a 1400
// (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), with τ = 0.5:
// the paper finds r' = 1464.06, RD' = 151.52, σ' = 0.05999. The paper
// rounds its intermediate values (μ, φ, v, Δ to four places); without
// that rounding r' is 1464.051, so the rating is checked to ±0.05.
func TestGlickoWorkedExample(t *testing.T) {
	p := Glicko{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got := p.Update([]Outcome{
		{Opponent: Glicko{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Glicko{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Glicko{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: 0},
	}, 0.5)
	if math.Abs(got.Rating-1464.06) > 0.05 || math.Abs(got.Deviation-151.52) > 0.01 || math.Abs(got.Volatility-0.05999) > 0.00001 {
		t.Errorf("got r=%.4f RD=%.4f σ=%.6f, want 1464.06, 151.52, 0.05999", got.Rating, got.Deviation, got.Volatility)
	}
}

// TestGlickoProperties: a win raises the rating and a loss lowers it by
// as much between equals, a draw between equals leaves it, every game
// lowers the deviation, and a period without games raises it (to at most
// NewDeviation).
func TestGlickoProperties(t *testing.T) {
	a, b := NewGlicko(), NewGlicko()
	win := a.Update([]Outcome{{Opponent: b, Score: 1}}, Tau)
	loss := b.Update([]Outcome{{Opponent: a, Score: 0}}, Tau)
	draw := a.Update([]Outcome{{Opponent: b, Score: 0.5}}, Tau)
	if win.Rating <= a.Rating || loss.Rating >= b.Rating {
		t.Errorf("win %.2f, loss %.2f from 1500", win.Rating, loss.Rating)
	}
	if math.Abs((win.Rating-1500)+(loss.Rating-1500)) > 1e-6 {
		t.Errorf("between equals, win +%.4f and loss %.4f differ", win.Rating-1500, loss.Rating-1500)
	}
	if math.Abs(draw.Rating-1500) > 1e-9 {
		t.Errorf("a draw between equals moved the rating to %.6f", draw.Rating)
	}
	for _, g := range []Glicko{win, loss, draw} {
		if g.Deviation >= NewDeviation || !g.Provisional() {
			t.Errorf("after one game RD %.2f: want below %d and still provisional (> %d)", g.Deviation, NewDeviation, ProvisionalRD)
		}
	}
	idle := Glicko{Rating: 1600, Deviation: 100, Volatility: 0.06}.Update(nil, Tau)
	if idle.Rating != 1600 || idle.Deviation <= 100 {
		t.Errorf("idle period: %+v", idle)
	}
	if g := NewGlicko().Update(nil, Tau); g.Deviation != NewDeviation {
		t.Errorf("idle new player RD %.2f, want capped at %d", g.Deviation, NewDeviation)
	}
	// Many games against an equal: the rating stays put, the deviation
	// falls below the provisional threshold.
	p := NewGlicko()
	for i := range 40 {
		p = p.Update([]Outcome{{Opponent: Glicko{Rating: 1500, Deviation: 60, Volatility: 0.06}, Score: float64(i % 2)}}, Tau)
	}
	if p.Provisional() || math.Abs(p.Rating-1500) > 60 {
		t.Errorf("after 40 alternating games: %+v", p)
	}
}
