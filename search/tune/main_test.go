package main

import (
	"testing"

	"matombo/search"
)

func TestMatchAndClimb(t *testing.T) {
	rss, err := parseRulesets("tsoro size=6 bonus=1; nsolo")
	if err != nil || len(rss) != 2 {
		t.Fatalf("%v %v", rss, err)
	}
	if _, err := parseRulesets("tsoro; bogus"); err == nil {
		t.Error("a bad ruleset should be refused")
	}
	score, n, err := match(search.DefaultWeights, search.MaterialWeights, rss, 4, 300, 1)
	if err != nil || n != 8 || score < 0 || score > 1 {
		t.Fatalf("score %v over %d games: %v", score, n, err)
	}
	again, _, _ := match(search.DefaultWeights, search.MaterialWeights, rss, 4, 300, 1)
	if again != score {
		t.Errorf("a node-limited match should be reproducible: %v then %v", score, again)
	}
	if err := run(1, 2, 200, 5, 0.5, 1, "stones=100", "nsolo"); err != nil {
		t.Fatal(err)
	}
	if err := run(1, 2, 200, 5, 0.5, 1, "stones=x", "nsolo"); err == nil {
		t.Error("bad weights should be refused")
	}
}
