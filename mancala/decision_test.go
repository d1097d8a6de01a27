package mancala_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"matombo/mancala"
)

// TestDecision checks the typed decision of each kind of state.
func TestDecision(t *testing.T) {
	for _, c := range []struct {
		ruleset, pos string
		actions      []string
		want         mancala.Decision
	}{
		{"tsoro size=8", "", nil, mancala.Decision{Kind: mancala.DecisionTurn}},
		{"misoro-tsoro", "", nil, mancala.Decision{Kind: mancala.DecisionSetup}},
		// a6 (2): a7, a8; a8 is an occupied head (right2): relay or stop.
		{"tsoro size=8", "", []string{"a6"}, mancala.Decision{Kind: mancala.DecisionHead, Hole: mustHole(t, "a8")}},
		{"choro", "", []string{"a6"}, mancala.Decision{Kind: mancala.DecisionOpening}},
		// RULES.md's clockwise example (TestChoroClockwiseCaptureAndResowing).
		{dlpChoro, "0,2,1,0,0,0,0,2/0,1,1,0,0,0,0,0/0,1,1,0,0,0,0,0/2,0,0,0,0,0,0,0 S", []string{"a1cw"},
			mancala.Decision{Kind: mancala.DecisionLap, Hole: mustHole(t, "a1"), Clockwise: true}},
		{"nsolo", "2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S", nil, mancala.Decision{Kind: mancala.DecisionOver}},
	} {
		s := game(t, c.ruleset, c.pos)
		play(t, s, c.actions...)
		if got := s.Decision(); got != c.want {
			t.Errorf("%s %q after %v: decision %+v, want %+v", c.ruleset, c.pos, c.actions, got, c.want)
		}
	}
	for k, name := range []string{"over", "start", "setup", "head", "pick", "remove", "direction", "opening"} {
		if got := mancala.DecisionKind(k).String(); got != name {
			t.Errorf("kind %d is %q, want %q", k, got, name)
		}
	}
}

func mustHole(t *testing.T, name string) mancala.Hole {
	t.Helper()
	h, err := mancala.ParseHole(name)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestIllegalActionError checks that a refusal is typed, with the action,
// the position and the legal actions, and that the game is unchanged.
func TestIllegalActionError(t *testing.T) {
	s := game(t, "tsoro size=8", "")
	before := s.Position()
	d5, _ := mancala.ParseAction("d5")
	err := s.Apply(d5)
	var ie *mancala.IllegalActionError
	if !errors.As(err, &ie) || ie.Action != d5 || ie.Position != before || len(ie.Legal) != 8 || ie.Over || !mancala.IsIllegalAction(err) {
		t.Fatalf("error %#v", err)
	}
	if want := "illegal action d5: you may only sow your own holes; legal actions are a1 a2 a3 a4 a5 a6 a7 a8"; mancala.Message(err) != want {
		t.Errorf("message %q, want %q", mancala.Message(err), want)
	}
	over := game(t, "nsolo", "2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S")
	err = over.Apply(d5)
	if !errors.As(err, &ie) || !ie.Over || len(ie.Legal) != 0 {
		t.Fatalf("game over: %#v", err)
	}
	if s.Position() != before {
		t.Error("a refused action changed the game")
	}
}

// TestTextMarshaling checks that rulesets, actions and holes travel as their
// notation in JSON.
func TestTextMarshaling(t *testing.T) {
	type msg struct {
		Ruleset mancala.Ruleset
		Action  mancala.Action
		Hole    mancala.Hole
	}
	in := msg{mancala.DLPChoro(), mancala.Clockwise(mustHole(t, "b2")), mustHole(t, "d12")}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"Ruleset":"choro opening=sequential cw=any leave=no","Action":"b2cw","Hole":"d12"}`; string(data) != want {
		t.Errorf("JSON %s, want %s", data, want)
	}
	var out msg
	if err := json.Unmarshal(data, &out); err != nil || out != in {
		t.Errorf("read back %+v, %v", out, err)
	}
	for _, bad := range []string{`{"Ruleset":"chess"}`, `{"Action":"z9"}`, `{"Hole":"a0"}`} {
		if err := json.Unmarshal([]byte(bad), &out); err == nil {
			t.Errorf("%s read without error", bad)
		}
	}
	if _, err := json.Marshal(msg{}); err == nil {
		t.Error("the zero ruleset was written")
	}
}

// TestOptions checks the typed options against the help text.
func TestOptions(t *testing.T) {
	opts := mancala.Options(mancala.Choro)
	keys := []string{}
	for _, o := range opts {
		keys = append(keys, o.Key)
	}
	if !slices.Equal(keys, []string{"size", "opening", "cw", "leave"}) {
		t.Fatalf("choro options %v", keys)
	}
	if o := opts[1]; !slices.Equal(o.Values, []string{"simultaneous", "sequential"}) || o.Default != "simultaneous" {
		t.Errorf("opening %+v", o)
	}
	if o := mancala.Options(mancala.Tsoro)[0]; o.Values != nil || o.Min != 6 || o.Max != 21 || o.Default != "21" {
		t.Errorf("tsoro size %+v", o)
	}
	if o := mancala.Options(mancala.Nsolo)[1]; !slices.Equal(o.Values, []string{"yes", "no"}) || o.Default != "no" {
		t.Errorf("nsolo outer %+v", o)
	}
}

// TestSortActions checks the order for people: holes by row then column as
// a number, a hole before its clockwise sowing, then stop, then takes.
func TestSortActions(t *testing.T) {
	var as []mancala.Action
	for _, text := range []string{"xd5", "a10", "stop", "b2cw", "a2", "xa1", "b2", "a1"} {
		a, err := mancala.ParseAction(text)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	mancala.SortActions(as)
	var got []string
	for _, a := range as {
		got = append(got, a.String())
	}
	if want := []string{"a1", "a2", "a10", "b2", "b2cw", "stop", "xa1", "xd5"}; !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}
