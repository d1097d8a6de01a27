package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"matombo/mancala"
	"matombo/plot"
	"matombo/search"
)

func calibrateCommand() command {
	return command{
		name:    "calibrate",
		summary: "fit the winning chance of search scores on self-play games",
		usage: fmt.Sprintf(`usage: matombo calibrate [<game>...] [--games N] [--level K] [--play K]
                        [--every n] [--seed S] [--opening turns]
                        [--out file] [--plots dir]
       matombo calibrate --from file [--plots dir]

Plays N self-play games of each preset (the games at their defaults: tsoro,
misoro-tsoro, musoro-tsoro, nsolo, choro, or those named) between two
players of level --play, one game after another on one core; scores every
n-th turn start with the search 'matombo analyse --level K' uses (level
K's limits, no noise), and fits, per preset, South's winning chance (a draw
counting half) as a logistic curve of that score, in stones for South.
Every fifth game is held out of the fit: the curve's
mean log-loss on its positions, against a constant chance, and its
reliability diagram (predicted against observed, ten bins) measure it.
Each game starts with a few random turns, for variety; the simultaneous
Choro opening is always chosen at random. Levels 1 to 7 are limited by
nodes, so the same flags give the same calibration.

The calibration, as JSON, goes to --out (default: standard output, and the
summary to standard error). The program ships one in
search/calibration.json, which 'matombo analyse' uses; docs/ANALYSIS.md
says how it was made.

flags:
  --games N         games per preset, 10 to 100000 (default 200)
  --level K         the level whose search scores the positions, 1 to %d
                    (default %d, the level 'matombo analyse' searches at)
  --play K          the level of both players (default 4: fast, and its
                    noise varies the games)
  --every n         score every n-th turn start of a game, 1 to 20
                    (default 5)
  --seed S          seed of the openings and the players (default 1)
  --opening turns   random turns at the start of each game, 0 to 10
                    (default 2)
  --out file        write the calibration there
  --plots dir       also draw the reliability diagrams in dir, as
                    reliability.svg and reliability.png
  --from file       play nothing: print the summary of the calibration in
                    file (and draw it with --plots)

examples:
  matombo calibrate --out search/calibration.json --plots docs/analysis
  matombo calibrate nsolo --games 50
`, search.MaxLevel, search.AnalysisLevel),
		run: runCalibrate,
	}
}

func runCalibrate(ctx context.Context, e *env, args []string) int {
	c := calibrateCommand()
	fs := flagSet(c.name)
	games := fs.Int("games", 200, "")
	level := fs.Int("level", search.AnalysisLevel, "")
	play := fs.Int("play", 4, "")
	every := fs.Int("every", 5, "")
	seed := fs.Uint64("seed", 1, "")
	opening := fs.Int("opening", 2, "")
	out := fs.String("out", "", "")
	plotDir := fs.String("plots", "", "")
	from := fs.String("from", "", "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if *from != "" {
		return calibrationFrom(e, c, *from, *plotDir, len(pos) > 0 || *out != "")
	}
	var rulesets []mancala.Ruleset
	for _, name := range pos {
		rs, err := mancala.ParseRuleset(name)
		if err != nil || rs != mancala.Default(rs.Game) {
			return e.usageError(c.name, "%q is not a preset; give game names: tsoro, misoro-tsoro, musoro-tsoro, nsolo, choro", name)
		}
		rulesets = append(rulesets, rs)
	}
	if len(rulesets) == 0 {
		rulesets = mancala.Presets()
	}
	cfg := search.CalibrationConfig{Games: *games, Level: *level, Play: *play, Every: *every, Seed: *seed, Opening: *opening}
	if err := cfg.Validate(); err != nil {
		return e.usageError(c.name, "%s", err)
	}
	bar := &progressBar{w: e.stderr, start: time.Now()}
	total := int64(len(rulesets) * cfg.Games)
	var before int64
	cfg.Progress = func(rs mancala.Ruleset, done, games int) {
		bar.draw(before+int64(done), total)
		if done == games {
			before += int64(games)
		}
	}
	var cal *search.Calibration
	var err error
	if !finish(ctx, e, c.name, func() { cal, err = search.Calibrate(ctx, rulesets, cfg) }) {
		return exitFailure
	}
	bar.end()
	if err != nil {
		e.errorf(c.name, "%s", err)
		return exitFailure
	}
	cal.Command = fmt.Sprintf("matombo calibrate --games %d --level %d --play %d --every %d --seed %d --opening %d",
		cfg.Games, cfg.Level, cfg.Play, cfg.Every, cfg.Seed, cfg.Opening)
	data, err := json.MarshalIndent(cal, "", "  ")
	if err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	data = append(data, '\n')
	summary := e.stderr
	if *out != "" {
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			e.errorf(c.name, "--out: %v", err)
			return exitFailure
		}
		summary = e.stdout
	} else {
		e.stdout.Write(data)
	}
	writeCalibrationSummary(summary, cal)
	if *plotDir != "" {
		if err := writeReliabilityPlots(*plotDir, cal); err != nil {
			e.errorf(c.name, "--plots: %v", err)
			return exitFailure
		}
	}
	fmt.Fprintf(e.stderr, "%s games in %.1f s\n", thousands(float64(total)), time.Since(bar.start).Seconds())
	return exitOK
}

