package server

import (
	"net/url"
	"strings"
	"testing"

	"matombo/internal/app"
)

// TestPositionCheck checks the board editor's endpoint: a valid position
// comes back with its view, a refused one with the input at fault and the
// engine's reason (without the position echoed back), as a 200 answer.
func TestPositionCheck(t *testing.T) {
	e := newEnv(t)
	check := func(ruleset, pos string) app.PositionCheck {
		t.Helper()
		var c app.PositionCheck
		e.call("GET", "/api/position/check?"+url.Values{"ruleset": {ruleset}, "pos": {pos}}.Encode(), "", nil, 200, &c)
		return c
	}
	start := "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* S"
	c := check("tsoro  size=6", "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* N")
	if !c.Valid || c.Ruleset != "tsoro size=6" || c.Start != start || c.View == nil || c.View.ToMove != "N" || len(c.View.Legal) != 6 || c.Error != "" {
		t.Fatalf("valid position: %+v", c)
	}
	// Heads that are not the ruleset's: the engine's reason, naming the start.
	c = check("tsoro size=6", "2,2,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2 S")
	if c.Valid || c.Field != "position" || c.View != nil || c.Start != start ||
		!strings.Contains(c.Error, "heads marked are not those of tsoro size=6") || strings.Contains(c.Error, "bad position") {
		t.Fatalf("wrong heads: %+v", c)
	}
	// The simultaneous Choro opening cannot be set between the two choices.
	c = check("choro", strings.Repeat("2,2,2,2,2,2,2,2/", 3)+"2,2,2,2,2,2,2,2 N opening")
	if c.Valid || c.Field != "position" || !strings.Contains(c.Error, "opening=simultaneous") {
		t.Fatalf("N opening: %+v", c)
	}
	// A position where the game is over is valid; its view says so.
	c = check("nsolo", strings.Repeat("0,0,0,0,0,0,0,0/", 3)+"2,2,0,0,0,0,0,0 N")
	if !c.Valid || c.View.Status != "over" || c.View.Result != "S" {
		t.Fatalf("finished position: %+v", c)
	}
	c = check("go size=9", "")
	if c.Valid || c.Field != "ruleset" || c.Error == "" || c.Start != "" {
		t.Fatalf("bad ruleset: %+v", c)
	}
}
