package search

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"matombo/mancala"
)

// TestFitLogisticRecoversKnownParameters draws outcomes from a known curve
// and checks that the fit finds it again.
func TestFitLogisticRecoversKnownParameters(t *testing.T) {
	for _, want := range []struct{ a, b float64 }{{0, 1}, {0.4, 0.25}, {-1.2, 2.5}} {
		rng := rand.New(rand.NewPCG(7, uint64(want.b*100)))
		var xs, ys []float64
		for range 40_000 {
			x := rng.NormFloat64() * 3
			y := 0.0
			if rng.Float64() < sigmoid(want.a+want.b*x) {
				y = 1
			}
			xs, ys = append(xs, x), append(ys, y)
		}
		a, b, err := FitLogistic(xs, ys)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a-want.a) > 0.06 || math.Abs(b-want.b)/want.b > 0.05 {
			t.Errorf("fit of a=%v b=%v: got a=%.3f b=%.3f", want.a, want.b, a, b)
		}
		// The fit's log-loss is no worse than the true curve's on its own data.
		fit, truth := make([]float64, len(xs)), make([]float64, len(xs))
		for i, x := range xs {
			fit[i], truth[i] = sigmoid(a+b*x), sigmoid(want.a+want.b*x)
		}
		if LogLoss(fit, ys) > LogLoss(truth, ys)+1e-9 {
			t.Errorf("the fitted curve's log-loss %.5f exceeds the true curve's %.5f", LogLoss(fit, ys), LogLoss(truth, ys))
		}
	}
}

// TestFitLogisticDrawsAndSeparation: half points are fitted as such, and
// perfectly separated outcomes give a steep but finite curve.
func TestFitLogisticDrawsAndSeparation(t *testing.T) {
	a, b, err := FitLogistic([]float64{-1, 0, 1, -1, 0, 1}, []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5})
	if err != nil || math.Abs(a) > 1e-6 || math.Abs(b) > 1e-6 {
		t.Errorf("all draws: a=%v b=%v err=%v, want 0 0", a, b, err)
	}
	a, b, err = FitLogistic([]float64{-2, -1, 1, 2}, []float64{0, 0, 1, 1})
	if err != nil || math.IsNaN(a) || math.IsInf(b, 0) || b < 3 {
		t.Errorf("separated: a=%v b=%v err=%v, want a steep finite slope", a, b, err)
	}
	if _, _, err := FitLogistic([]float64{1}, []float64{1}); err == nil {
		t.Error("a fit of one position should fail")
	}
	if _, _, err := FitLogistic([]float64{1, 2}, []float64{1, 2}); err == nil {
		t.Error("an outcome of 2 should be refused")
	}
}

func TestLogLossAndReliability(t *testing.T) {
	if got := LogLoss([]float64{0.5, 0.5}, []float64{1, 0}); math.Abs(got-math.Ln2) > 1e-12 {
		t.Errorf("log-loss of even chances: %v, want ln 2", got)
	}
	bins := Reliability([]float64{0.05, 0.07, 0.55, 1}, []float64{0, 1, 1, 1}, 10)
	if len(bins) != 3 || bins[0].Count != 2 || math.Abs(bins[0].Predicted-0.06) > 1e-12 || bins[0].Observed != 0.5 ||
		bins[1].Lo != 0.5 || bins[2].Count != 1 || bins[2].Hi != 1 {
		t.Errorf("bins %+v", bins)
	}
}

// TestShippedCalibration checks search/calibration.json: a curve for every
// preset, rising with South's score, and better than a constant chance on
// its held-out games.
func TestShippedCalibration(t *testing.T) {
	c := DefaultCalibration()
	if c.Level != AnalysisLevel {
		t.Errorf("the shipped calibration is of level %d; the review searches at level %d", c.Level, AnalysisLevel)
	}
	for _, rs := range mancala.Presets() {
		f, ok := c.Fit(rs.Game)
		if !ok {
			t.Errorf("no curve for %s", rs)
			continue
		}
		if f.Slope <= 0 || f.TestGames == 0 || f.TestPositions == 0 || f.TestLogLoss >= f.BaseLogLoss || len(f.Bins) == 0 {
			t.Errorf("%s: %+v", rs, f)
		}
		if c.SouthChance(rs, 500) <= c.SouthChance(rs, 0) || c.SouthChance(rs, WinScore) != 1 || c.SouthChance(rs, -WinScore) != 0 {
			t.Errorf("%s: chances do not rise with the score", rs)
		}
	}
	if _, err := ParseCalibration([]byte(`{"presets":[{"ruleset":"tsoro size=6","slope":1}]}`)); err == nil {
		t.Error("a calibration of a non-preset should be refused")
	}
	if _, err := ParseCalibration([]byte(`{"presets":[{"ruleset":"nsolo","slope":-1}]}`)); err == nil {
		t.Error("a negative slope should be refused")
	}
}

// TestCalibrateIsDeterministic plays a small calibration twice.
func TestCalibrateIsDeterministic(t *testing.T) {
	cfg := CalibrationConfig{Games: 10, Level: 2, Play: 2, Every: 1, Seed: 3, Opening: 2}
	rs := []mancala.Ruleset{mancala.Default(mancala.Nsolo)}
	a, err := Calibrate(context.Background(), rs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Calibrate(context.Background(), rs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	fa, fb := a.Presets[0], b.Presets[0]
	if fa.Intercept != fb.Intercept || fa.Slope != fb.Slope || fa.TrainPositions != fb.TrainPositions {
		t.Errorf("two runs differ: %+v and %+v", fa, fb)
	}
	if fa.TrainGames != 8 || fa.TestGames != 2 || fa.TrainPositions == 0 || fa.TestPositions == 0 {
		t.Errorf("split: %+v", fa)
	}
	if err := (CalibrationConfig{Games: 5, Level: 2, Play: 2, Every: 1}).Validate(); err == nil {
		t.Error("5 games should be refused")
	}
}
