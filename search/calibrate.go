package search

import (
	"context"
	"fmt"
	"math/rand/v2"

	"matombo/mancala"
)

// AnalysisLevel is the level whose search a game review uses by default:
// the level whose scores the shipped calibration was fitted on. Level 6
// searches 64,000 nodes a position, about 50 ms, deep enough for lines of
// several turns.
const AnalysisLevel = 6

// CalibrationConfig configures the self-play games of a calibration.
type CalibrationConfig struct {
	Games   int    // games per preset, 10 to 100,000; every fifth is held out
	Level   int    // the level whose search scores the positions (as a review searches)
	Play    int    // the level of both players of the self-play games
	Every   int    // score every Every-th turn start, 1 to 20 (positions of a game are alike)
	Seed    uint64 // seeds the openings and the players
	Opening int    // random turns at the start of each game (0 to 10), for variety
	// Progress, if set, is called after each game with the preset and the
	// games done so far.
	Progress func(rs mancala.Ruleset, done, games int)
}

// Validate reports whether cfg is usable.
func (cfg CalibrationConfig) Validate() error {
	switch {
	case cfg.Games < 10 || cfg.Games > 100_000:
		return fmt.Errorf("search: %d calibration games; use 10 to 100000", cfg.Games)
	case cfg.Opening < 0 || cfg.Opening > 10:
		return fmt.Errorf("search: %d random opening turns; use 0 to 10", cfg.Opening)
	case cfg.Every < 1 || cfg.Every > 20:
		return fmt.Errorf("search: scoring every %d turn starts; use 1 to 20", cfg.Every)
	}
	if _, err := Level(cfg.Play); err != nil {
		return err
	}
	_, err := Level(cfg.Level)
	return err
}

// Sample is one scored position of a self-play game: the score the
// review's search gave it at the start of a turn, for South, and the points
// South scored in the end (1 a win, 0.5 a draw, 0 a loss).
type Sample struct {
	Game    int     // the game's number, from 0
	Score   int     // South's score, hundredths of a stone
	Outcome float64 // South's points in the game
}

// heldOut reports whether game number g is held out of the fit.
func heldOut(g int) bool { return g%5 == 4 }

// Calibrate plays cfg.Games self-play games of each ruleset at level
// cfg.Play, scores every cfg.Every-th turn start with the search of level
// cfg.Level, and fits a curve per ruleset (see FitPreset). The games are
// played one after another on one core. With the node-limited levels 1 to
// 7 the same configuration gives the same calibration on any machine, and
// each preset's curve depends only on its own games, so presets can be
// calibrated in separate runs.
func Calibrate(ctx context.Context, rulesets []mancala.Ruleset, cfg CalibrationConfig) (*Calibration, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Calibration{Level: cfg.Level, Play: cfg.Play, Every: cfg.Every, Seed: cfg.Seed, Opening: cfg.Opening}
	for _, rs := range rulesets {
		var samples []Sample
		south := 0.0
		for g := range cfg.Games {
			ss, outcome, err := CalibrationGame(ctx, rs, cfg, g)
			if err != nil {
				return nil, fmt.Errorf("search: calibrating %s, game %d: %w", rs, g+1, err)
			}
			samples = append(samples, ss...)
			south += outcome
			if cfg.Progress != nil {
				cfg.Progress(rs, g+1, cfg.Games)
			}
		}
		f, err := FitPreset(rs, samples, cfg.Games)
		if err != nil {
			return nil, err
		}
		f.SouthScore = south / float64(cfg.Games)
		c.Presets = append(c.Presets, f)
	}
	return c, nil
}

