package search

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"

	"matombo/mancala"
)

// Calibration turns search scores into winning chances: for each game, a
// logistic curve fitted on self-play games of its preset gives South's
// chance of winning (a draw counting half) from the score of the position
// for South, in stones.
//
//	chance = 1 / (1 + exp(-(Intercept + Slope*score)))
//
// The one shipped with the program (DefaultCalibration) was made by
// `matombo calibrate`; docs/ANALYSIS.md shows how well it fits.
type Calibration struct {
	Level   int         `json:"level"`   // the level whose search scored the positions
	Play    int         `json:"play"`    // the level of both players of the self-play games
	Every   int         `json:"every"`   // every Every-th turn start of a game was scored
	Seed    uint64      `json:"seed"`    // the seed of the games
	Opening int         `json:"opening"` // random turns at the start of each game
	Command string      `json:"command"` // the command that made it
	Presets []PresetFit `json:"presets"`
}

// PresetFit is the fitted curve of one preset and how well it predicts the
// held-out games.
type PresetFit struct {
	Ruleset        string           `json:"ruleset"`         // the preset, canonically
	Intercept      float64          `json:"intercept"`       // log-odds of a South win at a level score
	Slope          float64          `json:"slope"`           // log-odds per stone of South's score
	Games          int              `json:"games"`           // games played
	TrainGames     int              `json:"train_games"`     // games the curve was fitted on
	TestGames      int              `json:"test_games"`      // games held out
	TrainPositions int              `json:"train_positions"` // scored positions of the training games
	TestPositions  int              `json:"test_positions"`  // scored positions of the held-out games
	TestLogLoss    float64          `json:"test_log_loss"`   // mean log-loss (nats) of the curve on the held-out positions
	BaseLogLoss    float64          `json:"base_log_loss"`   // the same for a constant chance, the training mean
	SouthScore     float64          `json:"south_score"`     // South's share of the points over all games
	Bins           []ReliabilityBin `json:"bins"`            // the held-out positions by predicted chance
}

// ReliabilityBin is one bar of a reliability diagram: the held-out
// positions whose predicted chance falls in [Lo, Hi), their mean predicted
// chance and the share of the points South actually scored from them.
type ReliabilityBin struct {
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	Count     int     `json:"count"`
	Predicted float64 `json:"predicted"`
	Observed  float64 `json:"observed"`
}

// Chance returns the fitted chance of a South win at South's score
// southScore, in hundredths of a stone (the search's unit).
func (f PresetFit) Chance(southScore int) float64 {
	return sigmoid(f.Intercept + f.Slope*float64(southScore)/100)
}

// Fit returns the curve fitted for game g.
func (c *Calibration) Fit(g mancala.Game) (PresetFit, bool) {
	want := mancala.Default(g).String()
	for _, f := range c.Presets {
		if f.Ruleset == want {
			return f, true
		}
	}
	return PresetFit{}, false
}

// SouthChance returns South's chance of winning, 0 to 1, of a position of
// ruleset rs whose score for South is southScore (hundredths of a stone). A
// ruleset that is not a preset uses its game's preset curve; a game without
// one uses a curve of one stone per 0.5 log-odds. Win and loss scores of the
// search (beyond ±990,000) give 1 and 0.
func (c *Calibration) SouthChance(rs mancala.Ruleset, southScore int) float64 {
	switch {
	case southScore > winBound:
		return 1
	case southScore < -winBound:
		return 0
	}
	f, ok := c.Fit(rs.Game)
	if !ok {
		f = PresetFit{Slope: 0.5}
	}
	return f.Chance(southScore)
}

// Validate reports whether c is usable: a curve per preset at most, with
// finite parameters and a non-negative slope.
func (c *Calibration) Validate() error {
	seen := map[string]bool{}
	for _, f := range c.Presets {
		rs, err := mancala.ParseRuleset(f.Ruleset)
		if err != nil {
			return fmt.Errorf("search: calibration of %q: %v", f.Ruleset, err)
		}
		if rs != mancala.Default(rs.Game) {
			return fmt.Errorf("search: calibration of %q: not a preset; presets are the games at their defaults", f.Ruleset)
		}
		if seen[f.Ruleset] {
			return fmt.Errorf("search: calibration of %q given twice", f.Ruleset)
		}
		seen[f.Ruleset] = true
		if math.IsNaN(f.Intercept) || math.IsInf(f.Intercept, 0) || !(f.Slope >= 0) || math.IsInf(f.Slope, 0) {
			return fmt.Errorf("search: calibration of %q: intercept %v and slope %v must be finite, the slope 0 or more", f.Ruleset, f.Intercept, f.Slope)
		}
	}
	return nil
}

