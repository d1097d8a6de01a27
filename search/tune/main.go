// Command tune tunes the weights of the search's linear evaluation by
// self-play: a simple hill climb that, one feature at a time, plays a
// candidate with that weight raised or lowered against the current weights
// (alpha-beta with a fixed node budget, pairs of games from shared random
// openings, on every ruleset given) and keeps the candidate when it scores
// more than the threshold. The stone weight is the unit and stays at 100.
//
//	go run ./search/tune -rounds 12 -games 16 -nodes 4000
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"matombo/arena"
	"matombo/mancala"
	"matombo/search"
)

func main() {
	rounds := flag.Int("rounds", 12, "candidates to try")
	games := flag.Int("games", 16, "games per ruleset per candidate (even)")
	nodes := flag.Int("nodes", 4000, "alpha-beta nodes per decision")
	step := flag.Int("step", 6, "change of a weight per candidate")
	threshold := flag.Float64("threshold", 0.55, "score a candidate needs to be kept")
	seed := flag.Uint64("seed", 1, "seed of the openings")
	start := flag.String("start", search.DefaultWeights.String(), "starting weights")
	versus := flag.String("versus", "", "instead of tuning, play -start against these weights and print the score")
	rulesets := flag.String("rulesets", "tsoro size=8;misoro-tsoro;musoro-tsoro;nsolo;choro", "rulesets, separated by ;")
	flag.Parse()
	if *versus != "" {
		if err := compare(*start, *versus, *rulesets, *games, *nodes, *seed); err != nil {
			fmt.Fprintln(os.Stderr, "tune:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*rounds, *games, *nodes, *step, *threshold, *seed, *start, *rulesets); err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
		os.Exit(1)
	}
}

// compare plays weights a against weights b.
func compare(a, b, rulesetList string, games, nodes int, seed uint64) error {
	wa, err := search.ParseWeights(a, search.DefaultWeights)
	if err != nil {
		return err
	}
	wb, err := search.ParseWeights(b, search.DefaultWeights)
	if err != nil {
		return err
	}
	rss, err := parseRulesets(rulesetList)
	if err != nil {
		return err
	}
	score, n, err := match(wa, wb, rss, games, nodes, seed)
	if err != nil {
		return err
	}
	fmt.Printf("%s\nagainst %s\nscore %.3f over %d games\n", wa, wb, score, n)
	return nil
}

func parseRulesets(list string) ([]mancala.Ruleset, error) {
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

func run(rounds, games, nodes, step int, threshold float64, seed uint64, start, rulesetList string) error {
	w, err := search.ParseWeights(start, search.DefaultWeights)
	if err != nil {
		return err
	}
	rss, err := parseRulesets(rulesetList)
	if err != nil {
		return err
	}
	fmt.Printf("start: %s\n", w)
	for r := 0; r < rounds; r++ {
		f := 1 + r%(search.NumFeatures-1) // every feature but stones
		dir := 1
		if (r/(search.NumFeatures-1))%2 == 1 {
			dir = -1
		}
		cand := w
		cand[f] += dir * step
		score, n, err := match(cand, w, rss, games, nodes, seed+uint64(r)*1000)
		if err != nil {
			return err
		}
		kept := score > threshold
		if kept {
			w = cand
		}
		fmt.Printf("round %d: %s %+d: score %.3f over %d games, kept %v\n", r+1, search.FeatureName(f), dir*step, score, n, kept)
	}
	fmt.Printf("final: %s\n", w)
	return nil
}

// match returns the candidate's mean score against the current weights.
func match(cand, cur search.Weights, rss []mancala.Ruleset, games, nodes int, seed uint64) (float64, int, error) {
	total, n := 0.0, 0
	for _, rs := range rss {
		a, err := player(cand, seed)
		if err != nil {
			return 0, 0, err
		}
		b, err := player(cur, seed+1)
		if err != nil {
			return 0, 0, err
		}
		cfg := arena.Config{Ruleset: rs, Games: games, Seed: seed, OpeningTurns: 3, Limits: search.Limits{Nodes: nodes}}
		res, err := arena.RunPlayers(context.Background(), cfg, a, b)
		if err != nil {
			return 0, 0, err
		}
		total += res.Score * float64(res.Games)
		n += res.Games
	}
	return total / float64(n), n, nil
}

func player(w search.Weights, seed uint64) (search.Player, error) {
	cfg := search.DefaultAlphaBeta(seed)
	cfg.Eval, cfg.TableBits = search.Linear{W: w}, 16
	return search.NewAlphaBeta(cfg)
}
