package cli

import (
	"context"
	"fmt"
	"io"

	"matombo/mancala"
)

func helpCommand() command {
	return command{
		name:    "help",
		summary: "explain matombo, a command, or the rulesets",
		usage: `usage: matombo help [<command> | rulesets]

Without an argument, lists the commands. With a command's name, prints its
usage and examples (as 'matombo <command> -h' does). 'matombo help rulesets'
lists the games and their options.

examples:
  matombo help
  matombo help perft
  matombo help rulesets
`,
		run: runHelp,
	}
}

func runHelp(_ context.Context, e *env, args []string) int {
	switch {
	case len(args) == 0:
		writeOverview(e.stdout)
		return exitOK
	case len(args) > 1:
		return e.usageError("help", "takes at most one argument, got %d", len(args))
	case args[0] == "rulesets":
		writeRulesets(e.stdout)
		return exitOK
	}
	c, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(e.stderr, "matombo help: unknown command %q%s\n\n", args[0], suggest(args[0]))
		writeCommandList(e.stderr)
		return exitUsage
	}
	fmt.Fprint(e.stdout, c.usage)
	return exitOK
}

// writeRulesets lists the games, their options and the presets.
func writeRulesets(w io.Writer) {
	fmt.Fprint(w, `A ruleset is a game name then options key=value, in any order, each at most
once; missing options take their defaults (RULES.md §3). On the command line
give it as one quoted argument ("tsoro size=8 bonus=3") or as separate words
(tsoro size=8 bonus=3).

`)
	for _, g := range mancala.Games() {
		fmt.Fprintf(w, "%s (preset: %s)\n", g, mancala.Default(g).Full())
		fmt.Fprint(w, indent(mancala.OptionHelp(g)))
	}
}
