package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"matombo/mancala"
	"matombo/puzzles"
)

func puzzlesCommand() command {
	d := puzzles.DefaultGenerate()
	return command{
		name:    "puzzles",
		summary: "find puzzles in self-play games, or verify the shipped ones",
		usage: fmt.Sprintf(`usage: matombo puzzles [<game>...] [--want N] [--games N] [--seed S] [--play K]
                      [--budget nodes] [--max-line n] [--max-stones n]
                      [--max-side n] [--screen nodes] [--max-nodes n]
                      [--per-game n] [--spacing n]
                      [--branch=false] [--append] [--records glob] [--dir dir]
       matombo puzzles verify [<game>...] [--every n] [--json]
       matombo puzzles merge <file>... [--dir dir]

A puzzle is a turn-start position after any Choro opening where exactly
one first action wins by force: every other first action loses (kind
"only") or at least does not win (kind "keeps"), each proven by the exact
solver within a budget of nodes per action. The first action is the
mover's first decision of the turn (a lift such as a3, or a3cw in Choro);
the decisions that follow in the same turn (a relay or stop at a head,
bonus picks, Nsolo removals, a Choro lap's direction) are further moves of
the puzzle. Each puzzle carries its main line (the winner's quickest win
against the longest defence, to the end of the game), its themes and a
rating from the weakest level of play that finds its first action.

Without verify or merge, plays self-play games of each preset (tsoro,
misoro-tsoro, musoro-tsoro, nsolo, choro, or those named) between two
players of level --play, after a few random turns, proves the turn starts
and writes the puzzles found to <dir>/<game>.json as it goes, until N are
found or the games run out. The program ships those of puzzles/data.

verify proves every shipped puzzle again (or every n-th with --every) and
prints, per preset, how many there are and how many were verified; --json
prints [{"preset", "puzzles", "verified", "nodes", "failures"}]. It exits 1
when one fails.

merge adds the puzzles of other files of the same preset and budget (such
as those of runs with other seeds) to <dir>/<game>.json, numbered after its
own, leaving out the positions it has.

flags:
  --want N          puzzles per preset (default %d)
  --games N         the most self-play games per preset (default %d)
  --seed S          seed of the games (default %d)
  --play K          the level of both players, 1 to 7 (default %d)
  --budget nodes    solver nodes per action's proof (default %d)
  --max-line n      the longest main line, in decisions (default %d)
  --max-stones n    try only turn starts with at most n stones on the board
                    (default %d; 0: all)
  --max-side n      try only turn starts where one side has at most n
                    stones, and only positions whose side to move has at
                    most n (default 0: all; Choro keeps all its stones on
                    the board)
  --screen nodes    the solver nodes of the quick first proof that most
                    positions fail (default %d; 0: the budget)
  --max-nodes n     keep only puzzles whose first actions' proofs take at
                    most n nodes together (default %d; 0: no bound)
  --per-game n      the most puzzles from one game
                    (default %d)
  --spacing n       try turn starts of a game n turns apart at least
                    (default %d)
  --branch          also try the turn starts one turn off each game's path,
                    after each turn the side to move could have played (at
                    most 64; default %v)
  --records glob    look in the stored games of these record files (such as
                    the archive's exports) instead of self-play games; the
                    games of other rulesets are left out
  --append          keep the puzzles already in <dir>/<game>.json and add
                    new ones (use another --seed)
  --dir dir         where to write the puzzles (default puzzles/data)
  --every n         verify: every n-th puzzle only (default 1: all)
  --json            verify: print JSON

examples:
  nice matombo puzzles nsolo --want 320
  matombo puzzles verify --json
`, d.Want, d.Games, d.Seed, d.Play, d.Budget, d.MaxLine, d.MaxStones, d.Screen, d.MaxNodes, d.PerGame, d.Spacing, d.Branch),
		run: runPuzzles,
	}
}