// ParseCalibration reads a calibration as `matombo calibrate` writes it.
func ParseCalibration(data []byte) (*Calibration, error) {
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("search: reading a calibration: %v", err)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

//go:embed calibration.json
var calibrationJSON []byte

var defaultCalibration = sync.OnceValues(func() (*Calibration, error) { return ParseCalibration(calibrationJSON) })

// DefaultCalibration returns the calibration shipped with the program
// (search/calibration.json). Callers must not change it.
func DefaultCalibration() *Calibration {
	c, err := defaultCalibration()
	if err != nil { // the file is checked by the package's tests
		panic("search: the shipped calibration.json is invalid: " + err.Error())
	}
	return c
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// FitLogistic fits chance = sigmoid(a + b*x) to the outcomes ys (each 0 to
// 1: a loss, a draw as 0.5, a win) at the scores xs by maximum likelihood,
// with Newton's method. A tiny ridge penalty keeps the fit finite when the
// outcomes are perfectly separated by the score.
func FitLogistic(xs, ys []float64) (a, b float64, err error) {
	if len(xs) != len(ys) {
		return 0, 0, fmt.Errorf("search: %d scores but %d outcomes", len(xs), len(ys))
	}
	if len(xs) < 2 {
		return 0, 0, errors.New("search: a logistic fit needs at least 2 positions")
	}
	for i := range ys {
		if !(ys[i] >= 0 && ys[i] <= 1) || math.IsNaN(xs[i]) || math.IsInf(xs[i], 0) {
			return 0, 0, fmt.Errorf("search: position %d: score %v, outcome %v; scores must be finite, outcomes 0 to 1", i, xs[i], ys[i])
		}
	}
	const ridge = 1e-6
	n := float64(len(xs))
	for iter := 0; iter < 100; iter++ {
		// gradient g and Hessian h of the mean negative log-likelihood
		var g0, g1, h00, h01, h11 float64
		for i, x := range xs {
			p := sigmoid(a + b*x)
			r := p - ys[i]
			w := p * (1 - p)
			g0 += r
			g1 += r * x
			h00 += w
			h01 += w * x
			h11 += w * x * x
		}
		g0, g1 = g0/n+ridge*a, g1/n+ridge*b
		h00, h01, h11 = h00/n+ridge, h01/n, h11/n+ridge
		det := h00*h11 - h01*h01
		if !(det > 0) {
			return a, b, errors.New("search: the logistic fit is singular (all scores equal?)")
		}
		da := (h11*g0 - h01*g1) / det
		db := (h00*g1 - h01*g0) / det
		a, b = a-da, b-db
		if math.Abs(da) < 1e-10 && math.Abs(db) < 1e-10 {
			return a, b, nil
		}
	}
	return a, b, nil
}

// LogLoss returns the mean log-loss, in nats, of the chances ps for the
// outcomes ys (0 to 1 each); chances are kept within [1e-9, 1-1e-9].
func LogLoss(ps, ys []float64) float64 {
	if len(ps) == 0 {
		return 0
	}
	sum := 0.0
	for i, p := range ps {
		p = math.Min(math.Max(p, 1e-9), 1-1e-9)
		sum -= ys[i]*math.Log(p) + (1-ys[i])*math.Log(1-p)
	}
	return sum / float64(len(ps))
}

// Reliability sorts the chances ps into bins equal bins of [0, 1] and
// returns, for each bin holding a position, the mean chance and the mean
// outcome (ys).
func Reliability(ps, ys []float64, bins int) []ReliabilityBin {
	bins = max(bins, 1)
	out := make([]ReliabilityBin, bins)
	for i := range out {
		out[i].Lo, out[i].Hi = float64(i)/float64(bins), float64(i+1)/float64(bins)
	}
	for i, p := range ps {
		k := min(max(int(p*float64(bins)), 0), bins-1)
		out[k].Count++
		out[k].Predicted += p
		out[k].Observed += ys[i]
	}
	kept := out[:0]
	for _, b := range out {
		if b.Count > 0 {
			b.Predicted /= float64(b.Count)
			b.Observed /= float64(b.Count)
			kept = append(kept, b)
		}
	}
	return kept
}
