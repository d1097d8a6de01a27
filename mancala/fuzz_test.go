package mancala

import (
	"strings"
	"testing"
)

// The fuzz tests of the notation parsers. Their seeds run as plain tests;
// crashers found by go test -fuzz are kept in testdata/fuzz/<Fuzz…>/ under
// names that say what they found.

func FuzzParseRuleset(f *testing.F) {
	for _, s := range []string{"tsoro", "tsoro size=8 bonus=3", "misoro-tsoro heads=choose", "nsolo size=36 outer=yes extra=3",
		"choro opening=sequential", "tsoro size=08", "tsoro size=", "nsolo heads=none", "  tsoro\tsize=6  ", "choro size=8 size=8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := ParseRuleset(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mancala: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			return
		}
		if err := rs.Validate(); err != nil {
			t.Fatalf("%q parsed to an invalid ruleset: %v", s, err)
		}
		for _, text := range []string{rs.String(), rs.Full()} {
			back, err := ParseRuleset(text)
			if err != nil || back != rs {
				t.Fatalf("%q printed as %q reads back as %+v, %v; want %+v", s, text, back, err, rs)
			}
		}
		if _, err := NewGame(rs); err != nil {
			t.Fatalf("NewGame(%q): %v", s, err)
		}
	})
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"a1", "d36", "a3cw", "stop", "xd5", "xa12", "a0", "e1", "a37", "xstop", "cw", "x", "b01", "A1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			if !strings.Contains(err.Error(), "is not an action") {
				t.Errorf("error %q does not say what is allowed", err)
			}
			return
		}
		if a.String() != s {
			t.Fatalf("%q parsed to %v, which prints as %q", s, uint16(a), a)
		}
		if a.Kind() < KindHole || a.Kind() > KindTake || (a.Kind() != KindStop && !a.Hole().Valid(MaxSize)) {
			t.Fatalf("%q parsed to a malformed action %#x", s, uint16(a))
		}
	})
}

func FuzzParseHole(f *testing.F) {
	for _, s := range []string{"a1", "b9", "c10", "d36", "d37", "a0", "a01", "e1", "a", "a1 ", "a-1", "a+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHole(s)
		if err != nil {
			return
		}
		if h.String() != s || !h.Valid(MaxSize) || h.Row() > RowD {
			t.Fatalf("%q parsed to %v (row %d, column %d)", s, h, h.Row(), h.Col())
		}
	})
}

// FuzzSetPosition sets arbitrary positions in games of every preset: an
// accepted position must print back as given, set again to the same position
// and hash, and leave a game whose legal actions can all be played; a refused
// one must leave the game unchanged.
func FuzzSetPosition(f *testing.F) {
	presets := Presets()
	for i, rs := range presets {
		start, _ := StartPosition(rs)
		f.Add(uint8(i), start)
		f.Add(uint8(i), strings.Replace(start, " S", " N", 1))
	}
	f.Add(uint8(4), "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 N opening")
	f.Add(uint8(1), "0*,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,9 N")
	f.Add(uint8(0), "")
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		rs := presets[int(which)%len(presets)]
		s, err := NewGame(rs)
		if err != nil {
			t.Fatal(err)
		}
		before, hash := s.Position(), s.Hash()
		if err := s.SetPosition(text); err != nil {
			if s.Position() != before || s.Hash() != hash {
				t.Fatalf("%s: refused %q but changed the game to %q", rs, text, s.Position())
			}
			return
		}
		if got := s.Position(); got != text {
			t.Fatalf("%s: set %q, prints as %q", rs, text, got)
		}
		again, _ := NewGame(rs)
		if err := again.SetPosition(s.Position()); err != nil || again.Position() != s.Position() || again.Hash() != s.Hash() {
			t.Fatalf("%s: setting %q again: %v, hash %x vs %x", rs, text, err, again.Hash(), s.Hash())
		}
		if !s.AtTurnStart() && !s.IsOver() {
			t.Fatalf("%s: %q is not at a turn start", rs, text)
		}
		for _, a := range s.Legal(nil) {
			c := s.Clone()
			if err := c.Apply(a); err != nil {
				t.Fatalf("%s at %q: legal action %s refused: %v", rs, text, a, err)
			}
		}
	})
}

