package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

func playCommand() command {
	return command{
		name:    "play",
		summary: "play a game against the computer in the terminal",
		usage: `usage: matombo play <ruleset> [--level K] [--side south|north] [--position pos] [--record file] [--seed n]

Plays a game against the computer at level K (1 beginner to 8 strongest,
default 4). The board is drawn as South sees it (rows d and c are North's,
b and a South's; heads marked with *), and the legal actions are listed at
each of your decisions. Type an action, or:

  hint      ask the strongest level for a suggestion (about 1 s)
  board     draw the board again
  resign    give up the game
  quit      stop, leaving the game unfinished

--position starts the game from a position (RULES.md §5, at the start of
a turn of the side it names), such as one copied from the web app's
position viewer; the record then carries it in a Position header.

The record of the game is saved at the end (default: matombo-<time>.txt in
the current directory).

examples:
  matombo play tsoro size=8
  matombo play nsolo --level 8 --side north
  matombo play "choro" --level 2 --record mygame.txt
  matombo play tsoro size=6 heads=none --position "0,0,0,0,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,0,0,0,3 N"
`,
		run: runPlay,
	}
}

// hintTime is the thinking time of a hint.
const hintTime = time.Second

func runPlay(ctx context.Context, e *env, args []string) int {
	c := playCommand()
	fs := flagSet(c.name)
	level := fs.Int("level", 4, "")
	side := fs.String("side", "south", "")
	recordPath := fs.String("record", "", "")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "")
	position := fs.String("position", "", "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) == 0 {
		return e.usageError(c.name, "needs one ruleset, such as: matombo play tsoro size=8")
	}
	start, err := startState(pos, *position)
	if err != nil {
		return e.usageError(c.name, "%v", err)
	}
	if start.IsOver() {
		return e.usageError(c.name, "the game is over in position %q (%s): start from a position where the side to move can act", *position, start.Outcome().Reason)
	}
	var human mancala.Player
	switch strings.ToLower(*side) {
	case "south", "s":
		human = mancala.South
	case "north", "n":
		human = mancala.North
	default:
		return e.usageError(c.name, "--side %q: use south or north", *side)
	}
	ai, err := search.NewLevel(*level, *seed)
	if err != nil {
		return e.usageError(c.name, "--level %d: levels are %d to %d", *level, search.MinLevel, search.MaxLevel)
	}
	hinter, err := search.NewLevel(search.MaxLevel, *seed+1)
	if err != nil {
		return exitFailure
	}
	rec, err := mancala.NewRecorder(start)
	if err != nil {
		return exitFailure
	}
	rec.SetTag(human.Name(), "human")                                         //nolint:errcheck // a valid tag
	rec.SetTag(human.Other().Name(), fmt.Sprintf("matombo level %d", *level)) //nolint:errcheck // a valid tag
	g := &terminalGame{e: e, rec: rec, human: human, ai: ai, hinter: hinter, in: bufio.NewScanner(e.stdin)}
	fmt.Fprintf(e.stdout, "%s: you play %s against level %d.\n", start.Ruleset(), human.Name(), *level)
	g.loop(ctx)
	path := *recordPath
	if path == "" {
		path = "matombo-" + time.Now().UTC().Format("20060102-150405") + ".txt"
	}
	if err := os.WriteFile(path, []byte(rec.Record().String()), 0o644); err != nil {
		e.errorf(c.name, "cannot save the record: %v", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "record saved to %s\n", path)
	return exitOK
}

// terminalGame is a game between a person at the terminal and a level.
type terminalGame struct {
	e      *env
	rec    *mancala.Recorder
	human  mancala.Player
	ai     search.Player
	hinter search.Player
	in     *bufio.Scanner
}

// loop plays until the game ends, the person resigns or quits, or the
// input ends.
func (g *terminalGame) loop(ctx context.Context) {
	s := g.rec.State()
	out := g.e.stdout
	writeBoard(out, s)
	for !s.IsOver() {
		if ctx.Err() != nil {
			return
		}
		if s.ToMove() != g.human {
			a, err := g.ai.Choose(ctx, s.Clone(), search.Limits{})
			if err != nil {
				fmt.Fprintf(out, "the computer could not move: %v\n", err)
				return
			}
			g.rec.Apply(a) //nolint:errcheck // the search returns legal actions
			fmt.Fprintf(out, "%s plays %s\n", g.human.Other().Name(), a)
			if s.AtTurnStart() || s.IsOver() {
				writeBoard(out, s)
			}
			continue
		}
		if !g.humanDecision(ctx, s) {
			return
		}
	}
	o := s.Outcome()
	switch w, ok := o.Result.Winner(); {
	case !ok:
		fmt.Fprintf(out, "the game is drawn (%s)\n", o.Reason)
	case w == g.human:
		fmt.Fprintf(out, "you win (%s)\n", o.Reason)
	default:
		fmt.Fprintf(out, "the computer wins (%s)\n", o.Reason)
	}
}

// humanDecision reads commands until the person plays an action; it
// returns false when the game should stop.
func (g *terminalGame) humanDecision(ctx context.Context, s *mancala.State) bool {
	out := g.e.stdout
	legal := s.Legal(nil)
	names := make([]string, len(legal))
	for i, a := range legal {
		names[i] = a.String()
	}
	mancala.SortActionStrings(names)
	prompt := "your move"
	if p := s.Pending(); p != "" {
		prompt = p
	}
	for {
		fmt.Fprintf(out, "%s [%s]> ", prompt, strings.Join(names, " "))
		if !g.in.Scan() {
			fmt.Fprintln(out)
			return false
		}
		line := strings.TrimSpace(g.in.Text())
		switch line {
		case "":
			continue
		case "quit":
			return false
		case "resign":
			if err := g.rec.SetResult(resultFor(g.human.Other())); err != nil {
				fmt.Fprintf(out, "%s\n", plain(err))
				continue
			}
			fmt.Fprintln(out, "you resign; the computer wins")
			return false
		case "board":
			writeBoard(out, s)
			continue
		case "hint":
			a, err := g.hinter.Choose(ctx, s.Clone(), search.Limits{MoveTime: hintTime})
			if err != nil {
				fmt.Fprintf(out, "no hint: %v\n", err)
			} else {
				fmt.Fprintf(out, "hint: %s\n", a)
			}
			continue
		case "help":
			fmt.Fprintln(out, "type an action from the list, or hint, board, resign, quit")
			continue
		}
		a, err := mancala.ParseAction(line)
		if err == nil {
			err = g.rec.Apply(a)
		}
		if err != nil {
			fmt.Fprintf(out, "%s\n", plain(err))
			continue
		}
		writeBoard(out, s) // also mid-turn: a head, pick or direction choice needs the board
		return true
	}
}

func resultFor(p mancala.Player) mancala.Result {
	if p == mancala.South {
		return mancala.SouthWins
	}
	return mancala.NorthWins
}