func runPuzzles(ctx context.Context, e *env, args []string) int {
	c := puzzlesCommand()
	if len(args) > 0 && args[0] == "verify" {
		return runPuzzlesVerify(ctx, e, c, args[1:])
	}
	if len(args) > 0 && args[0] == "merge" {
		return runPuzzlesMerge(e, c, args[1:])
	}
	d := puzzles.DefaultGenerate()
	fs := flagSet(c.name)
	want := fs.Int("want", d.Want, "")
	games := fs.Int("games", d.Games, "")
	seed := fs.Uint64("seed", d.Seed, "")
	play := fs.Int("play", d.Play, "")
	budget := fs.Int("budget", d.Budget, "")
	maxLine := fs.Int("max-line", d.MaxLine, "")
	maxStones := fs.Int("max-stones", d.MaxStones, "")
	perGame := fs.Int("per-game", d.PerGame, "")
	maxSide := fs.Int("max-side", d.MaxSide, "")
	screen := fs.Int("screen", d.Screen, "")
	spacing := fs.Int("spacing", d.Spacing, "")
	branch := fs.Bool("branch", d.Branch, "")
	appendTo := fs.Bool("append", false, "")
	records := fs.String("records", "", "")
	maxNodes := fs.Int("max-nodes", d.MaxNodes, "")
	dir := fs.String("dir", filepath.Join("puzzles", "data"), "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	rulesets, code, ok := puzzlePresets(e, c, pos)
	if !ok {
		return code
	}
	cfg := d
	cfg.Want, cfg.Games, cfg.Seed, cfg.Play, cfg.Budget, cfg.MaxLine = *want, *games, *seed, *play, *budget, *maxLine
	cfg.MaxSide, cfg.Screen = *maxSide, *screen
	cfg.MaxStones, cfg.MaxNodes, cfg.PerGame, cfg.Spacing, cfg.Branch = *maxStones, *maxNodes, *perGame, *spacing, *branch
	if err := cfg.Validate(); err != nil {
		return e.usageError(c.name, "%s", err)
	}
	for _, rs := range rulesets {
		file := filepath.Join(*dir, rs.Game.String()+".json")
		cfg.Append = nil
		if *appendTo {
			old, err := readSet(file)
			if err != nil {
				e.errorf(c.name, "--append: %s", err)
				return exitFailure
			}
			cfg.Append = old
		}
		var saveErr error
		cfg.Found = func(st *puzzles.Set) {
			if err := writeSet(file, st); err != nil && saveErr == nil {
				saveErr = err
			}
			fmt.Fprintf(e.stderr, "%s %s: %d puzzles\n", time.Now().UTC().Format(time.TimeOnly), st.Preset, len(st.Puzzles))
		}
		var st *puzzles.Set
		var err error
		gen := func() { st, err = puzzles.Generate(ctx, rs, cfg) }
		if *records != "" {
			games, rerr := readRecords(*records)
			if rerr != nil {
				e.errorf(c.name, "--records: %s", rerr)
				return exitFailure
			}
			gen = func() { st, err = puzzles.FromRecords(ctx, rs, games, cfg) }
		}
		if !finish(ctx, e, c.name, gen) {
			return exitFailure
		}
		if err == nil {
			err = saveErr
		}
		if err == nil {
			err = writeSet(file, st)
		}
		if err != nil {
			e.errorf(c.name, "%s: %s", rs.Game, err)
			return exitFailure
		}
		fmt.Fprintf(e.stdout, "%s: %d puzzles in %s\n", st.Preset, len(st.Puzzles), file)
	}
	return exitOK
}

// puzzlePresets reads the presets named in pos (all when none).
func puzzlePresets(e *env, c command, pos []string) ([]mancala.Ruleset, int, bool) {
	var out []mancala.Ruleset
	for _, name := range pos {
		rs, err := mancala.ParseRuleset(name)
		if err != nil || rs != mancala.Default(rs.Game) {
			return nil, e.usageError(c.name, "%q is not a preset; give game names: tsoro, misoro-tsoro, musoro-tsoro, nsolo, choro", name), false
		}
		out = append(out, rs)
	}
	if len(out) == 0 {
		out = mancala.Presets()
	}
	return out, exitOK, true
}

// readRecords reads the game records of the files pattern matches.
func readRecords(pattern string) ([]puzzles.Recorded, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no file matches %q", pattern)
	}
	var out []puzzles.Recorded
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rec, err := mancala.ParseRecord(string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %s", f, plain(err))
		}
		out = append(out, puzzles.Recorded{Name: filepath.Base(f), Record: rec})
	}
	return out, nil
}