// calibrationFrom prints the summary of the calibration in file and draws
// it in plotDir, if set.
func calibrationFrom(e *env, c command, file, plotDir string, others bool) int {
	if others {
		return e.usageError(c.name, "--from reads a calibration: give no games and no --out")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		e.errorf(c.name, "--from: %v", err)
		return exitFailure
	}
	cal, err := search.ParseCalibration(b)
	if err != nil {
		e.errorf(c.name, "--from %s: %s", file, err)
		return exitFailure
	}
	writeCalibrationSummary(e.stdout, cal)
	if plotDir != "" {
		if err := writeReliabilityPlots(plotDir, cal); err != nil {
			e.errorf(c.name, "--plots: %v", err)
			return exitFailure
		}
	}
	return exitOK
}

// writeCalibrationSummary prints a line per preset: the fit and how it did
// on the held-out games.
func writeCalibrationSummary(w io.Writer, cal *search.Calibration) {
	fmt.Fprintf(w, "scores of level %d, games of level %d, every %d turn starts, seed %d, %d random opening turns\n",
		cal.Level, cal.Play, cal.Every, cal.Seed, cal.Opening)
	fmt.Fprintf(w, "%-14s %6s %10s %10s %9s %7s %9s %9s %7s\n", "preset", "games", "fitted", "held-out", "intercept", "slope", "log-loss", "constant", "South")
	for _, f := range cal.Presets {
		fmt.Fprintf(w, "%-14s %6d %10d %10d %9.3f %7.3f %9.3f %9.3f %6.1f%%\n", f.Ruleset, f.Games, f.TrainPositions, f.TestPositions,
			f.Intercept, f.Slope, f.TestLogLoss, f.BaseLogLoss, 100*f.SouthScore)
	}
}

// reliabilityChart is the reliability diagram of every preset of cal.
func reliabilityChart(cal *search.Calibration) *plot.Reliability {
	ch := &plot.Reliability{Title: fmt.Sprintf("South's winning chance, level %d: predicted and observed", cal.Level)}
	for _, f := range cal.Presets {
		p := plot.ReliabilityPanel{Title: fmt.Sprintf("%s: %d held-out games", f.Ruleset, f.TestGames),
			Note: fmt.Sprintf("%d positions, log-loss %.3f (constant %.3f)", f.TestPositions, f.TestLogLoss, f.BaseLogLoss)}
		for _, b := range f.Bins {
			p.Bins = append(p.Bins, plot.CalibrationBin{Predicted: b.Predicted, Observed: b.Observed, Count: b.Count})
		}
		ch.Panels = append(ch.Panels, p)
	}
	return ch
}

// writeReliabilityPlots writes the reliability diagrams to dir as SVG and
// PNG.
func writeReliabilityPlots(dir string, cal *search.Calibration) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ch := reliabilityChart(cal)
	for ext, write := range map[string]func(io.Writer, plot.Chart) error{".svg": plot.WriteSVG, ".png": plot.WritePNG} {
		var b bytes.Buffer
		if err := write(&b, ch); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "reliability"+ext), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
