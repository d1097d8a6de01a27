// Package cli is the matombo command line: a table of subcommands, each in
// its own file, and Run, which cmd/matombo calls with the process's
// arguments and streams.
//
// To add a subcommand: write a file with a func returning a command (name,
// one-line summary, usage text with examples, run function), and add it to
// the table in commands below. Help, `<cmd> -h` and the unknown-command
// message then include it.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes of Run.
const (
	exitOK      = 0 // success
	exitFailure = 1 // the command ran and failed (e.g. a bad record)
	exitUsage   = 2 // the command line was wrong
)

// env is what a subcommand may use of the process: its streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// errorf prints "matombo <cmd>: <message>" on stderr.
func (e *env) errorf(cmd, format string, args ...any) {
	fmt.Fprintf(e.stderr, "matombo %s: %s\n", cmd, fmt.Sprintf(format, args...))
}

// usageError prints a usage error for cmd with a pointer to its help and
// returns exitUsage.
func (e *env) usageError(cmd, format string, args ...any) int {
	e.errorf(cmd, format, args...)
	fmt.Fprintf(e.stderr, "run 'matombo help %s' for usage\n", cmd)
	return exitUsage
}

// command is one subcommand.
type command struct {
	name    string
	summary string // one line, for the command list
	usage   string // the full help: synopsis, description, examples
	run     func(ctx context.Context, e *env, args []string) int
}

// commands is the table of subcommands, in the order help lists them.
func commands() []command {
	return []command{
		serveCommand(),
		perftCommand(),
		solveCommand(),
		replayCommand(),
		analyseCommand(),
		benchCommand(),
		loadtestCommand(),
		labCommand(),
		arenaCommand(),
		tuneCommand(),
		calibrateCommand(),
		puzzlesCommand(),
		playCommand(),
		engineCommand(),
		versionCommand(),
		helpCommand(),
	}
}

// lookup returns the subcommand called name.
func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// Run runs the matombo command line args (without the program name) and
// returns the process's exit code: 0 for success, 1 when a command failed,
// 2 for a wrong command line.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		return noArguments(ctx, e)
	}
	name := args[0]
	if isHelpFlag(name) {
		name = "help"
	}
	if strings.HasPrefix(name, "-") && name != "help" {
		// Flags without a command are serve's: `matombo --addr :9000`.
		return runServe(ctx, e, args)
	}
	c, ok := lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "matombo: unknown command %q%s\n\n", name, suggest(name))
		writeCommandList(stderr)
		return exitUsage
	}
	if len(args) == 2 && isHelpFlag(args[1]) {
		fmt.Fprint(stdout, c.usage)
		return exitOK
	}
	return c.run(ctx, e, args[1:])
}

// isHelpFlag reports whether arg asks for help.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

// noArguments is what a bare `matombo` does: it serves the web app, as
// `matombo serve` with its defaults (MATOMBO_ADDR or 127.0.0.1:8080,
// matombo.db); flags without a command (`matombo --addr host:port`) are
// serve's too. `matombo help` prints the usage.
func noArguments(ctx context.Context, e *env) int {
	return runServe(ctx, e, nil)
}

// flagSet returns a flag set for cmd that reports errors itself (see parse).
func flagSet(cmd string) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses args with fs, allowing flags before, between and after the
// positional arguments (everything after "--" is positional), and returns
// the positional arguments. If the command is done (help was asked for, or
// the flags were wrong) it returns done with the exit code to return.
func parse(e *env, c command, fs *flag.FlagSet, args []string) (pos []string, done bool, code int) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(e.stdout, c.usage)
			return nil, true, exitOK
		}
		if err != nil {
			return nil, true, e.usageError(c.name, "%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, false, exitOK
		}
		if i := len(args) - len(rest); i > 0 && args[i-1] == "--" {
			return append(pos, rest...), false, exitOK
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// writeOverview prints the general usage: what matombo is, the commands and
// how to get help on one.
func writeOverview(w io.Writer) {
	fmt.Fprint(w, `matombo plays the four-row mancala games Tsoro (tsoro, misoro-tsoro,
musoro-tsoro), Nsolo (nsolo) and Choro (choro).

usage: matombo <command> [arguments]

`)
	writeCommandList(w)
	fmt.Fprint(w, `
Run 'matombo help <command>' or 'matombo <command> -h' for a command's usage
and examples. A ruleset is a game name plus options (RULES.md §3), such as
"tsoro size=8 bonus=3"; 'matombo help rulesets' lists the games and options.
`)
}

// writeCommandList prints the table of commands with their summaries.
func writeCommandList(w io.Writer) {
	fmt.Fprintln(w, "commands:")
	cmds := commands()
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.name))
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
}

// indent prefixes every line of lines with two spaces.
func indent(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// finish runs f on its own goroutine and waits for it, or for ctx to end
// (an interrupt), whichever comes first; on an interrupt it prints so and
// returns false, leaving f to be ended with the process.
func finish(ctx context.Context, e *env, cmd string, f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		select {
		case <-done:
			return true
		default:
		}
		e.errorf(cmd, "interrupted")
		return false
	}
}

// suggest returns `; did you mean "x"?` for the command closest to name
// when it is within two edits, else "".
func suggest(name string) string {
	best, bestDist := "", 3
	for _, c := range commands() {
		if d := editDistance(name, c.name); d < bestDist {
			best, bestDist = c.name, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance returns the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