// readSet reads a set of puzzles from file.
func readSet(file string) (*puzzles.Set, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var st puzzles.Set
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &st, nil
}

// writeSet writes st to file as indented JSON, through a temporary file so
// that a reader never sees half of it.
func writeSet(file string, st *puzzles.Set) error {
	data, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

func runPuzzlesVerify(ctx context.Context, e *env, c command, args []string) int {
	fs := flagSet(c.name)
	every := fs.Int("every", 1, "")
	asJSON := fs.Bool("json", false, "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if *every < 1 {
		return e.usageError(c.name, "bad --every %d: give 1 or more", *every)
	}
	rulesets, code, ok := puzzlePresets(e, c, pos)
	if !ok {
		return code
	}
	reports := []puzzles.Report{}
	failed := false
	for _, rs := range rulesets {
		st, err := puzzles.Load(rs.Game.String())
		if err != nil {
			e.errorf(c.name, "%s", err)
			return exitFailure
		}
		var rep puzzles.Report
		if !finish(ctx, e, c.name, func() { rep, err = puzzles.VerifySet(ctx, st, *every) }) {
			return exitFailure
		}
		if err != nil {
			e.errorf(c.name, "%s: %s", rs.Game, err)
			return exitFailure
		}
		failed = failed || len(rep.Failures) > 0
		reports = append(reports, rep)
		if !*asJSON {
			fmt.Fprintf(e.stdout, "%-13s %4d puzzles, %4d verified (%d solver nodes)\n", rep.Preset, rep.Puzzles, rep.Verified, rep.Nodes)
			for _, f := range rep.Failures {
				fmt.Fprintf(e.stdout, "  %s\n", f)
			}
		}
	}
	if *asJSON {
		data, err := json.MarshalIndent(reports, "", "  ")
		if err != nil {
			e.errorf(c.name, "%v", err)
			return exitFailure
		}
		fmt.Fprintf(e.stdout, "%s\n", data)
	}
	if failed {
		return exitFailure
	}
	return exitOK
}

func runPuzzlesMerge(e *env, c command, args []string) int {
	fs := flagSet(c.name)
	dir := fs.String("dir", filepath.Join("puzzles", "data"), "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) == 0 {
		return e.usageError(c.name, "merge: give the files to merge")
	}
	for _, name := range pos {
		from, err := readSet(name)
		if err != nil {
			e.errorf(c.name, "merge: %s", err)
			return exitFailure
		}
		file := filepath.Join(*dir, from.Preset+".json")
		into, err := readSet(file)
		if err != nil {
			e.errorf(c.name, "merge: %s", err)
			return exitFailure
		}
		if into.Ruleset != from.Ruleset || into.Budget != from.Budget {
			e.errorf(c.name, "merge: %s is of %q with budget %d, %s of %q with %d", name, from.Ruleset, from.Budget, file, into.Ruleset, into.Budget)
			return exitFailure
		}
		added := 0
		for _, p := range from.Puzzles {
			if into.Add(p) {
				added++
			}
		}
		if err := writeSet(file, into); err != nil {
			e.errorf(c.name, "merge: %s", err)
			return exitFailure
		}
		fmt.Fprintf(e.stdout, "%s: %d puzzles added from %s, %d in all\n", file, added, name, len(into.Puzzles))
	}
	return exitOK
}
