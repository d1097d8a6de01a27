package mancala

import (
	"errors"
	"strings"
	"testing"
)

// playRecorded plays the actions through a Recorder from rs's start.
func playRecorded(t *testing.T, rs Ruleset, actions ...string) *Record {
	t.Helper()
	s, err := NewGame(rs)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := NewRecorder(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range actions {
		if err := rec.Apply(mustAction(x)); err != nil {
			t.Fatalf("%s: %v", x, err)
		}
	}
	return rec.Record()
}

// TestWrittenTurns checks the turns of a simultaneous opening as written:
// move 1 of both sides joined by "|", then the main phase from move 2,
// "2..." when North plays first; and a sequential game's turns.
func TestWrittenTurns(t *testing.T) {
	// Find openings after which North plays first, and South.
	var northFirst, southFirst [2]string
	for _, so := range []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"} {
		for _, no := range []string{"d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8"} {
			s, _ := NewGame(Default(Choro))
			if s.Apply(mustAction(so)) != nil || s.Apply(mustAction(no)) != nil || s.IsOver() {
				continue
			}
			if s.ToMove() == North {
				northFirst = [2]string{so, no}
			} else {
				southFirst = [2]string{so, no}
			}
		}
	}
	if northFirst[0] == "" || southFirst[0] == "" {
		t.Fatalf("no opening pair for each first player: %v %v", northFirst, southFirst)
	}
	for _, tc := range []struct {
		open  [2]string
		first Player
	}{{southFirst, South}, {northFirst, North}} {
		s, _ := NewGame(Default(Choro))
		s.Apply(mustAction(tc.open[0]))
		s.Apply(mustAction(tc.open[1]))
		next := s.Legal(nil)[0].String()
		rec := playRecorded(t, Default(Choro), tc.open[0], tc.open[1], next)
		w := rec.WrittenTurns()
		if len(w) != 2 {
			t.Fatalf("%v: %d written turns, want 2 (the last unfinished or not)", tc.open, len(w))
		}
		if want := (WrittenTurn{Number: 1, Side: South, Both: true, Text: tc.open[0] + "|" + tc.open[1]}); w[0] != want {
			t.Errorf("opening written as %+v, want %+v", w[0], want)
		}
		if w[1].Number != 2 || w[1].Side != tc.first || w[1].Both || !strings.HasPrefix(w[1].Text, next) {
			t.Errorf("first main-phase turn written as %+v, want move 2 of %s starting %s", w[1], tc.first, next)
		}
		wantPrefix := "1. " + tc.open[0] + "|" + tc.open[1] + " 2. "
		if tc.first == North {
			wantPrefix = "1. " + tc.open[0] + "|" + tc.open[1] + " 2... "
		}
		if got := rec.String(); !strings.Contains(got, wantPrefix) {
			t.Errorf("record %q does not contain %q", got, wantPrefix)
		}
	}
	seq := playRecorded(t, DLPChoro(), "a6", "d3")
	w := seq.WrittenTurns()
	if len(w) != 2 || w[0] != (WrittenTurn{Number: 1, Side: South, Text: "a6"}) || w[1] != (WrittenTurn{Number: 1, Side: North, Text: "d3"}) {
		t.Errorf("sequential opening written as %+v", w)
	}
}

// TestParseRecordAs checks that a record of the DLP's reading under a plain
// choro header, refused with a ReadingError, reads and replays under the
// ruleset the error suggests.
func TestParseRecordAs(t *testing.T) {
	s, _ := NewGame(DLPChoro())
	rec, _ := NewRecorder(s)
	for i := 0; i < 12 && !rec.State().IsOver(); i++ {
		legal := rec.State().Legal(nil)
		rec.Apply(legal[i%len(legal)])
	}
	text := strings.Replace(rec.Record().String(), `[Ruleset "`+DLPChoro().String()+`"]`, `[Ruleset "choro"]`, 1)
	var rerr *ReadingError
	r, err := ParseRecord(text)
	if err == nil {
		_, err = r.Replay()
	}
	if !errors.As(err, &rerr) || rerr.Suggest != DLPChoro() {
		t.Fatalf("plain choro header: %v, want a ReadingError suggesting the DLP reading", err)
	}
	r, err = ParseRecordAs(text, rerr.Suggest)
	if err != nil {
		t.Fatalf("ParseRecordAs: %v", err)
	}
	if r.Ruleset != DLPChoro() {
		t.Errorf("read as %v", r.Ruleset)
	}
	if _, err := r.Replay(); err != nil {
		t.Errorf("replay under the suggested reading: %v", err)
	}
	if _, err := ParseRecordAs("[Result \"*\"]\n\n*\n", DLPChoro()); err == nil {
		t.Error("ParseRecordAs accepted a record without a Ruleset header")
	}
}

// mustAction is ParseAction for actions known to be valid in tests.
func mustAction(s string) Action {
	a, err := ParseAction(s)
	if err != nil {
		panic(err)
	}
	return a
}
