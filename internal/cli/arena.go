package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"matombo/arena"
)

func arenaCommand() command {
	return command{
		name:    "arena",
		summary: "play a match between two players and measure the Elo difference",
		usage: `usage: matombo arena --a <player> --b <player> --ruleset <ruleset> --games N
                     [--movetime ms] [--json] [--sprt elo0,elo1] [--seed n]
                     [--opening turns] [--balanced] [--balance-margin stones]
                     [--records dir]

Plays N games between players A and B. Seats swap on every game; each pair
of games starts from the same random opening (a few random turns). A
progress bar on standard error shows the games done and the running score.
Every game is saved as a record. At the end it prints A's wins, draws and
losses, A's score with its Wilson 95% interval, the Elo difference of A over B with its 95%
confidence interval, and how the pairs went (A won both games, split, lost
both: many split pairs mean the openings decided more than the players).

In the simultaneous Choro opening (choro, opening=simultaneous) North's
player never sees South's choice: the players of this program choose from
the position before it; an engine gets the game's actions and must not use
South's choice in go (RULES.md §6). With --opening 1 or more the random
opening turns include the simultaneous opening, both choices at random.

players:
  random            uniformly random legal actions
  uct               plain UCT with uniform random playouts
  mcts              tree search with the solver and greedy playouts
  alphabeta         alpha-beta with the tuned evaluation
  level:K           the playing level K, 1 (beginner) to 8 (strongest)
  engine:<command>  a program speaking the engine protocol (RULES.md §6),
                    such as engine:"matombo engine"; split at spaces, no shell

flags:
  --movetime ms     time per decision for both players (default: each
                    player's own limits: a level's own, 1 s for the others)
  --json            print one JSON object: games, a_wins, b_wins, draws,
                    score, score_low, score_high (its Wilson 95% interval),
                    elo, elo_low, elo_high (and pairs, sprt, llr, records)
  --sprt e0,e1      stop early when a sequential probability ratio test of
                    elo=e0 against elo=e1 (5% error rates) decides
  --seed n          seed of the openings and the players (default 1)
  --opening turns   random turns before each pair (default 2)
  --balanced        play only balanced openings: a random opening is kept
                    when a fixed alpha-beta search of 100,000 nodes (one
                    worker, default evaluation, no time limit) scores the
                    position within --balance-margin stones of even;
                    otherwise another is drawn (pair number and attempt
                    seed it), up to 200 per pair, then the match stops with
                    an error. An opening an earlier pair played is passed
                    over while the pair's candidates hold a new balanced
                    one. The openings depend only on the ruleset, --seed,
                    --opening and the margin, never on the players or the
                    time. On Choro use --opening 3 or more: from 2 turns
                    only 3 openings pass at the default margin
  --balance-margin stones
                    the largest lead a balanced opening may leave, in
                    stones (default 15; implies --balanced)
  --records dir     where the records go (default arena-records/<time>)

examples:
  matombo arena --a level:8 --b uct --ruleset tsoro --games 40 --movetime 100
  matombo arena --a level:3 --b level:2 --ruleset "nsolo size=10" --games 200 --sprt 0,50
  matombo arena --a "engine:matombo engine" --b random --ruleset choro --games 10 --json
`,
		run: runArena,
	}
}

func runArena(ctx context.Context, e *env, args []string) int {
	c := arenaCommand()
	fs := flagSet(c.name)
	a := fs.String("a", "", "")
	b := fs.String("b", "", "")
	ruleset := fs.String("ruleset", "", "")
	games := fs.Int("games", 0, "")
	movetime := fs.Int("movetime", 0, "")
	asJSON := fs.Bool("json", false, "")
	sprt := fs.String("sprt", "", "")
	seed := fs.Uint64("seed", 1, "")
	opening := fs.Int("opening", 2, "")
	balanced := fs.Bool("balanced", false, "")
	margin := fs.Float64("balance-margin", float64(arena.DefaultBalance.Margin)/100, "")
	records := fs.String("records", "", "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return e.usageError(c.name, "unexpected argument %q; every setting is a flag", pos[0])
	}
	cfg := arena.Config{Games: *games, Seed: *seed, OpeningTurns: *opening, Progress: e.stderr}
	var err error
	if cfg.A, err = arena.ParseSpec(*a); err != nil {
		return e.usageError(c.name, "--a: %s", strings.TrimPrefix(err.Error(), "arena: "))
	}
	if cfg.B, err = arena.ParseSpec(*b); err != nil {
		return e.usageError(c.name, "--b: %s", strings.TrimPrefix(err.Error(), "arena: "))
	}
	rss, err := splitRulesets([]string{*ruleset})
	if err != nil || len(rss) != 1 {
		if err == nil {
			err = fmt.Errorf("give one ruleset, such as --ruleset \"tsoro size=8\"")
		}
		return e.usageError(c.name, "--ruleset: %v", err)
	}
	cfg.Ruleset = rss[0]
	if *games < 1 {
		return e.usageError(c.name, "--games must be 1 or more")
	}
	if *movetime < 0 || *movetime > 3_600_000 {
		return e.usageError(c.name, "--movetime must be 0 to 3600000 ms")
	}
	cfg.MoveTime = time.Duration(*movetime) * time.Millisecond
	if *sprt != "" {
		t, err := parseSPRT(*sprt)
		if err != nil {
			return e.usageError(c.name, "--sprt: %v", err)
		}
		cfg.SPRT = &t
	}
	marginSet := false
	fs.Visit(func(f *flag.Flag) { marginSet = marginSet || f.Name == "balance-margin" })
	if *balanced || marginSet {
		if !(*margin >= 0 && *margin <= 1000) {
			return e.usageError(c.name, "--balance-margin must be 0 to 1000 stones")
		}
		b := arena.DefaultBalance
		b.Margin = int(math.Round(*margin * 100))
		cfg.Balance = &b
	}
	cfg.RecordDir = *records
	if cfg.RecordDir == "" {
		cfg.RecordDir = filepath.Join("arena-records", time.Now().UTC().Format("20060102-150405"))
	}
	if err := cfg.Validate(); err != nil {
		return e.usageError(c.name, "%s", strings.TrimPrefix(err.Error(), "arena: "))
	}
	res, err := arena.Run(ctx, cfg)
	if err != nil {
		e.errorf(c.name, "%s", strings.TrimPrefix(err.Error(), "arena: "))
		return exitFailure
	}
	if *asJSON {
		out, _ := json.Marshal(res)
		fmt.Fprintln(e.stdout, string(out))
	} else {
		fmt.Fprint(e.stdout, arena.Summary(cfg, res))
	}
	if ctx.Err() != nil {
		e.errorf(c.name, "interrupted after %d games", res.Games)
		return exitFailure
	}
	return exitOK
}

// parseSPRT reads "elo0,elo1".
func parseSPRT(text string) (arena.SPRT, error) {
	lo, hi, ok := strings.Cut(text, ",")
	e0, err0 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
	e1, err1 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
	if !ok || err0 != nil || err1 != nil {
		return arena.SPRT{}, fmt.Errorf("%q is not two Elo values; write elo0,elo1 such as 0,50", text)
	}
	t := arena.SPRT{Elo0: e0, Elo1: e1, Alpha: 0.05, Beta: 0.05}
	if err := t.Validate(); err != nil {
		return t, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "arena: "))
	}
	return t, nil
}
