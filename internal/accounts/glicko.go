package accounts

import "math"

// Glicko-2, as Glickman describes it in "Example of the Glicko-2 system"
// (2013): ratings on the Glicko scale (1500 ± RD), computed on the
// Glicko-2 scale (μ, φ) with the volatility σ found by the Illinois
// algorithm of step 5.

// Glicko is a player's rating: the rating r, its deviation RD and the
// volatility σ.
type Glicko struct {
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// The constants of the system.
const (
	// NewRating, NewDeviation and NewVolatility are an unrated player's
	// (Glickman's step 1).
	NewRating     = 1500
	NewDeviation  = 350
	NewVolatility = 0.06
	// Tau is the system constant τ, which bounds the volatility's change;
	// Glickman suggests 0.3 to 1.2. 0.5 is his example's.
	Tau = 0.5
	// ProvisionalRD is the deviation above which a rating is provisional:
	// with RD > 110, the 95% interval is wider than ±220.
	ProvisionalRD = 110
	// glickoScale converts between the scales (step 2).
	glickoScale = 173.7178
	// glickoEpsilon is the tolerance of step 5's iteration.
	glickoEpsilon = 0.000001
)

// NewGlicko returns an unrated player's rating.
func NewGlicko() Glicko {
	return Glicko{Rating: NewRating, Deviation: NewDeviation, Volatility: NewVolatility}
}

// Provisional reports whether g's deviation is above ProvisionalRD.
func (g Glicko) Provisional() bool { return g.Deviation > ProvisionalRD }

// Outcome is one game of a rating period: the opponent's rating (before
// the period) and the score, 1 for a win, 0.5 for a draw, 0 for a loss.
type Outcome struct {
	Opponent Glicko
	Score    float64
}

func glickoG(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func glickoE(mu, muj, phij float64) float64 {
	return 1 / (1 + math.Exp(-glickoG(phij)*(mu-muj)))
}

// Update returns g's rating after a rating period with the games
// outcomes, by steps 2 to 8 of Glicko-2 with system constant tau. With no
// games, only the deviation grows (step 6). The deviation never exceeds
// NewDeviation.
func (g Glicko) Update(outcomes []Outcome, tau float64) Glicko {
	mu := (g.Rating - NewRating) / glickoScale
	phi := g.Deviation / glickoScale
	sigma := g.Volatility
	if len(outcomes) == 0 {
		phiStar := math.Sqrt(phi*phi + sigma*sigma)
		return Glicko{Rating: g.Rating, Deviation: math.Min(glickoScale*phiStar, NewDeviation), Volatility: sigma}
	}
	// Step 3: the estimated variance v; step 4: the improvement Δ.
	var vInv, sum float64
	for _, o := range outcomes {
		muj := (o.Opponent.Rating - NewRating) / glickoScale
		phij := o.Opponent.Deviation / glickoScale
		gj, ej := glickoG(phij), glickoE(mu, muj, phij)
		vInv += gj * gj * ej * (1 - ej)
		sum += gj * (o.Score - ej)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility.
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > glickoEpsilon && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigmaNew := math.Exp(A / 2)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigmaNew*sigmaNew)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	return Glicko{Rating: glickoScale*muNew + NewRating, Deviation: math.Min(glickoScale*phiNew, NewDeviation), Volatility: sigmaNew}
}
