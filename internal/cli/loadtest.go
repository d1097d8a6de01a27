package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"matombo/loadtest"
)

func loadtestCommand() command {
	return command{
		name:    "loadtest",
		summary: "play many concurrent games against a local server and measure it",
		usage: fmt.Sprintf(`usage: matombo loadtest --url http://127.0.0.1:PORT[,URL...] [--games N] [--seconds S] [--rate R] [--ruleset R] [--seed N] [--attack A] [--json]

Plays N concurrent games against a running matombo server (matombo serve)
over its HTTP API and WebSockets: each is a two-players-on-one-device game
with a WebSocket per seat; the player to move sends a random legal action
and waits for the server's acknowledging update; finished games are
rematched. Unpaced, each game acts again as soon as it is acknowledged (so
the latency grows with the number of games); with --rate R the games are
paced like players who think between moves, each acting every N/R seconds,
for about R actions per second in all. After creating the games (not measured) it plays for S seconds
and prints the actions acknowledged per second, the latency from sending an
action to its acknowledgement (50th, 95th and 99th percentiles, and the
maximum), and the errors (refused actions, failed requests, dropped
sockets). The server limits new games per client address, so the games are
spread over the source addresses 127.0.0.2, 127.0.0.3, ... (%s per address).

With several URLs (instances of one server sharing a PostgreSQL database),
game i is created on instance i and its two seats' sockets open on instances
i and i+1, so the two players of each game act through different instances:
a player acts only once their own socket shows the other's last action, so
an update that does not cross instances stops the game (an error). The
"reach" latency runs from sending an action until both seats' sockets show
it.

Only loopback servers are allowed (127.0.0.0/8, ::1, localhost). The exit
code is 1 when any error happened.

flags:
  --url URL      the server's base URL (required), such as http://127.0.0.1:8080;
                 several instances: a comma-separated list, or --url again
  --games N      concurrent games, 1 to %d (default 100)
  --seconds S    measured seconds, 1 to %d (default 10)
  --rate R       pace the games to about R actions per second in all, 0 to
                 %d (default 0: unpaced)
  --ruleset R    the ruleset of the games (default %q)
  --seed N       seed of the random choices (default: random)
  --attack A     also run an attacker beside the players, from its own
                 addresses (127.0.3.1 on), for the whole measured time:
                 headers (imports records of 64 headers of 1,000 bytes and
                 reads them back as fast as it can), ai (60 level-8 Nsolo
                 games against the computer from one address, answered at
                 once), sockets (5,000 idle WebSockets), lab (the lab's
                 largest level-8 experiment, over and over) or reviews (20
                 reviews of finished games of random play running at once,
                 each followed to its end); its requests, refusals,
                 failures (and reviews done) are reported apart from the
                 players'
  --json         print one JSON object with the fields games, actions,
                 actions_per_sec, p50_ms, p95_ms, p99_ms, max_ms,
                 reach_p50_ms, reach_p99_ms, errors, games_finished,
                 rate_limited (rematches the server's per-address limit
                 refused; the game waited as told and asked again),
                 seconds, setup_seconds, ruleset,
                 target_rate (with --rate), error_samples (the first
                 few errors) and attack (with --attack: name, requests,
                 refused, failed, sample)

examples:
  matombo serve --addr 127.0.0.1:8080 --db /tmp/load.db &
  matombo loadtest --url http://127.0.0.1:8080 --games 2000 --seconds 60 --rate 1000
  matombo loadtest --url http://127.0.0.1:8080 --games 50 --seconds 5 --ruleset nsolo --json
  matombo loadtest --url http://127.0.0.1:8081,http://127.0.0.1:8082 --games 1000 --seconds 30
  matombo loadtest --url http://127.0.0.1:8080 --games 2000 --seconds 60 --rate 1000 --attack ai
`, "50", loadtest.MaxGames, loadtest.MaxSeconds, loadtest.MaxRate, loadtest.DefaultRuleset),
		run: runLoadtest,
	}
}

