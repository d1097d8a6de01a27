package protocolai

import (
	"strings"
	"testing"

	"matombo/protocol"
)

// TestEngineSession drives the protocol engine with the search chooser.
func TestEngineSession(t *testing.T) {
	c, err := New(1)
	if err != nil {
		t.Fatal(err)
	}
	e := protocol.New(protocol.Config{Chooser: c})
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
