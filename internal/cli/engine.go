package cli

import (
	"context"
	"fmt"
	"time"

	"matombo/protocol"
	"matombo/search"
)

func engineCommand() command {
	return command{
		name:    "engine",
		summary: "speak the engine protocol on standard input and output",
		usage: fmt.Sprintf(`usage: matombo engine [--seed N] [--movetime MS]

Runs the engine line protocol of RULES.md §6 on standard input and output,
with matombo's AI behind go (the strongest level for movetime and depth,
a seeded tree search for playouts),
one command per line and one answer line per command, so that any program
(a GUI, a tournament runner) can drive matombo. In the simultaneous Choro
opening, go solves the matrix game of the 64 joint openings and draws from
its equilibrium with the seed; for North it never uses South's choice:

  new <ruleset>         ok | error <reason>
  position <position>   ok | error <reason>
  play <action>         ok | error <reason>
  legal                 legal <action> ...
  show                  position <position>
  result                result S | result N | result draw | result none
  go [<limit> ...]      bestmove <action>; limits movetime <ms>,
                        playouts <n>, depth <n>
  quit                  ends the program (so does the end of the input)

flags:
  --seed N        seed of the engine's random choices (default 1)
  --movetime MS   thinking time of a go without limits, in milliseconds
                  (1 to %d; default %d)

examples:
  matombo engine
  printf 'new tsoro size=8\nlegal\nplay a5\nshow\ngo movetime 100\n' | matombo engine
`, protocol.MaxMoveTime, protocol.DefaultMoveTime.Milliseconds()),
		run: runEngine,
	}
}

func runEngine(ctx context.Context, e *env, args []string) int {
	c := engineCommand()
	fs := flagSet(c.name)
	seed := fs.Uint64("seed", 1, "")
	movetime := fs.Int("movetime", int(protocol.DefaultMoveTime.Milliseconds()), "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return e.usageError(c.name, "takes no arguments, got %q", pos[0])
	}
	if *movetime < 1 || *movetime > protocol.MaxMoveTime {
		return e.usageError(c.name, "bad --movetime %d: give milliseconds from 1 to %d", *movetime, protocol.MaxMoveTime)
	}
	ai, err := search.NewByLimits(search.MaxLevel, *seed)
	if err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	eng := protocol.New(protocol.Config{Seed: *seed, Player: ai, DefaultMoveTime: time.Duration(*movetime) * time.Millisecond})
	if !finish(ctx, e, c.name, func() { err = eng.Run(ctx, e.stdin, e.stdout) }) {
		return exitFailure
	}
	if err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	return exitOK
}
