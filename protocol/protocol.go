// Package protocol runs the engine line protocol of RULES.md §6: one command
// per line in, one answer line per command out, so that any program can drive
// the engine.
//
//	new <ruleset>          ok | error <reason>
//	position <position>    ok | error <reason>
//	play <action>          ok | error <reason>
//	legal                  legal <action> … (sorted by byte order; "legal" alone when over)
//	show                   position <position>
//	result                 result S | result N | result draw | result none
//	go [<limit> …]         bestmove <action> | error <reason>
//	quit                   (no answer; ends the session)
//
// Choices where RULES.md is silent:
//   - go takes any of the limits movetime <ms> (1 to 3,600,000), playouts <n>
//     (1 to 10^9) and depth <n> (1 to 100), each at most once, in any order;
//     a search stops at the first limit it reaches. go with no limit searches
//     with movetime 1000 (Config.DefaultMoveTime).
//   - A line is at most 64 KiB (Config.MaxLine); a longer one is answered with
//     one error and skipped whole. A line may end in LF or CR LF; spaces and
//     tabs around and between words are ignored.
//   - Answers never contain control characters: an error quoting the input
//     quotes it in Go syntax.
//   - If the chooser fails, overruns its deadline by more than a grace period,
//     or proposes an action that is not legal, go answers error. An overrun
//     search is told to stop (its context is cancelled), and the next go
//     waits for it to end, a grace period at most, before it starts its own:
//     two searches never run at once; if the overrun one still runs, that go
//     answers error and starts nothing.
//   - End of input without quit ends the session cleanly, as quit does.
//   - In the simultaneous Choro opening, go for North chooses as if South's
//     choice were unknown: the chooser gets the state holding that choice
//     (show does not print it) and must not use it. The default player (search.Greedy) plays
//     the best response, by the stones right after the openings, to an
//     opponent who opens at random; matombo's AI (search.ByLimits) draws
//     from the equilibrium of the opening's matrix game. Both are
//     reproducible with their seed.
package protocol

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// The bounds of the go limits and of a line.
const (
	MaxMoveTime     = 3_600_000 // ms
	MaxPlayouts     = 1_000_000_000
	MaxDepth        = 100
	DefaultMaxLine  = 64 << 10
	DefaultMoveTime = 1000 * time.Millisecond
)

// Config configures an Engine. The zero Config is usable.
type Config struct {
	// Player picks the moves of go (search.Limits holds the limits of go:
	// MoveTime, Playouts, Depth). It must return a legal action of the
	// state it is given, should return by the context's deadline, and may
	// change the state (the engine passes it a copy). In the simultaneous
	// Choro opening (State.InSimultaneousOpening) it must choose for North
	// without using South's choice, which the state holds: from
	// State.BeforeOpeningChoice(), as the search players do. Nil: a
	// search.Greedy player seeded with Seed.
	Player search.Player
	// Seed seeds the default player.
	Seed uint64
	// DefaultMoveTime is the movetime of a go with no limit (0: 1 s).
	DefaultMoveTime time.Duration
	// MaxLine is the longest line read, in bytes, its end of line excluded
	// (0: 64 KiB).
	MaxLine int
	// Grace is how long past its deadline go waits for the chooser before
	// answering error (0: 1 s).
	Grace time.Duration
}

// Engine is one protocol session: the game being played and the player.
// An Engine is not safe for concurrent use.
type Engine struct {
	cfg   Config
	game  *mancala.State // nil before the first new
	spare *mancala.State // a copy to change, swapped with game on success
	buf   []mancala.Action
	ctx   context.Context // the context of Run, for go
	// overrun, if not nil, ends when the search of a go that overran its
	// deadline (and was cancelled) returns; the next go waits for it.
	overrun chan struct{}
}

// New returns an engine with no game yet.
func New(cfg Config) *Engine {
	if cfg.Player == nil {
		cfg.Player = search.NewGreedy(cfg.Seed, 0)
	}
	if cfg.DefaultMoveTime <= 0 {
		cfg.DefaultMoveTime = DefaultMoveTime
	}
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	if cfg.Grace <= 0 {
		cfg.Grace = time.Second
	}
	return &Engine{cfg: cfg, ctx: context.Background()}
}

// State returns a copy of the game being played, or nil before the first new.
func (e *Engine) State() *mancala.State {
	if e.game == nil {
		return nil
	}
	return e.game.Clone()
}

const commandList = "commands are new, position, play, legal, show, result, go and quit"

// internalError starts the answer to a command that made the rules core or
// the chooser panic: a bug, reported rather than crashing the engine.
const internalError = "error internal error (a bug; the game is unchanged): "

