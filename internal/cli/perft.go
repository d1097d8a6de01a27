package cli

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"matombo/bench"
	"matombo/mancala"
)

// maxPerftDepth bounds the depth a user may ask for; the counts grow
// exponentially and depth 15 already takes hours on most rulesets.
const maxPerftDepth = 30

func perftCommand() command {
	return command{
		name:    "perft",
		summary: "count action sequences to a depth (rules check and speed test)",
		usage: `usage: matombo perft <ruleset> <depth> [--divide] [--position <position>] [--time]

Counts the sequences of exactly d written actions from the start position
(RULES.md §6: automatic steps are not actions, a game that ends sooner adds
nothing deeper), and prints one line "<d> <count>" for each d from 1 to
<depth> (1 to 30). docs/PERFT.md lists the expected counts.

The ruleset is the arguments before the depth: one quoted argument or
several words, so "tsoro size=8" 5 and tsoro size=8 5 are the same.

flags (before or after the arguments):
  --divide             instead, print the count below each legal action at
                       the final depth, "<action> <count>" sorted by action,
                       then "total <count>"
  --position <pos>     count from this position (RULES.md §5) instead of the
                       start; it must fit the ruleset
  --time               append to every depth line the time, the counted
                       leaves per second, and the leaves per second of CPU
                       time (which a busy machine distorts less)

examples:
  matombo perft tsoro size=8 5
  matombo perft "nsolo outer=yes extra=1" 4 --divide
  matombo perft misoro-tsoro 3 --position '0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2 S'
  matombo perft choro 6 --time
`,
		run: runPerft,
	}
}

func runPerft(ctx context.Context, e *env, args []string) int {
	c := perftCommand()
	fs := flagSet(c.name)
	divide := fs.Bool("divide", false, "")
	position := fs.String("position", "", "")
	timed := fs.Bool("time", false, "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) < 2 {
		return e.usageError(c.name, "needs a ruleset and a depth, such as: matombo perft tsoro size=8 5")
	}
	last := pos[len(pos)-1]
	depth, err := strconv.Atoi(last)
	if err != nil || depth < 1 || depth > maxPerftDepth {
		if err != nil && strings.Contains(last, "=") {
			return e.usageError(c.name, "missing depth: the last argument must be the depth (1 to %d), got %q", maxPerftDepth, last)
		}
		return e.usageError(c.name, "bad depth %q: the depth is a whole number from 1 to %d", last, maxPerftDepth)
	}
	s, err := startState(pos[:len(pos)-1], *position)
	if err != nil {
		return e.usageError(c.name, "%v", err)
	}
	if *divide {
		var entries []mancala.DivideEntry
		if !finish(ctx, e, c.name, func() { entries = mancala.Divide(s, depth) }) {
			return exitFailure
		}
		slices.SortFunc(entries, func(a, b mancala.DivideEntry) int {
			return strings.Compare(a.Action.String(), b.Action.String())
		})
		var total uint64
		for _, d := range entries {
			fmt.Fprintf(e.stdout, "%s %d\n", d.Action, d.Count)
			total += d.Count
		}
		fmt.Fprintf(e.stdout, "total %d\n", total)
		return exitOK
	}
	for d := 1; d <= depth; d++ {
		var n uint64
		var took, cpu time.Duration
		if !finish(ctx, e, c.name, func() { n, took, cpu = timedPerft(s, d) }) {
			return exitFailure
		}
		if !*timed {
			fmt.Fprintf(e.stdout, "%d %d\n", d, n)
			continue
		}
		line := fmt.Sprintf("%d %d %v %.0f nodes/s", d, n, took.Round(time.Microsecond), float64(n)/max(took.Seconds(), 1e-9))
		if cpu > 0 {
			line += fmt.Sprintf(" %.0f nodes/cpu-s", float64(n)/cpu.Seconds())
		}
		fmt.Fprintln(e.stdout, line)
	}
	return exitOK
}

// timedPerft returns mancala.Perft(s, depth) with the wall-clock time it
// took and the CPU time of its thread (0 where the system cannot tell).
func timedPerft(s *mancala.State, depth int) (n uint64, took, cpu time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, ok0 := bench.ThreadCPUTime()
	start := time.Now()
	n = mancala.Perft(s, depth)
	took = time.Since(start)
	if cpu1, ok1 := bench.ThreadCPUTime(); ok0 && ok1 {
		cpu = cpu1 - cpu0
	}
	return n, took, cpu
}

// rulesetList prints rulesets quoted, separated by commas.
func rulesetList(rs []mancala.Ruleset) string {
	q := rulesetStrings(rs)
	for i := range q {
		q[i] = strconv.Quote(q[i])
	}
	return strings.Join(q, ", ")
}
