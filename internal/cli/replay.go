package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"matombo/mancala"
)

// maxRecordBytes bounds the record read; a game of 2,000 turns is far smaller.
const maxRecordBytes = 16 << 20

func replayCommand() command {
	return command{
		name:    "replay",
		summary: "check a game record and print its final position and result",
		usage: `usage: matombo replay <record-file>

Reads a game record (RULES.md §5; '-' reads standard input), replays it
under its own Ruleset header and checks it: every action legal, every turn
ending exactly after its last written action (only a game in play, Result
"*", may stop mid-turn), and the Result header agreeing with the rules when
they have ended the game. Prints the ruleset, the number of turns, the final
board and position, and the result. A bad record prints the error, naming
the line or the turn, side and action at fault, and exits with status 1.

A record looks like:
  [Ruleset "tsoro size=8"]
  [Result "*"]

  1. a2,a8 d3 2. a1 d1,stop *

examples:
  matombo replay game.txt
  matombo replay - < game.txt
`,
		run: runReplay,
	}
}

func runReplay(_ context.Context, e *env, args []string) int {
	c := replayCommand()
	if len(args) != 1 {
		return e.usageError(c.name, "takes one record file ('-' for standard input), got %d arguments", len(args))
	}
	name := args[0]
	text, err := readRecord(e, name)
	if err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	rec, err := mancala.ParseRecord(text)
	if err != nil {
		e.errorf(c.name, "%s: %s", name, plain(err))
		return exitFailure
	}
	s, err := rec.Replay()
	if err != nil {
		e.errorf(c.name, "%s: %s", name, plain(err))
		return exitFailure
	}
	w := e.stdout
	fmt.Fprintf(w, "ruleset: %s\n", rec.Ruleset)
	if rec.Position != "" {
		fmt.Fprintf(w, "start: %s\n", rec.Position)
	}
	fmt.Fprintf(w, "turns: %d\n\n", len(rec.Turns))
	writeBoard(w, s)
	fmt.Fprintf(w, "\nposition: %s\n", s.Position())
	fmt.Fprintf(w, "stones: South %d, North %d\n", s.Stones(mancala.South), s.Stones(mancala.North))
	fmt.Fprintf(w, "result: %s\n", describeResult(rec, s))
	return exitOK
}

// readRecord reads the record file name, or standard input for "-".
func readRecord(e *env, name string) (string, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxRecordBytes+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %v", name, err)
	}
	if len(b) > maxRecordBytes {
		return "", fmt.Errorf("%s: the record is larger than %d bytes", name, maxRecordBytes)
	}
	return string(b), nil
}

// describeResult says the record's result and how the game stands.
func describeResult(rec *mancala.Record, s *mancala.State) string {
	if s.IsOver() {
		o := s.Outcome()
		return fmt.Sprintf("%s (the game ended: %s)", o.Result, o.Reason)
	}
	play := "in play, " + s.ToMove().Name() + " to move"
	if p := s.Pending(); p != "" {
		play += ": " + p
	}
	if rec.Result == mancala.NoResult {
		return "* (" + play + ")"
	}
	return fmt.Sprintf("%s (given by the record; by the rules the game is %s)", rec.Result, play)
}

// writeBoard draws the board as South sees it: rows d, c (North), b, a
// (South), columns 1..N, heads marked with "*".
func writeBoard(w io.Writer, s *mancala.State) {
	n := s.Size()
	var b strings.Builder
	b.WriteString("  ")
	for col := 1; col <= n; col++ {
		fmt.Fprintf(&b, "%3d ", col)
	}
	b.WriteString("\n")
	for row := mancala.RowD; ; row-- {
		b.WriteString(row.String() + " ")
		for col := 1; col <= n; col++ {
			h := mancala.MakeHole(row, col)
			mark := " "
			if s.IsHead(h) {
				mark = "*"
			}
			fmt.Fprintf(&b, "%3d%s", s.Count(h), mark)
		}
		b.WriteString("\n")
		if row == mancala.RowA {
			break
		}
		if row == mancala.RowC {
			b.WriteString("  " + strings.Repeat("-", 4*n) + "\n")
		}
	}
	for line := range strings.Lines(b.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
}