// Handle answers one line (without its end of line; a trailing CR is
// ignored). It returns the answer line, without a newline, and whether the
// session ends (quit, whose answer is ""). It never panics.
func (e *Engine) Handle(line string) (answer string, quit bool) {
	defer func() {
		if p := recover(); p != nil {
			answer, quit = clean(fmt.Sprintf("%s%v", internalError, p)), false
		}
	}()
	line = strings.TrimSuffix(line, "\r")
	if len(line) > e.cfg.MaxLine {
		return fmt.Sprintf("error line of %d bytes is too long; lines are at most %d bytes", len(line), e.cfg.MaxLine), false
	}
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
	if len(fields) == 0 {
		return "error empty line; " + commandList, false
	}
	cmd, args := fields[0], fields[1:]
	if cmd == "quit" {
		if len(args) > 0 {
			return clean("error " + surplus(cmd, args).Error()), false
		}
		return "", true
	}
	var ans string
	var err error
	switch cmd {
	case "new":
		err = e.newGame(args)
	case "position", "play", "legal", "show", "result", "go":
		if e.game == nil {
			return "error no game yet; start one with new <ruleset>, such as new tsoro size=8", false
		}
		ans, err = e.gameCommand(cmd, args)
	default:
		err = fmt.Errorf("unknown command %s; %s", quote(cmd), commandList)
	}
	if err != nil {
		return clean("error " + mancala.Message(err)), false
	}
	if ans == "" {
		ans = "ok"
	}
	return clean(ans), false
}

// gameCommand answers the commands that need a game.
func (e *Engine) gameCommand(cmd string, args []string) (string, error) {
	noArgs := func() error {
		if len(args) > 0 {
			return surplus(cmd, args)
		}
		return nil
	}
	switch cmd {
	case "position":
		if len(args) == 0 {
			return "", fmt.Errorf("position needs a position, such as %s", e.game.Position())
		}
		return "", e.update(func(s *mancala.State) error { return s.SetPosition(strings.Join(args, " ")) })
	case "play":
		if len(args) != 1 {
			return "", errors.New("play takes one action, such as play a3, play a3cw, play stop or play xd5")
		}
		a, err := mancala.ParseAction(args[0])
		if err != nil {
			return "", err
		}
		return "", e.update(func(s *mancala.State) error { return s.Apply(a) })
	case "legal":
		if err := noArgs(); err != nil {
			return "", err
		}
		return strings.TrimSpace("legal " + strings.Join(e.legal(), " ")), nil
	case "show":
		if err := noArgs(); err != nil {
			return "", err
		}
		return "position " + e.game.Position(), nil
	case "result":
		if err := noArgs(); err != nil {
			return "", err
		}
		if !e.game.IsOver() {
			return "result none", nil
		}
		return "result " + e.game.Outcome().Result.String(), nil
	}
	return e.goSearch(args)
}

// update changes the game by f on a copy, kept only when f succeeds, so that
// neither an error nor a panic can leave the game half changed.
func (e *Engine) update(f func(*mancala.State) error) error {
	if e.spare == nil {
		e.spare = e.game.Clone()
	} else {
		e.spare.CopyFrom(e.game)
	}
	if err := f(e.spare); err != nil {
		return err
	}
	e.game, e.spare = e.spare, e.game
	return nil
}

func (e *Engine) newGame(args []string) error {
	if len(args) == 0 {
		return errors.New("new needs a ruleset, such as new tsoro size=8; games are tsoro, misoro-tsoro, musoro-tsoro, nsolo and choro")
	}
	rs, err := mancala.ParseRuleset(strings.Join(args, " "))
	if err != nil {
		return err
	}
	g, err := mancala.NewGame(rs)
	if err != nil {
		return err
	}
	e.game, e.spare = g, nil
	return nil
}

// legal returns the legal actions, sorted by byte order.
func (e *Engine) legal() []string {
	e.buf = e.game.Legal(e.buf[:0])
	names := make([]string, len(e.buf))
	for i, a := range e.buf {
		names[i] = a.String()
	}
	mancala.SortActionStrings(names)
	return names
}

// ParseLimits reads the arguments of go: pairs "movetime <ms>",
// "playouts <n>", "depth <n>", each kind at most once. No arguments give the
// zero Limits.
func ParseLimits(args []string) (search.Limits, error) {
	var lim search.Limits
	seen := map[string]bool{}
	for i := 0; i < len(args); i += 2 {
		kind := args[i]
		var hi int
		switch kind {
		case "movetime":
			hi = MaxMoveTime
		case "playouts":
			hi = MaxPlayouts
		case "depth":
			hi = MaxDepth
		default:
			return lim, fmt.Errorf("unknown limit %s; limits are movetime <ms>, playouts <n> and depth <n>", quote(kind))
		}
		if seen[kind] {
			return lim, fmt.Errorf("limit %s given twice", kind)
		}
		seen[kind] = true
		if i+1 >= len(args) {
			return lim, fmt.Errorf("%s needs a whole number from 1 to %d", kind, hi)
		}
		n, err := strconv.Atoi(args[i+1])
		if err != nil || args[i+1] != strconv.Itoa(n) {
			return lim, fmt.Errorf("%s %s is not a whole number; %s takes a whole number from 1 to %d", kind, quote(args[i+1]), kind, hi)
		}
		if n < 1 || n > hi {
			return lim, fmt.Errorf("%s %s is out of range; %s takes a whole number from 1 to %d", kind, quote(args[i+1]), kind, hi)
		}
		switch kind {
		case "movetime":
			lim.MoveTime = time.Duration(n) * time.Millisecond
		case "playouts":
			lim.Playouts = n
		case "depth":
			lim.Depth = n
		}
	}
	return lim, nil
}

