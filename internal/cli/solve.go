package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// solveTableBits is the default size of the solver's table: 2^22 entries,
// about 100 MB.
const solveTableBits = 22

func solveCommand() command {
	return command{
		name:    "solve",
		summary: "prove who wins a position, and how (the exact solver)",
		usage: `usage: matombo solve <ruleset> [--position <pos> | --record <file>] [--moves <actions>]
                     [--time <seconds>] [--nodes <n>] [--depth <n>] [--table <bits>]
                     [--json] [--progress]

Proves the exact value of a position under RULES.md, safeguards included
(repetition, the turn cap): a win, a loss or a draw for the side to move,
with an action that achieves it. The solver (package search) searches every
line to a horizon of d decisions, once counting the horizon as a loss and
once as a win for the side to move, and grows d until the two agree. What it
proved of every legal action is printed even when a limit stops it first;
the value is then "unknown".

The position is the ruleset's start, or --position, or the end of the game
in --record; --moves then plays written actions from there, separated by
spaces or commas ("a6 d1" or "a6,d1"); forced steps are played by the rules
as usual. Interrupt with Ctrl-C to stop early and print what was proven.

Before the simultaneous Choro opening (plain choro's start), both players
choose at once: a matrix game. solve then solves each position after the
joint openings (South's choice, North's) in rounds of growing horizon, the
limits counting for all of them, and prints the table of their values for
South, an equilibrium strategy of each player and South's value as an
expected score (win 1, draw 1/2, loss 0). While entries are unproven it
gives bounds: the lower counts them at their proven lower bounds (unknown:
a loss for South), the upper at their upper bounds (unknown: a win);
South's strategy earns at least the lower, North's holds South to at most
the upper. The value is "win" or "loss" when the bounds meet there, "mixed"
when they meet between, else "unknown"; the actions are South's choices,
each against a North who knows it. --json adds "simultaneous": "joint" (the
entries: south, north, value for South, depth), "south_mix" and "north_mix"
(hole: probability), "value_low", "value_high" and "proven".

flags (before or after the ruleset):
  --position <pos>   start from this position (RULES.md §5)
  --record <file>    start from the end of this game record ('-': standard input)
  --moves <actions>  then play these actions
  --time <seconds>   stop after this long (default 60; 0: no time limit)
  --nodes <n>        stop after n nodes (default: no limit)
  --depth <n>        the largest horizon, in decisions (default: 128)
  --table <bits>     the table holds 2^bits entries of 24 bytes (16 to 26;
                     default 22, about 100 MB)
  --json             print one JSON object instead of text
  --progress         report each horizon's round of the simultaneous opening
                     on standard error

examples:
  matombo solve "choro opening=sequential cw=any leave=no"   # the DLP's Choro: South wins by a6 (seconds)
  matombo solve "choro opening=sequential cw=any leave=no" --moves "a6 d2"   # and after 1. a6 d2?
  matombo solve choro --time 3600 --progress   # Driberg's: the simultaneous opening's matrix game
  matombo solve "tsoro size=6 heads=none bonus=0" --position '0,0,0,0,0,0/0,0,3,0,0,0/0,0,0,0,0,0/2,0,0,0,5,0 S'
`,
		run: runSolve,
	}
}

// solveReport is the result of matombo solve, as --json prints it.
type solveReport struct {
	Ruleset  string        `json:"ruleset"`
	Position string        `json:"position"`
	ToMove   string        `json:"to_move"`
	Value    string        `json:"value"`            // win, loss, draw or unknown, for the side to move
	Winner   string        `json:"winner,omitempty"` // South or North when proven
	Best     string        `json:"best,omitempty"`   // an action achieving the value
	Over     string        `json:"over,omitempty"`   // the outcome, when the game has already ended
	Depth    int           `json:"depth"`            // horizon of the last completed pass, in decisions
	Nodes    int           `json:"nodes"`
	Seconds  float64       `json:"seconds"`
	Actions  []solveAction `json:"actions"`
	// Simultaneous is the matrix game of the simultaneous Choro opening,
	// when the position is before it.
	Simultaneous *solveSimultaneous `json:"simultaneous,omitempty"`
}

// solveAction is what was proven of one legal action, for the side to move.
type solveAction struct {
	Action string `json:"action"`
	Lower  int    `json:"lower"` // -1 loss, 0 draw, 1 win
	Upper  int    `json:"upper"`
	Value  string `json:"value"`
}

