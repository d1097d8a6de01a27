package cli

import (
	"context"
	"io"
	"strings"
	"testing"

	"matombo/search"
)

func TestTuneMatchAndClimb(t *testing.T) {
	ctx := context.Background()
	rss, err := tuneRulesets("tsoro size=6 bonus=1; nsolo")
	if err != nil || len(rss) != 2 {
		t.Fatalf("%v %v", rss, err)
	}
	if _, err := tuneRulesets("tsoro; bogus"); err == nil {
		t.Error("a bad ruleset should be refused")
	}
	score, n, err := tuneMatch(ctx, search.DefaultWeights, search.MaterialWeights, rss, 4, 300, 1)
	if err != nil || n != 8 || score < 0 || score > 1 {
		t.Fatalf("score %v over %d games: %v", score, n, err)
	}
	again, _, _ := tuneMatch(ctx, search.DefaultWeights, search.MaterialWeights, rss, 4, 300, 1)
	if again != score {
		t.Errorf("a node-limited match should be reproducible: %v then %v", score, again)
	}
	var out strings.Builder
	if err := tuneRun(ctx, &out, tuneSettings{rounds: 1, games: 2, nodes: 200, step: 5, threshold: 0.5, seed: 1, start: "stones=100", rulesets: "nsolo"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "round 1: ") || !strings.Contains(out.String(), "final: ") {
		t.Errorf("the climb printed %q", out.String())
	}
	if err := tuneRun(ctx, io.Discard, tuneSettings{rounds: 1, games: 2, nodes: 200, step: 5, threshold: 0.5, seed: 1, start: "stones=x", rulesets: "nsolo"}); err == nil {
		t.Error("bad weights should be refused")
	}
}

func TestTuneCommand(t *testing.T) {
	var out, errOut strings.Builder
	code := Run(context.Background(), []string{"tune", "--versus", "stones=100", "--games", "2", "--nodes", "200", "--rulesets", "nsolo"}, strings.NewReader(""), &out, &errOut)
	if code != exitOK || !strings.Contains(out.String(), "score ") || !strings.Contains(out.String(), "over 2 games") {
		t.Fatalf("exit %d, out %q, err %q", code, out.String(), errOut.String())
	}
	if code := Run(context.Background(), []string{"tune", "extra"}, strings.NewReader(""), io.Discard, io.Discard); code != exitUsage {
		t.Errorf("an argument: exit %d, want %d", code, exitUsage)
	}
}
