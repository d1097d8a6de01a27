package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"matombo/arena"
	"matombo/mancala"
	"matombo/search"
)

func tuneCommand() command {
	return command{
		name:    "tune",
		summary: "tune the search's evaluation weights by self-play",
		usage: `usage: matombo tune [--rounds n] [--games n] [--nodes n] [--step n]
                   [--threshold x] [--seed n] [--start weights]
                   [--versus weights] [--rulesets "r1;r2;..."]

Tunes the weights of the search's linear evaluation by self-play: a simple
hill climb that, one feature at a time, plays a candidate with that weight
raised or lowered against the current weights (alpha-beta with a fixed node
budget, pairs of games from shared random openings, on every ruleset given)
and keeps the candidate when it scores more than the threshold. The stone
weight is the unit and stays at 100. With --versus it plays --start against
the weights given instead and prints the score.

flags:
  --rounds n        candidates to try (default 12)
  --games n         games per ruleset per candidate, even (default 16)
  --nodes n         alpha-beta nodes per decision (default 4000)
  --step n          change of a weight per candidate (default 6)
  --threshold x     score a candidate needs to be kept (default 0.55)
  --seed n          seed of the openings (default 1)
  --start weights   starting weights (default: the search's own)
  --versus weights  instead of tuning, play --start against these weights
  --rulesets list   rulesets, separated by ; (default
                    "tsoro size=8;misoro-tsoro;musoro-tsoro;nsolo;choro")

examples:
  matombo tune --rounds 12 --games 16 --nodes 4000
  matombo tune --versus stones=100 --games 40 --rulesets nsolo
`,
		run: runTune,
	}
}

func runTune(ctx context.Context, e *env, args []string) int {
	c := tuneCommand()
	fs := flagSet(c.name)
	rounds := fs.Int("rounds", 12, "")
	games := fs.Int("games", 16, "")
	nodes := fs.Int("nodes", 4000, "")
	step := fs.Int("step", 6, "")
	threshold := fs.Float64("threshold", 0.55, "")
	seed := fs.Uint64("seed", 1, "")
	start := fs.String("start", search.DefaultWeights.String(), "")
	versus := fs.String("versus", "", "")
	rulesets := fs.String("rulesets", "tsoro size=8;misoro-tsoro;musoro-tsoro;nsolo;choro", "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return e.usageError(c.name, "unexpected argument %q; every setting is a flag", pos[0])
	}
	var err error
	if *versus != "" {
		err = tuneCompare(ctx, e.stdout, *start, *versus, *rulesets, *games, *nodes, *seed)
	} else {
		err = tuneRun(ctx, e.stdout, tuneSettings{rounds: *rounds, games: *games, nodes: *nodes, step: *step,
			threshold: *threshold, seed: *seed, start: *start, rulesets: *rulesets})
	}
	if err != nil {
		e.errorf(c.name, "%v", err)
		return exitFailure
	}
	return exitOK
}

// tuneCompare plays weights a against weights b and prints the score.
func tuneCompare(ctx context.Context, out io.Writer, a, b, rulesetList string, games, nodes int, seed uint64) error {
	wa, err := search.ParseWeights(a, search.DefaultWeights)
	if err != nil {
		return err
	}
	wb, err := search.ParseWeights(b, search.DefaultWeights)
	if err != nil {
		return err
	}
	rss, err := tuneRulesets(rulesetList)
	if err != nil {
		return err
	}
	score, n, err := tuneMatch(ctx, wa, wb, rss, games, nodes, seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s\nagainst %s\nscore %.3f over %d games\n", wa, wb, score, n)
	return nil
}

// tuneRulesets reads rulesets separated by semicolons.
func tuneRulesets(list string) ([]mancala.Ruleset, error) {
	var rss []mancala.Ruleset
	for _, t := range strings.Split(list, ";") {
		rs, err := mancala.ParseRuleset(strings.TrimSpace(t))
		if err != nil {
			return nil, err
		}
		rss = append(rss, rs)
	}
	return rss, nil
}

// tuneSettings are the flags of a hill climb.
type tuneSettings struct {
	rounds, games, nodes, step int
	threshold                  float64
	seed                       uint64
	start, rulesets            string
}

// tuneRun climbs from the start weights, printing every round.
func tuneRun(ctx context.Context, out io.Writer, t tuneSettings) error {
	w, err := search.ParseWeights(t.start, search.DefaultWeights)
	if err != nil {
		return err
	}
	rss, err := tuneRulesets(t.rulesets)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "start: %s\n", w)
	for r := 0; r < t.rounds; r++ {
		f := 1 + r%(search.NumFeatures-1) // every feature but stones
		dir := 1
		if (r/(search.NumFeatures-1))%2 == 1 {
			dir = -1
		}
		cand := w
		cand[f] += dir * t.step
		score, n, err := tuneMatch(ctx, cand, w, rss, t.games, t.nodes, t.seed+uint64(r)*1000)
		if err != nil {
			return err
		}
		kept := score > t.threshold
		if kept {
			w = cand
		}
		fmt.Fprintf(out, "round %d: %s %+d: score %.3f over %d games, kept %v\n", r+1, search.FeatureName(f), dir*t.step, score, n, kept)
	}
	fmt.Fprintf(out, "final: %s\n", w)
	return nil
}

// tuneMatch returns the candidate's mean score against the current weights.
func tuneMatch(ctx context.Context, cand, cur search.Weights, rss []mancala.Ruleset, games, nodes int, seed uint64) (float64, int, error) {
	total, n := 0.0, 0
	for _, rs := range rss {
		a, err := tunePlayer(cand, seed)
		if err != nil {
			return 0, 0, err
		}
		b, err := tunePlayer(cur, seed+1)
		if err != nil {
			return 0, 0, err
		}
		cfg := arena.Config{Ruleset: rs, Games: games, Seed: seed, OpeningTurns: 3, Limits: search.Limits{Nodes: nodes}}
		res, err := arena.RunPlayers(ctx, cfg, a, b)
		if err != nil {
			return 0, 0, err
		}
		total += res.Score * float64(res.Games)
		n += res.Games
	}
	return total / float64(n), n, nil
}

// tunePlayer is alpha-beta with the linear evaluation of w.
func tunePlayer(w search.Weights, seed uint64) (search.Player, error) {
	cfg := search.DefaultAlphaBeta(seed)
	cfg.Eval, cfg.TableBits = search.Linear{W: w}, 16
	return search.NewAlphaBeta(cfg)
}
