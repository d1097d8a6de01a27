package protocol_test

import (
	"strings"
	"testing"

	"matombo/protocol"
	"matombo/search"
)

// TestEngineSession drives the protocol engine with matombo's AI
// (search.ByLimits at the strongest level), as matombo engine does.
func TestSearchEngineSession(t *testing.T) {
	c, err := search.NewByLimits(search.MaxLevel, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := protocol.New(protocol.Config{Player: c})
	ask := func(line string) string {
		t.Helper()
		ans, _ := e.Handle(line)
		return ans
	}
	if ans := ask("new tsoro size=6 heads=none bonus=0"); ans != "ok" {
		t.Fatal(ans)
	}
	if ans := ask("position 0,0,0,0,0,0/0,0,3,0,0,0/0,0,0,0,0,0/2,0,0,0,5,0 S"); ans != "ok" {
		t.Fatal(ans)
	}
	for _, lim := range []string{"depth 3", "playouts 200", "movetime 50"} {
		if ans := ask("go " + lim); ans != "bestmove a5" {
			t.Errorf("go %s: %q, want the winning capture a5", lim, ans)
		}
	}
	ask("new nsolo")
	first := ask("go playouts 100")
	if !strings.HasPrefix(first, "bestmove ") || ask("go playouts 100") != first {
		t.Errorf("go playouts should be reproducible: %q", first)
	}
}

// TestSimultaneousOpening checks go for North in the simultaneous Choro
// opening: the same answer, for a given seed, whatever South played, and
// the same again from a fresh engine.
func TestSearchSimultaneousOpening(t *testing.T) {
	for _, lim := range []string{"depth 2", "playouts 50"} {
		var first string
		for _, south := range []string{"a1", "a4", "a8", "a4"} {
			c, err := search.NewByLimits(5, 9) // level 5: node-limited, so reproducible on a busy machine
			if err != nil {
				t.Fatal(err)
			}
			e := protocol.New(protocol.Config{Player: c})
			for _, line := range []string{"new choro", "play " + south} {
				if ans, _ := e.Handle(line); ans != "ok" {
					t.Fatalf("%s: %s", line, ans)
				}
			}
			ans, _ := e.Handle("go " + lim)
			if !strings.HasPrefix(ans, "bestmove d") {
				t.Fatalf("go %s after %s: %q", lim, south, ans)
			}
			if first == "" {
				first = ans
			} else if ans != first {
				t.Errorf("go %s: %q after South's %s, %q after a1", lim, ans, south, first)
			}
		}
	}
}