func runLoadtest(ctx context.Context, e *env, args []string) int {
	c := loadtestCommand()
	fs := flagSet(c.name)
	var urls []string
	fs.Func("url", "", func(v string) error {
		for _, u := range strings.Split(v, ",") {
			if u = strings.TrimSpace(u); u != "" {
				urls = append(urls, u)
			}
		}
		return nil
	})
	games := fs.Int("games", 100, "")
	seconds := fs.Int("seconds", 10, "")
	ruleset := fs.String("ruleset", loadtest.DefaultRuleset, "")
	seed := fs.Uint64("seed", 0, "")
	rate := fs.Float64("rate", 0, "")
	asJSON := fs.Bool("json", false, "")
	attack := fs.String("attack", "", "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return e.usageError(c.name, "takes no arguments, got %q", pos[0])
	}
	if len(urls) == 0 {
		return e.usageError(c.name, "--url is required: the base URL of a local server, such as http://127.0.0.1:8080")
	}
	for _, u := range urls {
		if _, err := loadtest.CheckURL(u); err != nil {
			return e.usageError(c.name, "%s", strings.TrimPrefix(err.Error(), "loadtest: "))
		}
	}
	if *games < 1 || *games > loadtest.MaxGames {
		return e.usageError(c.name, "--games %d is not allowed; games run from 1 to %d", *games, loadtest.MaxGames)
	}
	if *seconds < 1 || *seconds > loadtest.MaxSeconds {
		return e.usageError(c.name, "--seconds %d is not allowed; seconds run from 1 to %d", *seconds, loadtest.MaxSeconds)
	}
	if *rate < 0 || *rate > loadtest.MaxRate {
		return e.usageError(c.name, "--rate %g is not allowed; the rate runs from 0 (unpaced) to %d actions per second", *rate, loadtest.MaxRate)
	}
	if *attack != "" && !slices.Contains(loadtest.Attacks, *attack) {
		return e.usageError(c.name, "--attack %q is not allowed; attacks are %s", *attack, strings.Join(loadtest.Attacks, ", "))
	}
	rep, err := loadtest.Run(ctx, loadtest.Config{URL: urls[0], More: urls[1:], Games: *games, Duration: time.Duration(*seconds) * time.Second,
		Ruleset: *ruleset, Seed: *seed, Rate: *rate, Attack: *attack})
	if err != nil {
		e.errorf(c.name, "%s", strings.TrimPrefix(err.Error(), "loadtest: "))
		return exitFailure
	}
	if *asJSON {
		out, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", out)
	} else {
		fmt.Fprintf(e.stdout, "games     %d concurrent (%s), set up in %.1f s, %d finished and rematched\n", rep.Games, rep.Ruleset, rep.SetupSeconds, rep.Finished)
		fmt.Fprintf(e.stdout, "actions   %d in %.1f s: %.0f per second\n", rep.Actions, rep.Seconds, rep.ActionsPerSec)
		fmt.Fprintf(e.stdout, "latency   p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms\n", rep.P50, rep.P95, rep.P99, rep.Max)
		fmt.Fprintf(e.stdout, "reach     p50 %.1f ms, p99 %.1f ms (until both seats' sockets show an action)\n", rep.ReachP50, rep.ReachP99)
		fmt.Fprintf(e.stdout, "errors    %d\n", rep.Errors)
		for _, s := range rep.ErrorSamples {
			fmt.Fprintf(e.stdout, "  %s\n", s)
		}
		if a := rep.Attack; a != nil {
			fmt.Fprintf(e.stdout, "attack    %s: %d requests answered, %d refused by the limits, %d failed\n", a.Name, a.Requests, a.Refused, a.Failed)
			if a.Done > 0 {
				fmt.Fprintf(e.stdout, "attack    %d reviews done, each to its end\n", a.Done)
			}
			if a.Sample != "" {
				fmt.Fprintf(e.stdout, "  %s\n", a.Sample)
			}
		}
	}
	if rep.Errors > 0 {
		return exitFailure
	}
	return exitOK
}