// goSearch answers go: the chooser's action, checked to be legal, not played.
func (e *Engine) goSearch(args []string) (string, error) {
	lim, err := ParseLimits(args)
	if err != nil {
		return "", err
	}
	if e.game.IsOver() {
		return "", fmt.Errorf("the game is over (%s); there is no move to search", e.game.Outcome().Result)
	}
	if lim.IsZero() {
		lim.MoveTime = e.cfg.DefaultMoveTime
	}
	if e.overrun != nil {
		select {
		case <-e.overrun:
			e.overrun = nil
		case <-time.After(e.cfg.Grace):
			return "", fmt.Errorf("the previous search overran its deadline and has not stopped yet; no search started, try go again later")
		}
	}
	// A search bounded by playouts or depth alone still ends by the
	// longest movetime, so that no chooser can hang the engine.
	deadline := lim.MoveTime
	if deadline == 0 {
		deadline = MaxMoveTime * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(e.ctx, deadline)
	defer cancel()
	type choice struct {
		a   mancala.Action
		err error
	}
	done := make(chan choice, 1)
	ended := make(chan struct{}) // closed when the chooser returns
	s := e.game.Clone()
	go func() {
		var c choice
		defer func() {
			if p := recover(); p != nil {
				c = choice{err: fmt.Errorf("the move chooser failed: %v", p)}
			}
			done <- c
			close(ended)
		}()
		c.a, c.err = e.cfg.Player.Choose(ctx, s, lim)
	}()
	var c choice
	timer := time.NewTimer(deadline + e.cfg.Grace)
	defer timer.Stop()
	select {
	case c = <-done:
	case <-timer.C:
		e.overrun = ended // cancelled by the deferred cancel; the next go waits
		return "", fmt.Errorf("the move chooser did not answer within %d ms", deadline.Milliseconds())
	}
	if c.err != nil {
		return "", fmt.Errorf("no move: %v", c.err)
	}
	for _, l := range e.game.Legal(e.buf[:0]) {
		if l == c.a {
			return "bestmove " + c.a.String(), nil
		}
	}
	return "", fmt.Errorf("the move chooser proposed %s, which is not legal here", c.a)
}

// surplus is the error for a command given arguments it does not take.
func surplus(cmd string, args []string) error {
	return fmt.Errorf("surplus arguments %s after %s; %s takes no arguments", quote(strings.Join(args, " ")), cmd, cmd)
}

// quote quotes user text for an answer when it is not plain printable ASCII,
// and cuts it short if it is long.
func quote(s string) string {
	const most = 40
	if len(s) > most {
		s = s[:most] + "..."
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f || s[i] == '"' {
			return strconv.Quote(s)
		}
	}
	return s
}

// clean makes an answer one line of printable text: control characters
// (which only quoted input could bring) become spaces.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

// Run reads commands from in and writes the answers to out until quit, the
// end of in, or the end of ctx (checked between lines, and the deadline of
// any search). It returns nil at quit or the end of in, else the error that
// stopped it.
func (e *Engine) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	e.ctx = ctx
	defer func() { e.ctx = context.Background() }()
	r := bufio.NewReaderSize(in, 4096)
	w := bufio.NewWriter(out)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, tooLong, err := readLine(r, e.cfg.MaxLine)
		if err == io.EOF && line == "" && !tooLong {
			return w.Flush()
		}
		if err != nil && err != io.EOF {
			w.Flush()
			return fmt.Errorf("protocol: reading commands: %w", err)
		}
		var answer string
		quit := false
		if tooLong {
			answer = fmt.Sprintf("error line too long; lines are at most %d bytes", e.cfg.MaxLine)
		} else {
			answer, quit = e.Handle(line)
		}
		if quit {
			return w.Flush()
		}
		w.WriteString(answer)
		w.WriteByte('\n')
		if ferr := w.Flush(); ferr != nil {
			return fmt.Errorf("protocol: writing answers: %w", ferr)
		}
		if err == io.EOF {
			return nil
		}
	}
}

// readLine reads one line and returns it without its LF (a CR before the LF
// is left for Handle). A line of more than max bytes (CR LF excluded) is read
// to its end and dropped: tooLong is set. At the end of input it returns the
// last unterminated line with io.EOF.
func readLine(r *bufio.Reader, max int) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			b = append(b, chunk...)
			if len(b) > max+2 { // too long even with CR LF
				tooLong, b = true, nil
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = strings.TrimSuffix(string(b), "\n")
		if len(strings.TrimSuffix(line, "\r")) > max {
			tooLong, line = true, ""
		}
		return line, tooLong, err
	}
}