func runSolve(ctx context.Context, e *env, args []string) int {
	c := solveCommand()
	fs := flagSet(c.name)
	position := fs.String("position", "", "")
	recordFile := fs.String("record", "", "")
	moves := fs.String("moves", "", "")
	seconds := fs.Float64("time", 60, "")
	nodes := fs.Int("nodes", 0, "")
	depth := fs.Int("depth", 0, "")
	bits := fs.Int("table", solveTableBits, "")
	asJSON := fs.Bool("json", false, "")
	progress := fs.Bool("progress", false, "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	switch {
	case *position != "" && *recordFile != "":
		return e.usageError(c.name, "give --position or --record, not both")
	case !(*seconds >= 0) || *seconds > 1e6:
		return e.usageError(c.name, "bad --time %v: give seconds, 0 (no limit) to 1000000", *seconds)
	case *nodes < 0:
		return e.usageError(c.name, "bad --nodes %d: give 0 (no limit) or more", *nodes)
	case *depth < 0 || *depth > search.MaxDepth:
		return e.usageError(c.name, "bad --depth %d: give 1 to %d (0: %d)", *depth, search.MaxDepth, search.MaxDepth)
	case *bits < 16 || *bits > 26:
		return e.usageError(c.name, "bad --table %d: give 16 to 26", *bits)
	}
	s, code, ok := solveStart(e, c.name, pos, *position, *recordFile)
	if !ok {
		return code
	}
	if err := playMoves(s, *moves); err != nil {
		e.errorf(c.name, "--moves: %s", plain(err))
		return exitUsage
	}
	rep := solveReport{Ruleset: s.Ruleset().String(), Position: s.Position(), ToMove: s.ToMove().Name(), Actions: []solveAction{}}
	if s.IsOver() {
		o := s.Outcome()
		rep.Value, rep.Over = "draw", fmt.Sprintf("%s (%s)", o.Result, o.Reason)
		if w, ok := o.Result.Winner(); ok {
			rep.Winner, rep.Value = w.Name(), "loss" // the side to move has lost
			if w == s.ToMove() {
				rep.Value = "win"
			}
		}
		return writeSolve(e, rep, *asJSON)
	}
	lim := search.Limits{Nodes: *nodes, Depth: *depth, MoveTime: time.Duration(*seconds * float64(time.Second))}
	if s.InSimultaneousOpening() && !s.OpeningChoiceHidden() {
		if err := solveOpening(ctx, e, s, *bits, lim, *progress, &rep); err != nil {
			e.errorf(c.name, "%v", err)
			return exitFailure
		}
		return writeSolve(e, rep, *asJSON)
	}
	sv, err := search.NewSolver(*bits)
	if err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	start := time.Now()
	sol, err := sv.Solve(ctx, s, lim)
	if err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.Value, rep.Depth, rep.Nodes = sol.Value.String(), sol.Depth, sol.Nodes
	switch sol.Value {
	case search.Win:
		rep.Winner, rep.Best = s.ToMove().Name(), sol.Best.String()
	case search.Loss:
		rep.Winner = s.ToMove().Other().Name()
	case search.Draw:
		rep.Best = sol.Best.String()
	}
	for _, ab := range sol.Actions {
		rep.Actions = append(rep.Actions, solveAction{Action: ab.Action.String(), Lower: ab.Lower, Upper: ab.Upper, Value: boundsText(ab.Lower, ab.Upper)})
	}
	return writeSolve(e, rep, *asJSON)
}

// solveStart returns the position to solve: the start of the ruleset given
// by words, or --position, or the end of --record's game.
func solveStart(e *env, cmd string, words []string, position, recordFile string) (*mancala.State, int, bool) {
	if recordFile != "" {
		if len(words) > 0 {
			return nil, e.usageError(cmd, "with --record the ruleset comes from the record; drop %q", strings.Join(words, " ")), false
		}
		text, err := readRecord(e, recordFile)
		if err != nil {
			e.errorf(cmd, "%v", err)
			return nil, exitFailure, false
		}
		rec, err := mancala.ParseRecord(text)
		if err != nil {
			e.errorf(cmd, "%s: %s", recordFile, plain(err))
			return nil, exitFailure, false
		}
		s, err := rec.Replay()
		if err != nil {
			e.errorf(cmd, "%s: %s", recordFile, plain(err))
			return nil, exitFailure, false
		}
		return s, exitOK, true
	}
	if len(words) == 0 {
		return nil, e.usageError(cmd, "needs a ruleset (or --record), such as: matombo solve choro"), false
	}
	s, err := startState(words, position)
	if err != nil {
		return nil, e.usageError(cmd, "%v", err), false
	}
	return s, exitOK, true
}

// playMoves plays the written actions in text, separated by spaces or
// commas, on s.
func playMoves(s *mancala.State, text string) error {
	for _, word := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		if s.IsOver() {
			return fmt.Errorf("%q: the game is already over (%s)", word, s.Outcome().Result)
		}
		a, err := mancala.ParseAction(word)
		if err != nil {
			return err
		}
		if err := s.Apply(a); err != nil {
			return err
		}
	}
	return nil
}

// boundsText says what bounds lower..upper (-1 loss, 0 draw, 1 win) prove.
func boundsText(lower, upper int) string {
	switch {
	case lower == upper:
		return search.Verdict(lower).String()
	case lower == -1 && upper == 1:
		return "not proven"
	case lower == 0:
		return "draw or win"
	}
	return "loss or draw"
}

func writeSolve(e *env, rep solveReport, asJSON bool) int {
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		if err := enc.Encode(rep); err != nil {
			e.errorf("solve", "%v", err)
			return exitFailure
		}
		return exitOK
	}
	writeSolveText(e.stdout, rep)
	return exitOK
}

func writeSolveText(w io.Writer, rep solveReport) {
	fmt.Fprintf(w, "ruleset: %s\nposition: %s\n", rep.Ruleset, rep.Position)
	if rep.Over != "" {
		fmt.Fprintf(w, "the game is over: %s\n", rep.Over)
		return
	}
	fmt.Fprintf(w, "to move: %s\n", rep.ToMove)
	if rep.Simultaneous != nil {
		writeOpeningText(w, rep)
		return
	}
	switch rep.Value {
	case "win":
		fmt.Fprintf(w, "value: %s wins, by %s\n", rep.Winner, rep.Best)
	case "loss":
		fmt.Fprintf(w, "value: %s wins: every action of %s loses\n", rep.Winner, rep.ToMove)
	case "draw":
		fmt.Fprintf(w, "value: a draw with best play, by %s\n", rep.Best)
	default:
		fmt.Fprintf(w, "value: not proven within the limits\n")
	}
	fmt.Fprintf(w, "horizon: %d decisions; %s nodes in %.1f s\n", rep.Depth, thousands(float64(rep.Nodes)), rep.Seconds)
	fmt.Fprintln(w, "actions:")
	for _, a := range rep.Actions {
		fmt.Fprintf(w, "  %-6s %s\n", a.Action, a.Value)
	}
}
