package mancala_test

import (
	"strings"
	"testing"

	"matombo/mancala"
)

func TestParseRulesetCanonical(t *testing.T) {
	for _, c := range []struct{ in, canonical, full string }{
		{"tsoro", "tsoro", "tsoro size=21 heads=right2 bonus=2"},
		{"tsoro size=8", "tsoro size=8", "tsoro size=8 heads=right2 bonus=2"},
		{"tsoro  bonus=3   heads=none size=8", "tsoro size=8 heads=none bonus=3", "tsoro size=8 heads=none bonus=3"},
		{"tsoro size=21 heads=right2 bonus=2", "tsoro", "tsoro size=21 heads=right2 bonus=2"},
		{"misoro-tsoro", "misoro-tsoro", "misoro-tsoro size=8 heads=choose bonus=0"},
		{"misoro-tsoro heads=left2", "misoro-tsoro heads=left2", "misoro-tsoro size=8 heads=left2 bonus=0"},
		{"musoro-tsoro", "musoro-tsoro", "musoro-tsoro size=8 heads=right1 bonus=0"},
		{"nsolo extra=1 outer=yes", "nsolo outer=yes extra=1", "nsolo size=8 outer=yes extra=1"},
		{"nsolo size=36", "nsolo size=36", "nsolo size=36 outer=no extra=0"},
		{"choro", "choro", "choro size=8 opening=simultaneous cw=first leave=yes"},
		{"choro size=8 opening=simultaneous", "choro", "choro size=8 opening=simultaneous cw=first leave=yes"},
		{"choro leave=no cw=any opening=sequential", "choro opening=sequential cw=any leave=no", "choro size=8 opening=sequential cw=any leave=no"},
		{"choro cw=any", "choro cw=any", "choro size=8 opening=simultaneous cw=any leave=yes"},
	} {
		rs, err := mancala.ParseRuleset(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if rs.String() != c.canonical || rs.Full() != c.full {
			t.Errorf("%q prints %q and %q, want %q and %q", c.in, rs.String(), rs.Full(), c.canonical, c.full)
		}
		for _, text := range []string{rs.String(), rs.Full()} {
			if back, err := mancala.ParseRuleset(text); err != nil || back != rs {
				t.Errorf("%q does not read back: %v %v", text, back, err)
			}
		}
	}
}

func TestParseRulesetErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty ruleset; games are tsoro, misoro-tsoro, musoro-tsoro, nsolo, choro"},
		{"oware", `unknown game "oware"; games are tsoro, misoro-tsoro, musoro-tsoro, nsolo, choro`},
		{"Tsoro", `unknown game "Tsoro"`},
		{"tsoro bonsu=1", `unknown tsoro option "bonsu"; options are size, heads, bonus`},
		{"tsoro size=5", `size="5" is not allowed; size takes a whole number from 6 to 21`},
		{"tsoro size=22", "from 6 to 21"},
		{"tsoro size=08", "from 6 to 21"},
		{"tsoro size=eight", "from 6 to 21"},
		{"tsoro bonus=4", "bonus takes a whole number from 0 to 3"},
		{"tsoro heads=both", "heads takes one of none, right2, left2, ends, right1, choose"},
		{"tsoro size=8 size=9", `option "size" given twice`},
		{"tsoro size", `"size" is not of the form key=value`},
		{"tsoro =8", "not of the form key=value"},
		{"tsoro outer=yes", `unknown tsoro option "outer"; options are size, heads, bonus`},
		{"nsolo size=37", "from 8 to 36"},
		{"nsolo heads=none", `unknown nsolo option "heads"; options are size, outer, extra`},
		{"nsolo outer=maybe", "outer takes yes or no"},
		{"nsolo extra=-1", "extra takes a whole number from 0 to 3"},
		{"choro size=9", "size takes a whole number from 8 to 8"},
		{"choro opening=both", `opening="both" is not allowed; opening takes simultaneous or sequential`},
		{"choro cw=never", `cw="never" is not allowed; cw takes first or any`},
		{"choro leave=maybe", "leave takes yes or no"},
		{"choro bonus=1", `unknown choro option "bonus"; options are size, opening, cw, leave`},
		{"tsoro leave=yes", `unknown tsoro option "leave"`},
	} {
		_, err := mancala.ParseRuleset(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to say %q", c.in, err, c.want)
		}
	}
}