// CalibrationGame plays self-play game number g of rs: cfg.Opening random
// turns, then two players of level cfg.Play (with their noise and
// blunders, for variety), and returns the scored turn starts and South's
// points. Every cfg.Every-th turn start (counted from one that depends on
// g, so that both sides' turns are scored) is scored by the review's search
// at level cfg.Level. The two choices of a simultaneous Choro opening are
// drawn at random (each side chooses without seeing the other's). A
// position with a single legal action or a proven win or loss for a score
// gives no sample.
func CalibrationGame(ctx context.Context, rs mancala.Ruleset, cfg CalibrationConfig, g int) ([]Sample, float64, error) {
	spec, err := Level(cfg.Play)
	if err != nil {
		return nil, 0, err
	}
	scoreSpec, err := Level(cfg.Level)
	if err != nil {
		return nil, 0, err
	}
	scorer, _, err := newScorer(scoreSpec, Limits{}, cfg.Seed)
	if err != nil {
		return nil, 0, err
	}
	s, err := mancala.NewGame(rs)
	if err != nil {
		return nil, 0, err
	}
	var players [2]*AlphaBeta
	for side := range players {
		ab, err := NewAlphaBeta(AlphaBetaConfig{
			Seed: cfg.Seed ^ uint64(2*g+side)*0x9e3779b97f4a7c15, Workers: 1, TableBits: 16,
			Noise: spec.Noise, Blunder: spec.Blunder, Quiesce: spec.Quiesce, Limits: spec.Limits(),
		})
		if err != nil {
			return nil, 0, err
		}
		players[side] = ab
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(g)))
	var buf []mancala.Action
	for !s.IsOver() && s.Turns() < cfg.Opening {
		buf = s.Legal(buf[:0])
		if err := s.Apply(buf[rng.IntN(len(buf))]); err != nil {
			return nil, 0, err
		}
	}
	var out []Sample
	starts := g // turn starts met, offset by the game's number
	for !s.IsOver() {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		me := s.ToMove()
		if s.InSimultaneousOpening() { // each side chooses unseen: at random here
			buf = s.Legal(buf[:0])
			if err := s.Apply(buf[rng.IntN(len(buf))]); err != nil {
				return nil, 0, err
			}
			continue
		}
		if s.AtTurnStart() {
			if starts%cfg.Every == 0 {
				if _, err := scorer.Choose(ctx, s, Limits{}); err != nil {
					return nil, 0, err
				}
				if st := scorer.LastStats(); st.Depth > 0 && st.Score <= winBound && st.Score >= -winBound {
					sc := st.Score
					if me != mancala.South {
						sc = -sc
					}
					out = append(out, Sample{Game: g, Score: sc})
				}
			}
			starts++
		}
		a, err := players[me].Choose(ctx, s, Limits{})
		if err != nil {
			return nil, 0, err
		}
		if err := s.Apply(a); err != nil {
			return nil, 0, fmt.Errorf("%s chose an illegal action: %w", me.Name(), err)
		}
	}
	outcome := 0.5
	if w, ok := s.Outcome().Result.Winner(); ok {
		outcome = 0
		if w == mancala.South {
			outcome = 1
		}
	}
	for i := range out {
		out[i].Outcome = outcome
	}
	return out, outcome, nil
}

// FitPreset fits the curve of rs on the samples of games games: the games
// held out (every fifth) are left out of the fit and measure it, by their
// log-loss and their reliability diagram (ten bins).
func FitPreset(rs mancala.Ruleset, samples []Sample, games int) (PresetFit, error) {
	f := PresetFit{Ruleset: rs.String(), Games: games}
	for g := range games {
		if heldOut(g) {
			f.TestGames++
		} else {
			f.TrainGames++
		}
	}
	var xs, ys, tx, ty []float64
	for _, sm := range samples {
		if heldOut(sm.Game) {
			tx, ty = append(tx, float64(sm.Score)/100), append(ty, sm.Outcome)
		} else {
			xs, ys = append(xs, float64(sm.Score)/100), append(ys, sm.Outcome)
		}
	}
	f.TrainPositions, f.TestPositions = len(xs), len(tx)
	a, b, err := FitLogistic(xs, ys)
	if err != nil {
		return f, fmt.Errorf("search: fitting %s: %w", rs, err)
	}
	f.Intercept, f.Slope = a, b
	mean := 0.0
	for _, y := range ys {
		mean += y
	}
	mean /= float64(len(ys))
	ps, base := make([]float64, len(tx)), make([]float64, len(tx))
	for i, x := range tx {
		ps[i], base[i] = sigmoid(a+b*x), mean
	}
	f.TestLogLoss, f.BaseLogLoss = LogLoss(ps, ty), LogLoss(base, ty)
	f.Bins = Reliability(ps, ty, 10)
	return f, nil
}

// newScorer returns the alpha-beta search that scores positions for a
// review and a calibration: one worker, no noise, the level's node and
// depth limits and its quiescence, or lim (and no quiescence) when it is
// set. The level's time limit, a safety net for play, is left out: on a
// busy machine it would cut some searches short and make the scores
// depend on the load.
func newScorer(spec LevelSpec, lim Limits, seed uint64) (*AlphaBeta, Limits, error) {
	quiesce := spec.Quiesce
	if lim.IsZero() {
		lim = Limits{Depth: spec.Depth, Nodes: spec.Nodes}
		if lim.IsZero() { // level 8 thinks for a time only
			lim.MoveTime = spec.MoveTime
		}
	} else {
		quiesce = 0
	}
	ab, err := NewAlphaBeta(AlphaBetaConfig{Seed: seed, Workers: 1, TableBits: 18, Quiesce: quiesce, Limits: lim})
	return ab, lim, err
}
