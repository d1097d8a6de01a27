package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"matombo/bench"
	"matombo/mancala"
)

// maxBenchSeconds bounds --seconds.
const maxBenchSeconds = 3600

func benchCommand() command {
	return command{
		name:    "bench",
		summary: "measure random playouts per second, compared with Ludii",
		usage: fmt.Sprintf(`usage: matombo bench [--json] [--seconds S] [--seed N] [ruleset ...]

Plays uniformly random games from the start position for S seconds per
ruleset, on one goroutine (one core), and prints per ruleset the playouts
per second, the playouts per second of CPU time the loop got (on a busy
machine, the better estimate of a quiet one's speed), the stones dropped
(sown) per second, the heap allocations per playout and, where Ludii
publishes a figure (2.2 GHz Xeon, one thread), the ratio of playouts per
second to it. The project's targets: at least %d× Ludii (goal %d×), and
at least %d playouts/s for nsolo. Run it on a quiet machine.

Rulesets are given as words (each game name starts a new ruleset, its
options follow it) or as quoted arguments. Without any, it measures:
%s
flags (before or after the rulesets):
  --json        print a JSON list of objects with the fields ruleset,
                playouts_per_sec, playouts_per_cpu_sec (where the system
                tells), drops_per_sec, allocs_per_playout, playouts,
                seconds, seed, gomaxprocs and, where Ludii has a figure,
                ludii_playouts_per_sec and ratio_to_ludii
  --seconds S   seconds per ruleset, a decimal number above 0 (default 1)
  --seed N      seed of the random choices (default 1)

examples:
  matombo bench
  matombo bench --seconds 3
  matombo bench --json nsolo "tsoro size=8 bonus=3"
  matombo bench tsoro size=12 choro --seed 7
`, bench.MinLudiiRatio, bench.GoalLudiiRatio, bench.MinNsoloPlayouts, indent(rulesetStrings(bench.DefaultRulesets()))),
		run: runBench,
	}
}

// benchRow is one ruleset's figures, as printed in JSON.
type benchRow struct {
	Ruleset          string  `json:"ruleset"`
	PlayoutsPerSec   float64 `json:"playouts_per_sec"`
	PerCPUSec        float64 `json:"playouts_per_cpu_sec,omitempty"`
	DropsPerSec      float64 `json:"drops_per_sec"`
	AllocsPerPlayout float64 `json:"allocs_per_playout"`
	Playouts         int     `json:"playouts"`
	Seconds          float64 `json:"seconds"`
	Seed             uint64  `json:"seed"`
	GOMAXPROCS       int     `json:"gomaxprocs"`
	Ludii            float64 `json:"ludii_playouts_per_sec,omitempty"`
	RatioToLudii     float64 `json:"ratio_to_ludii,omitempty"`
}

func runBench(ctx context.Context, e *env, args []string) int {
	c := benchCommand()
	fs := flagSet(c.name)
	asJSON := fs.Bool("json", false, "")
	seconds := fs.String("seconds", "1", "")
	seed := fs.Uint64("seed", 1, "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	sec, err := strconv.ParseFloat(*seconds, 64)
	if err != nil || !(sec > 0 && sec <= maxBenchSeconds) {
		return e.usageError(c.name, "bad --seconds %q: give a decimal number of seconds above 0 and at most %d", *seconds, maxBenchSeconds)
	}
	rulesets := bench.DefaultRulesets()
	if len(pos) > 0 {
		if rulesets, err = splitRulesets(pos); err != nil {
			return e.usageError(c.name, "%v", err)
		}
	}
	d := time.Duration(sec * float64(time.Second))
	procs := runtime.GOMAXPROCS(0)
	width := 0
	for _, rs := range rulesets {
		width = max(width, len(rs.String()))
	}
	if !*asJSON {
		fmt.Fprintf(e.stdout, "random playouts from the start on one goroutine: %s %s/%s, GOMAXPROCS=%d, %gs per ruleset, seed %d\n\n",
			runtime.Version(), runtime.GOOS, runtime.GOARCH, procs, sec, *seed)
		fmt.Fprintf(e.stdout, "%-*s  %11s  %11s  %12s  %14s  %6s  %8s\n", width, "ruleset", "playouts/s", "per CPU-s", "drops/s", "allocs/playout", "Ludii", "vs Ludii")
	}
	rows := []benchRow{}
	for _, rs := range rulesets {
		var res bench.Result
		if !finish(ctx, e, c.name, func() { res = bench.Playouts(rs, d, *seed) }) {
			return exitFailure
		}
		if res.Err != nil {
			e.errorf(c.name, "%s: %v", rs, res.Err)
			return exitFailure
		}
		row := benchRow{
			Ruleset:          rs.String(),
			PlayoutsPerSec:   res.PlayoutsPerSec(),
			PerCPUSec:        res.PlayoutsPerCPUSec(),
			DropsPerSec:      res.DropsPerSec(),
			AllocsPerPlayout: res.AllocsPerPlayout(),
			Playouts:         res.Playouts,
			Seconds:          res.Elapsed.Seconds(),
			Seed:             *seed,
			GOMAXPROCS:       procs,
		}
		if v, ok := bench.Ludii(rs); ok {
			row.Ludii, row.RatioToLudii = v, row.PlayoutsPerSec/v
		}
		rows = append(rows, row)
		if !*asJSON {
			ludii, ratio := "", ""
			if row.Ludii > 0 {
				ludii, ratio = thousands(row.Ludii), fmt.Sprintf("%.1fx", row.RatioToLudii)
			}
			line := fmt.Sprintf("%-*s  %11s  %11s  %12s  %14.2f  %6s  %8s", width, row.Ruleset,
				thousands(row.PlayoutsPerSec), thousands(row.PerCPUSec), thousands(row.DropsPerSec), row.AllocsPerPlayout, ludii, ratio)
			fmt.Fprintln(e.stdout, strings.TrimRight(line, " "))
		}
	}
	if *asJSON {
		out, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			e.errorf(c.name, "%v", err)
			return exitFailure
		}
		fmt.Fprintf(e.stdout, "%s\n", out)
		return exitOK
	}
	fmt.Fprintf(e.stdout, "\ntargets: at least %dx Ludii (goal %dx); nsolo at least %s playouts/s\n",
		bench.MinLudiiRatio, bench.GoalLudiiRatio, thousands(bench.MinNsoloPlayouts))
	fmt.Fprintln(e.stdout, "per CPU-s: playouts per second of the loop's own CPU time; well above playouts/s means a busy machine")
	return exitOK
}

// thousands prints v rounded to a whole number with thousands separators.
func thousands(v float64) string {
	digits := strconv.FormatInt(int64(v+0.5), 10)
	var b strings.Builder
	for i, ch := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}

// rulesetStrings returns the canonical strings of rs.
func rulesetStrings(rs []mancala.Ruleset) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}