// FuzzParseRecord reads arbitrary records: an accepted one must print and
// read back to an equal record whose text is then stable, and replaying it
// must not panic.
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{
		"[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n\n1. a1 d4,d2 2. a7 d7 3. a2 d6 *\n",
		"[Ruleset \"nsolo\"]\n[South \"A \\\"b\\\" \\\\\"]\n[Result \"*\"]\n1. b4 d6 2. a1 c5 3. a2,xc1 d7 4. a7 c4,xa3,xb8,xa5,xa6,xb5",
		"[Ruleset \"tsoro size=8\"]\n[Position \"2*,2*,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2*,2* N\"]\n[Result \"*\"]\n1... d4,stop 2. a1 *",
		"[Ruleset \"choro\"]\n[Result \"N\"]\nN\n",
		"[Ruleset \"misoro-tsoro\"]\r\n[Result \"S\"]\r\n1.a1 d4 2.a7 d2 3. a1 d4,stop",
		"[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n1. a1,stop",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := ParseRecord(text)
		if err != nil {
			if _, ok := err.(*RecordError); !ok {
				t.Fatalf("error %v is a %T, not a *RecordError", err, err)
			}
			return
		}
		printed := r.String()
		back, err := ParseRecord(printed)
		if err != nil {
			t.Fatalf("%q printed as\n%s\ndoes not read back: %v", text, printed, err)
		}
		if !back.Equal(r) {
			t.Fatalf("%q printed as\n%s\nreads back different: %+v vs %+v", text, printed, back, r)
		}
		if again := back.String(); again != printed {
			t.Fatalf("printing is not stable:\n%s\n%s", printed, again)
		}
		s, err := r.Replay()
		if err == nil && s.IsOver() && s.Outcome().Result != r.Result {
			t.Fatalf("replay accepted result %s for a game ending %s", r.Result, s.Outcome().Result)
		}
	})
}

// FuzzRecordGame plays games whose actions the fuzzer chooses (one byte per
// action, an index into the legal actions), stopping anywhere, even mid-turn:
// the record must print, read back equal, and replay to the same position
// and hash.
func FuzzRecordGame(f *testing.F) {
	f.Add(uint8(0), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add(uint8(1), []byte{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2})
	f.Add(uint8(3), []byte("nsolo removal and picks"))
	f.Add(uint8(4), []byte("choro clockwise"))
	rss := Presets()
	for _, v := range variants {
		rss = append(rss, MustParseRuleset(v))
	}
	f.Fuzz(func(t *testing.T, which uint8, choices []byte) {
		rs := rss[int(which)%len(rss)]
		s, err := NewGame(rs)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := NewRecorder(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range choices {
			legal := rec.State().Legal(nil)
			if len(legal) == 0 {
				break
			}
			if err := rec.Apply(legal[int(c)%len(legal)]); err != nil {
				t.Fatalf("%s: legal action refused: %v", rs, err)
			}
		}
		r := rec.Record()
		back, err := ParseRecord(r.String())
		if err != nil || !back.Equal(r) {
			t.Fatalf("%s: record does not read back: %v\n%s", rs, err, r)
		}
		end, err := back.Replay()
		if err != nil {
			t.Fatalf("%s: %v\n%s", rs, err, r)
		}
		if want := rec.State(); end.Position() != want.Position() || end.Hash() != want.Hash() || end.Pending() != want.Pending() {
			t.Fatalf("%s: replay ends at %s (%s), game at %s (%s)", rs, end.Position(), end.Pending(), want.Position(), want.Pending())
		}
	})
}
