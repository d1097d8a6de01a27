package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"matombo/lab"
)

func labCommand() command {
	return command{
		name:    "lab",
		summary: "play many games of rulesets side by side and compare them",
		usage: fmt.Sprintf(`usage: matombo lab <ruleset>... [--games N] [--player random|level:K]
                  [--seed n] [--workers n] [--opening turns]
                  [--json] [--csv file] [--plots dir]

Plays N games of each ruleset, in parallel on all cores, and reports per
ruleset: South wins, North wins and draws (shares with Wilson 95%%
intervals); game length in turns, head-setup turns included (mean with its
95%% interval, standard deviation, median, range, histogram); decisions per
turn; legal actions per decision; laps per turn; captures per game; the
games ended by no legal move, by repetition and by the 2,000-turn cap; and
the turns cut by the 1,000-lap limit. A progress bar with the time left is
drawn on standard error. Game g of every ruleset follows the same seeded
random stream, so the report depends only on the seed, never on the number
of workers.

Rulesets are given as words (each game name starts a new ruleset, its
options follow it) or as quoted arguments.

flags (before or after the rulesets):
  --games N         games per ruleset, 1 to %d (default 10000)
  --player P        who plays both sides: random (default) or level:K, the
                    playing level K (1 to 8) on both sides
  --seed n          seed of the random choices (default 1)
  --workers n       games played at once (default: one per core)
  --opening turns   level players only: turns played at random before the
                    levels take over, so that games differ (default %d)
  --json            print a JSON list with one object per ruleset: ruleset,
                    games, south_wins, north_wins, draws, turns_mean,
                    turns_sd, turns_median, turns_histogram and the rest
  --csv file        also write the figures as CSV (one line per ruleset)
  --plots dir       also draw game-length and first-player charts in dir,
                    as SVG and PNG

examples:
  matombo lab tsoro size=8 bonus=0 tsoro size=8 bonus=3 --games 100000
  matombo lab "nsolo size=8" "nsolo size=36" --games 20000 --plots plots
  matombo lab misoro-tsoro musoro-tsoro --games 200 --player level:2 --json
`, lab.MaxGames, lab.DefaultOpening),
		run: runLab,
	}
}

func runLab(ctx context.Context, e *env, args []string) int {
	c := labCommand()
	fs := flagSet(c.name)
	games := fs.Int("games", 10000, "")
	player := fs.String("player", "random", "")
	seed := fs.Uint64("seed", 1, "")
	workers := fs.Int("workers", 0, "")
	opening := fs.Int("opening", -1, "")
	asJSON := fs.Bool("json", false, "")
	csvPath := fs.String("csv", "", "")
	plotDir := fs.String("plots", "", "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) == 0 {
		return e.usageError(c.name, "give at least one ruleset, such as \"tsoro size=8\"")
	}
	rulesets, err := splitRulesets(pos)
	if err != nil {
		return e.usageError(c.name, "%v", err)
	}
	cfg := lab.Config{Rulesets: rulesets, Games: *games, Seed: *seed, Workers: *workers}
	if cfg.Player, err = lab.ParsePlayer(*player); err != nil {
		return e.usageError(c.name, "--player: %s", strings.TrimPrefix(err.Error(), "lab: "))
	}
	switch {
	case *opening >= 0:
		cfg.Opening = *opening
	case cfg.Player.Level != 0:
		cfg.Opening = lab.DefaultOpening
	}
	if err := cfg.Validate(); err != nil {
		return e.usageError(c.name, "%s", strings.TrimPrefix(err.Error(), "lab: "))
	}
	bar := &progressBar{w: e.stderr, start: time.Now()}
	cfg.Progress = bar.draw
	rep, err := lab.Run(ctx, cfg)
	bar.end()
	if err != nil {
		e.errorf(c.name, "%s", strings.TrimPrefix(err.Error(), "lab: "))
		return exitFailure
	}
	if *asJSON {
		out, err := json.MarshalIndent(rep.Rulesets, "", "  ")
		if err != nil {
			e.errorf(c.name, "%v", err)
			return exitFailure
		}
		fmt.Fprintf(e.stdout, "%s\n", out)
	} else if err := rep.WriteText(e.stdout); err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	if *csvPath != "" {
		if err := writeFile(*csvPath, rep.WriteCSV); err != nil {
			e.errorf(c.name, "--csv: %v", err)
			return exitFailure
		}
	}
	if *plotDir != "" {
		if _, err := lab.WritePlots(*plotDir, rep); err != nil {
			e.errorf(c.name, "--plots: %s", strings.TrimPrefix(err.Error(), "lab: "))
			return exitFailure
		}
	}
	var played int64
	for _, s := range rep.Rulesets {
		played += s.Games
	}
	fmt.Fprintf(e.stderr, "%s games in %.1f s with %d workers\n", thousands(float64(played)), rep.Elapsed.Seconds(), rep.Workers)
	if !rep.Complete {
		e.errorf(c.name, "interrupted: the report covers the games finished")
		return exitFailure
	}
	return exitOK
}

// writeFile creates path and fills it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// progressBar draws the lab's progress on one line: a bar, the games done
// and the time left at the current pace.
type progressBar struct {
	w     io.Writer
	start time.Time
	last  time.Time // when the bar was last drawn
	drawn bool
}

// draw redraws the bar, at most twice a second until the end.
func (p *progressBar) draw(done, total int64) {
	const width = 30
	if total <= 0 || (done < total && time.Since(p.last) < 500*time.Millisecond) {
		return
	}
	p.last = time.Now()
	filled := int(done * width / total)
	eta := "--"
	if elapsed := time.Since(p.start); done > 0 {
		left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
		eta = left.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r[%s%s] %3d%%  %s/%s games  ETA %-8s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		done*100/total, thousands(float64(done)), thousands(float64(total)), eta)
	p.drawn = true
}

// end finishes the bar's line.
func (p *progressBar) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