func TestRulesetValidate(t *testing.T) {
	bad := []mancala.Ruleset{
		{},
		{Game: mancala.Tsoro, Size: 5},
		{Game: mancala.Nsolo, Size: 8, Bonus: 1},
		{Game: mancala.Choro, Size: 8, Outer: true},
		{Game: mancala.Choro, Size: 8, Opening: 2},
		{Game: mancala.Choro, Size: 8, Clockwise: 2},
		{Game: mancala.Tsoro, Size: 8, Leave: true},
		{Game: mancala.Nsolo, Size: 8, Opening: mancala.OpeningSequential},
		{Game: mancala.Tsoro, Size: 8, Heads: mancala.Heads(9)},
	}
	for _, rs := range bad {
		if err := rs.Validate(); err == nil {
			t.Errorf("%+v validates", rs)
		}
		if _, err := mancala.NewGame(rs); err == nil {
			t.Errorf("NewGame(%+v) starts a game", rs)
		}
	}
	for _, rs := range mancala.Presets() {
		if err := rs.Validate(); err != nil {
			t.Errorf("preset %s: %v", rs, err)
		}
	}
}

func TestParseAction(t *testing.T) {
	for _, text := range []string{"a1", "d36", "b12", "a3cw", "stop", "xd5", "xc12"} {
		a, err := mancala.ParseAction(text)
		if err != nil || a.String() != text {
			t.Errorf("%q reads as %v (%v)", text, a, err)
		}
	}
	for _, text := range []string{"", "a", "a0", "a01", "e1", "A1", "a37", "x", "xstop", "cw", "a1CW", "Stop", "a1 ", "d1cwcw", "x a1", "a1,a2"} {
		if a, err := mancala.ParseAction(text); err == nil {
			t.Errorf("%q reads as %v", text, a)
		} else if !strings.Contains(err.Error(), "actions are a hole") {
			t.Errorf("%q: unhelpful error %v", text, err)
		}
	}
}

func TestSetPositionErrors(t *testing.T) {
	for _, c := range []struct{ ruleset, pos, want string }{
		{"tsoro size=6", "", "want four rows"},
		{"tsoro size=6", "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* X", "must be S or N"},
		{"tsoro size=6", "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0 S", "found 3 rows"},
		{"tsoro size=6", "2*,2*,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* S", "row d has 5 holes; this board has 6 columns"},
		{"tsoro size=6", "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,-2* S", `hole a6 holds "-2*"`},
		{"tsoro size=6", "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,x S", `hole a6 holds "x"`},
		{"tsoro size=6", "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2,2* S", "heads marked are not those of tsoro size=6"},
		{"tsoro size=6", "2*,2*,2,2,2,2/0*,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* S", "hole c1 is marked as a head, but heads are in the outer rows"},
		{"tsoro size=6", "2*,2*,2,2,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,2,2,2*,2* S opening", "only Choro positions"},
		{"choro", "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S first", `only " opening" may follow`},
		{"choro", "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 N opening", `a position before it is "S opening"`},
		{"nsolo", "250,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 S", "too many stones"},
		{"misoro-tsoro", "2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2*,2,2,2,2,2,2,2 S", "cannot occur"},
	} {
		s, _ := mancala.NewGame(mancala.MustParseRuleset(c.ruleset))
		before := s.Position()
		err := s.SetPosition(c.pos)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want it to say %q", c.ruleset, c.pos, err, c.want)
		}
		if s.Position() != before {
			t.Errorf("%q: a refused position changed the game", c.pos)
		}
	}
}

func TestSetPositionStates(t *testing.T) {
	// heads=choose mid-setup: South named a1, North is to name.
	s, _ := mancala.NewGame(mancala.MustParseRuleset("misoro-tsoro"))
	if err := s.SetPosition("2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2*,2,2,2,2,2,2,2 N"); err != nil {
		t.Fatal(err)
	}
	if !s.InSetup() || s.ToMove() != mancala.North {
		t.Fatal("want North to name a head")
	}
	// Choro, sequential opening: North to make its opening (South has made
	// its own).
	s, _ = mancala.NewGame(mancala.MustParseRuleset("choro opening=sequential"))
	const pos = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 N opening"
	if err := s.SetPosition(pos); err != nil {
		t.Fatal(err)
	}
	if !s.InOpening() || s.Position() != pos {
		t.Fatalf("position %s", s.Position())
	}
	wantLegal(t, s, "d1 d2 d3 d4 d5 d6 d7 d8")
	// A finished position: South has nothing.
	s, _ = mancala.NewGame(mancala.MustParseRuleset("nsolo"))
	if err := s.SetPosition("2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S"); err != nil {
		t.Fatal(err)
	}
	if s.Outcome().Result != mancala.NorthWins {
		t.Fatalf("outcome %+v", s.Outcome())
	}
}
