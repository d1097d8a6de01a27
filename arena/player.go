// Package arena plays matches between players (search players, levels or
// external engines speaking the protocol of RULES.md §6), with seats swapped
// on each pair of games and pairs started from the same random opening
// (optionally only openings that a fixed search judges balanced, see
// Balance), and measures the result as a score and an Elo difference with
// its 95% interval, optionally stopping early on a sequential test (SPRT).
package arena

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// Spec names a player: "random", "uct" (plain UCT with uniform playouts),
// "mcts" (tree search with the solver and greedy playouts), "alphabeta",
// "level:K" (K from 1 to 8) or "engine:<command>" (a program speaking the
// engine protocol; the command is split at spaces, with no shell).
type Spec struct {
	Kind    string // random, uct, mcts, alphabeta, level, engine
	Level   int
	Command []string
	text    string
}

// String returns the spec as written.
func (s Spec) String() string { return s.text }

// ParseSpec reads a player spec.
func ParseSpec(text string) (Spec, error) {
	sp := Spec{text: text}
	kind, arg, hasArg := strings.Cut(text, ":")
	switch kind {
	case "random", "uct", "mcts", "alphabeta":
		if hasArg {
			break
		}
		sp.Kind = kind
		return sp, nil
	case "level":
		k, err := strconv.Atoi(arg)
		if err != nil || k < search.MinLevel || k > search.MaxLevel {
			return sp, fmt.Errorf("arena: bad player %q: the level must be %d to %d", text, search.MinLevel, search.MaxLevel)
		}
		sp.Kind, sp.Level = kind, k
		return sp, nil
	case "engine":
		sp.Command = strings.Fields(arg)
		if len(sp.Command) == 0 {
			return sp, fmt.Errorf("arena: bad player %q: engine: needs a command, as in engine:matombo engine", text)
		}
		sp.Kind = kind
		return sp, nil
	}
	return sp, fmt.Errorf("arena: unknown player %q; players are random, uct, mcts, alphabeta, level:K (K 1 to 8) and engine:<command>", text)
}

// seat is a player in a match: a search player, plus the history of the game
// for players that need it and a way to release what it holds.
type seat interface {
	search.Player
	io.Closer
}

// historian is a player that must see the game from its start (an engine,
// which is sent the actions with play).
type historian interface {
	setHistory(rs mancala.Ruleset, start string, actions []mancala.Action)
}

type plain struct{ search.Player }

func (plain) Close() error { return nil }

// open starts the player named by sp.
func (sp Spec) open(ctx context.Context, seed uint64) (seat, error) {
	switch sp.Kind {
	case "random":
		return plain{search.NewRandom(seed)}, nil
	case "uct":
		m, err := search.NewMCTS(search.PlainUCT(seed))
		return plain{m}, err
	case "mcts":
		m, err := search.NewMCTS(search.DefaultMCTS(seed))
		return plain{m}, err
	case "alphabeta":
		ab, err := search.NewAlphaBeta(search.DefaultAlphaBeta(seed))
		return plain{ab}, err
	case "level":
		lp, err := search.NewLevel(sp.Level, seed)
		return plain{lp}, err
	case "engine":
		return startEngine(ctx, sp.Command)
	}
	return nil, fmt.Errorf("arena: player kind %q cannot be started", sp.Kind)
}

// engine is an external program driven through the engine protocol.
type engine struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	name  string
	rs    string
	start string
	sent  []mancala.Action // actions the engine has been sent for this game
	want  []mancala.Action
	fresh bool
}

func startEngine(ctx context.Context, command []string) (*engine, error) {
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("arena: cannot start engine %q: %w", strings.Join(command, " "), err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	return &engine{cmd: cmd, in: in, out: sc, name: strings.Join(command, " ")}, nil
}

func (e *engine) setHistory(rs mancala.Ruleset, start string, actions []mancala.Action) {
	if rs.String() != e.rs || start != e.start || len(actions) < len(e.sent) || !prefix(e.sent, actions) {
		e.rs, e.start, e.sent, e.fresh = rs.String(), start, e.sent[:0], true
	}
	e.want = actions
}

func prefix(a, b []mancala.Action) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ask sends one command and returns the answer line.
func (e *engine) ask(line string) (string, error) {
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		return "", fmt.Errorf("arena: engine %q: %w", e.name, err)
	}
	if !e.out.Scan() {
		err := e.out.Err()
		if err == nil {
			err = errors.New("it closed its output")
		}
		return "", fmt.Errorf("arena: engine %q gave no answer to %q: %w", e.name, line, err)
	}
	ans := e.out.Text()
	if strings.HasPrefix(ans, "error") {
		return "", fmt.Errorf("arena: engine %q answered %q to %q", e.name, ans, line)
	}
	return ans, nil
}

// Choose brings the engine's game up to date and asks it for a move.
func (e *engine) Choose(ctx context.Context, s *mancala.State, lim search.Limits) (mancala.Action, error) {
	if e.fresh {
		if _, err := e.ask("new " + e.rs); err != nil {
			return 0, err
		}
		if e.start != "" {
			if _, err := e.ask("position " + e.start); err != nil {
				return 0, err
			}
		}
		e.fresh = false
	}
	for _, a := range e.want[len(e.sent):] {
		if _, err := e.ask("play " + a.String()); err != nil {
			return 0, err
		}
		e.sent = append(e.sent, a)
	}
	goLine := "go"
	switch {
	case lim.MoveTime > 0:
		goLine += " movetime " + strconv.FormatInt(max(lim.MoveTime.Milliseconds(), 1), 10)
	case lim.Playouts > 0:
		goLine += " playouts " + strconv.Itoa(lim.Playouts)
	case lim.Depth > 0:
		goLine += " depth " + strconv.Itoa(lim.Depth)
	default:
		goLine += " movetime 1000"
	}
	ans, err := e.ask(goLine)
	if err != nil {
		return 0, err
	}
	mv, ok := strings.CutPrefix(ans, "bestmove ")
	if !ok {
		return 0, fmt.Errorf("arena: engine %q answered %q to go; want bestmove <action>", e.name, ans)
	}
	return mancala.ParseAction(mv)
}

// Close asks the engine to quit and waits a moment for it.
func (e *engine) Close() error {
	io.WriteString(e.in, "quit\n") //nolint:errcheck // the engine may be gone
	e.in.Close()
	done := make(chan error, 1)
	go func() { done <- e.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		e.cmd.Process.Kill() //nolint:errcheck // best effort
		<-done
	}
	return nil
}
