package mancala

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// turnStrings writes the turns of r as in a record, for comparisons.
func turnStrings(r *Record) []string {
	out := make([]string, len(r.Turns))
	for i, t := range r.Turns {
		out[i] = joinActions(t)
	}
	return out
}

const tsoro8Start = "2*,2*,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2*,2*"

func TestParseRecordGood(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		rs     string
		pos    string
		result Result
		tags   []Tag
		turns  string // turns joined by spaces
	}{
		{
			name:   "numbered",
			text:   "[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n\n1. a1 d4,d2 2. a7 d7 3. a2 d6 *\n",
			rs:     "tsoro size=8",
			result: NoResult,
			turns:  "a1 d4,d2 a7 d7 a2 d6",
		},
		{
			name:   "unnumbered, no trailing result, CRLF, header order free",
			text:   "[Result \"*\"]\r\n[Ruleset \"tsoro size=8 bonus=2\"]\r\n\r\na1 d4,d2\r\na7 d7\r\n",
			rs:     "tsoro size=8",
			result: NoResult,
			turns:  "a1 d4,d2 a7 d7",
		},
		{
			name:   "numbers on some turns, number glued to its turn",
			text:   "[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n1.a1 d4,d2 a7 d7 3. a2\n",
			rs:     "tsoro size=8",
			result: NoResult,
			turns:  "a1 d4,d2 a7 d7 a2",
		},
		{
			name:   "tags with escapes kept in order",
			text:   "[Ruleset \"nsolo\"]\n[South \"Ada \\\"the\\\" \\\\ Lovelace\"]\n[Result \"*\"]\n[North  \"Bo\"]\n[Date \"2026.12.01\"]\n1. b4 d6 2. a1 c5 3. a2,xc1 d7 4. a7 c4,xa3,xb8,xa5,xa6,xb5 *",
			rs:     "nsolo",
			result: NoResult,
			tags:   []Tag{{"South", `Ada "the" \ Lovelace`}, {"North", "Bo"}, {"Date", "2026.12.01"}},
			turns:  "b4 d6 a1 c5 a2,xc1 d7 a7 c4,xa3,xb8,xa5,xa6,xb5",
		},
		{
			name:   "Position header with North to move",
			text:   "[Ruleset \"tsoro size=8\"]\n[Position \"" + tsoro8Start + " N\"]\n[Result \"*\"]\n1... d4,stop 2. a1 *",
			rs:     "tsoro size=8",
			pos:    tsoro8Start + " N",
			result: NoResult,
			turns:  "d4,stop a1",
		},
		{
			name:   "no turns, a result decided outside the rules",
			text:   "[Ruleset \"choro\"]\n[Result \"N\"]\nN\n",
			rs:     "choro",
			result: NorthWins,
		},
		{
			name:   "headers only, after a byte order mark",
			text:   "\ufeff  [Ruleset \"musoro-tsoro\"]  \n[Result \"draw\"]",
			rs:     "musoro-tsoro",
			result: Draw,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRecord(tc.text)
			if err != nil {
				t.Fatalf("ParseRecord: %v", err)
			}
			if got := r.Ruleset.String(); got != tc.rs {
				t.Errorf("ruleset %q, want %q", got, tc.rs)
			}
			if r.Position != tc.pos || r.Result != tc.result {
				t.Errorf("position %q result %s, want %q %s", r.Position, r.Result, tc.pos, tc.result)
			}
			if len(r.Tags) != len(tc.tags) {
				t.Fatalf("tags %q, want %q", r.Tags, tc.tags)
			}
			for i := range tc.tags {
				if r.Tags[i] != tc.tags[i] {
					t.Errorf("tag %d is %q, want %q", i, r.Tags[i], tc.tags[i])
				}
			}
			if got := strings.Join(turnStrings(r), " "); got != tc.turns {
				t.Errorf("turns %q, want %q", got, tc.turns)
			}
			if _, err := r.Replay(); err != nil {
				t.Errorf("Replay: %v", err)
			}
			back, err := ParseRecord(r.String())
			if err != nil || !back.Equal(r) {
				t.Errorf("round trip of\n%s\ngave %v, %v", r, back, err)
			}
		})
	}
}

func TestParseRecordBad(t *testing.T) {
	const head = "[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n"
	tests := []struct {
		name, text string
		line       int
		want       string // a part of the error text
	}{
		{"empty", "", 0, "no Ruleset header"},
		{"no result header", "[Ruleset \"nsolo\"]\n1. b4", 0, "no Result header"},
		{"unknown game", "[Ruleset \"oware\"]\n[Result \"*\"]", 1, `unknown game "oware"`},
		{"bad option", "[Ruleset \"tsoro size=5\"]\n[Result \"*\"]", 1, "size takes a whole number from 6 to 21"},
		{"bad result header", "[Ruleset \"nsolo\"]\n[Result \"1-0\"]", 2, "results are S, N, draw and *"},
		{"header twice", head + "[Result \"S\"]", 3, "header Result given twice"},
		{"header without quotes", "[Ruleset tsoro]\n[Result \"*\"]", 1, `a header is [Key "value"]`},
		{"header without bracket", "[Ruleset \"tsoro\"\n[Result \"*\"]", 1, `a header is [Key "value"]`},
		{"header key with a dash", "[Ruleset \"tsoro\"]\n[Result \"*\"]\n[Side-A \"x\"]", 3, `a header is [Key "value"]`},
		{"header bad escape", "[Ruleset \"tsoro\"]\n[Result \"*\"]\n[Event \"a\\nb\"]", 3, `\" and \\ escapes`},
		{"header unescaped quote", "[Ruleset \"tsoro\"]\n[Result \"*\"]\n[Event \"a\"b\"]", 3, `a header is [Key "value"]`},
		{"header with text after", "[Ruleset \"tsoro\"] x\n[Result \"*\"]", 1, `a header is [Key "value"]`},
		{"header after turns", head + "1. a1\n[Event \"x\"]", 4, "header after the turns"},
		{"bad position", "[Ruleset \"tsoro size=8\"]\n[Position \"2,2 S\"]\n[Result \"*\"]", 0, "bad Position header"},
		{"empty position", "[Ruleset \"tsoro size=8\"]\n[Position \"\"]\n[Result \"*\"]", 2, "the Position header is empty"},
		{"bad action", head + "1. a1 d4,dd", 3, `"dd" is not an action`},
		{"upper-case action", head + "1. A1", 3, `"A1" is not an action`},
		{"empty action", head + "1. a1 d4,,d2", 3, "empty action"},
		{"trailing comma", head + "1. a1,", 3, "empty action"},
		{"wrong number", head + "1. a1 d4,d2 3. a7", 3, `move number "3." does not fit: turn 3 is South's, numbered 2.`},
		{"number before North", head + "1. a1 1. d4", 3, `numbered 1...`},
		{"dots before South", head + "1... a1", 3, `numbered 1.`},
		{"two dots", head + "1.. a1", 3, "is not a move number or a turn"},
		{"leading zero", head + "01. a1", 3, "is not a move number or a turn"},
		{"number then number", head + "1. 1. a1", 3, "followed by another move number"},
		{"number at the end", head + "1. a1 d4,d2 2.", 3, `move number "2." is not followed by a turn`},
		{"number then result", head + "1. a1 d4,d2 2. *", 3, "followed by the result"},
		{"text after result", head + "1. a1 * d4", 3, "after the result *"},
		{"result disagrees", head + "1. a1 S\n\n", 3, "the result after the turns is S but the Result header says *"},
		{"huge number", head + "99999999999999999999. a1", 3, "is not a move number"},
		{"not UTF-8", head + "1. a1 \xff", 0, "not valid UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRecord(tc.text)
			if err == nil {
				t.Fatalf("ParseRecord accepted it: %v", r)
			}
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is a %T, not a *RecordError", err, err)
			}
			if re.Line != tc.line {
				t.Errorf("line %d, want %d (%v)", re.Line, tc.line, err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "mancala: record") {
				t.Errorf("error %q does not start with \"mancala: record\" or lacks %q", err, tc.want)
			}
		})
	}
}

// randomGame plays a seeded random game of rs to its end, recording it.
func randomGame(t testing.TB, rs Ruleset, seed uint64) *Recorder {
	t.Helper()
	s, err := NewGame(rs)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := NewRecorder(s)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var buf []Action
	for !rec.State().IsOver() {
		buf = rec.State().Legal(buf[:0])
		if err := rec.Apply(buf[rng.IntN(len(buf))]); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	return rec
}

// finishedRecord returns the record of a seeded random tsoro size=8 game
// that has at least min turns.
func finishedRecord(t *testing.T, min int) *Record {
	t.Helper()
	for seed := uint64(1); ; seed++ {
		if r := randomGame(t, MustParseRuleset("tsoro size=8"), seed).Record(); len(r.Turns) >= min {
			return r
		}
	}
}

func replayErr(t *testing.T, r *Record) *RecordError {
	t.Helper()
	back, err := ParseRecord(r.String()) // errors must survive printing and parsing
	if err != nil {
		t.Fatalf("ParseRecord: %v", err)
	}
	_, err = back.Replay()
	var re *RecordError
	if !errors.As(err, &re) {
		t.Fatalf("Replay gave %v (%T), want a *RecordError", err, err)
	}
	return re
}

func TestReplayIllegalAction(t *testing.T) {
	r := finishedRecord(t, 14)
	r.Result = NoResult
	r.Turns[11] = []Action{HoleAction(MakeHole(RowA, 3))} // turn 12 is North's: a3 is South's hole
	re := replayErr(t, r)
	if re.Turn != 12 || re.Side != "North" || re.Action != 1 || re.Text != "a3" {
		t.Errorf("error at turn %d (%s) action %d %q, want turn 12 (North) action 1 a3", re.Turn, re.Side, re.Action, re.Text)
	}
	want := "mancala: record turn 12 (North): illegal action a3: you may only sow your own holes; legal actions are "
	if !strings.HasPrefix(re.Error(), want) {
		t.Errorf("error %q, want it to start %q", re, want)
	}
	if re.Err == nil || !strings.Contains(re.Err.Error(), "you may only sow your own holes") {
		t.Errorf("the engine's error is not wrapped: %v", re.Err)
	}
}

func TestReplayTurnEnds(t *testing.T) {
	// In tsoro size=8, South's a1 ends the first turn; North's d4 then ends
	// in the head d2 and needs a choice: d2 (relay) or stop.
	const head = "[Ruleset \"tsoro size=8\"]\n[Result \"%s\"]\n"
	tests := []struct {
		name, result, turns, want string
		turn, action              int
	}{
		{"surplus action", "*", "1. a1,stop", "the turn ended after action 1 (a1); surplus action(s) stop", 1, 2},
		{"surplus actions", "*", "1. a1 d4,stop,d2,stop", "the turn ended after action 2 (stop); surplus action(s) d2,stop", 2, 3},
		{"turn needs more, not the last turn", "*", "1. a1 d4 2. a7", "the turn does not end after its last action d4: it needs more actions (next: relay from the head d2 or stop; legal actions are d2 stop)", 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRecord(strings.Replace(head, "%s", tc.result, 1) + tc.turns)
			if err != nil {
				t.Fatal(err)
			}
			re := replayErr(t, r)
			if re.Turn != tc.turn || re.Action != tc.action || !strings.Contains(re.Error(), tc.want) {
				t.Errorf("got turn %d action %d: %v\nwant turn %d action %d and %q", re.Turn, re.Action, re, tc.turn, tc.action, tc.want)
			}
		})
	}
	for _, result := range []string{"*", "S"} { // in play, or North resigned mid-turn
		t.Run("unfinished last turn, result "+result, func(t *testing.T) {
			r, err := ParseRecord(strings.Replace(head, "%s", result, 1) + "1. a1 d4")
			if err != nil {
				t.Fatal(err)
			}
			s, err := r.Replay()
			if err != nil {
				t.Fatal(err)
			}
			if s.AtTurnStart() || s.ToMove() != North || !strings.Contains(s.Pending(), "relay from the head d2") {
				t.Errorf("replay stopped at %s (%q), want North mid-turn at the head d2", s.Position(), s.Pending())
			}
		})
	}
	t.Run("empty turn", func(t *testing.T) {
		r := &Record{Ruleset: MustParseRuleset("tsoro size=8"), Turns: [][]Action{{HoleAction(MakeHole(RowA, 1))}, {}}}
		_, err := r.Replay()
		var re *RecordError
		if !errors.As(err, &re) || re.Turn != 2 || !strings.Contains(err.Error(), "empty turn") {
			t.Errorf("got %v, want an empty turn error at turn 2", err)
		}
	})
}

func TestReplayResult(t *testing.T) {
	r := finishedRecord(t, 1)
	s, err := r.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if !s.IsOver() || r.Result != s.Outcome().Result || r.Result == NoResult {
		t.Fatalf("finished game: over %v, result %s, outcome %s", s.IsOver(), r.Result, s.Outcome().Result)
	}
	for _, wrong := range []Result{NoResult, SouthWins, NorthWins, Draw} {
		if wrong == r.Result {
			continue
		}
		bad := *r
		bad.Result = wrong
		re := replayErr(t, &bad)
		want := "the Result header says " + wrong.String() + " but the game ended " + r.Result.String()
		if !strings.Contains(re.Error(), want) {
			t.Errorf("error %q lacks %q", re, want)
		}
	}
	// A turn after the end of the game.
	extra := *r
	extra.Turns = append(append([][]Action(nil), r.Turns...), []Action{Stop})
	re := replayErr(t, &extra)
	if re.Turn != len(extra.Turns) || !strings.Contains(re.Error(), "1 turn(s) too many") {
		t.Errorf("got %v, want a turn too many at turn %d", re, len(extra.Turns))
	}
	// A game not over may carry any result (a resignation).
	cut := *r
	cut.Turns = r.Turns[:len(r.Turns)-1]
	for _, res := range []Result{NoResult, SouthWins, NorthWins, Draw} {
		cut.Result = res
		if _, err := cut.Replay(); err != nil {
			t.Errorf("unfinished game with result %s: %v", res, err)
		}
	}
}

func TestRecordPositionHeader(t *testing.T) {
	// Record a game from a position reached in play: the record starts there.
	rs := MustParseRuleset("nsolo size=10")
	full := randomGame(t, rs, 7)
	turns := full.Record().Turns
	if len(turns) < 20 {
		t.Fatalf("game too short: %d turns", len(turns))
	}
	s, _ := NewGame(rs)
	for _, turn := range turns[:9] { // South, North, …: North is to move after 9 turns
		for _, a := range turn {
			if err := s.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	mid := s.Clone()
	rec, err := NewRecorder(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range turns[9:12] {
		for _, a := range turn {
			if err := rec.Apply(a); err != nil {
				t.Fatal(err)
			}
			if err := s.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := rec.Record()
	if r.Position != mid.Position() || len(r.Turns) != 3 {
		t.Fatalf("record position %q with %d turns, want %q with 3", r.Position, len(r.Turns), mid.Position())
	}
	if h := r.Headers(); len(h) != 3 || h[0].Key != "Ruleset" || h[1] != (Tag{"Position", mid.Position()}) || h[2] != (Tag{"Result", "*"}) {
		t.Errorf("headers %q, want Ruleset, Position and Result", h)
	}
	text := r.String()
	if !strings.Contains(text, "[Position \""+mid.Position()+"\"]") || !strings.Contains(text, "\n1... ") {
		t.Errorf("record text lacks the Position header or the 1... numbering:\n%s", text)
	}
	back, err := ParseRecord(text)
	if err != nil || !back.Equal(r) {
		t.Fatalf("round trip: %v\n%s", err, text)
	}
	end, err := back.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if end.Position() != s.Position() {
		t.Errorf("replay from the position ends at %s, want %s", end.Position(), s.Position())
	}
	// The start position itself gives no Position header.
	start, _ := NewGame(rs)
	if rec, _ := NewRecorder(start); rec.Record().Position != "" {
		t.Errorf("a record from the start has Position %q", rec.Record().Position)
	}
}

func TestRecorder(t *testing.T) {
	rs := MustParseRuleset("tsoro size=8")
	s, _ := NewGame(rs)
	rec, err := NewRecorder(s)
	if err != nil {
		t.Fatal(err)
	}
	a1, d4, d2 := HoleAction(MakeHole(RowA, 1)), HoleAction(MakeHole(RowD, 4)), HoleAction(MakeHole(RowD, 2))
	if err := rec.Apply(d4); err == nil {
		t.Error("recorder accepted North's d4 on South's turn")
	}
	if s.Position() != rec.State().Position() || s == rec.State() {
		t.Error("the recorder does not play on a copy")
	}
	for _, a := range []Action{a1, d4} {
		if err := rec.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(turnStrings(rec.Record()), " "); got != "a1 d4" {
		t.Errorf("mid-turn record turns %q, want \"a1 d4\"", got)
	}
	if _, err := NewRecorder(rec.State()); err == nil {
		t.Error("NewRecorder accepted a state mid-turn")
	}
	// North resigns at the head decision, then the resignation is taken back.
	if err := rec.SetResult(SouthWins); err != nil {
		t.Fatal(err)
	}
	resigned := rec.Record()
	if resigned.Result != SouthWins || resigned.String() != "[Ruleset \"tsoro size=8\"]\n[Result \"S\"]\n\n1. a1 d4 S\n" {
		t.Errorf("mid-turn resignation recorded as\n%s", resigned)
	}
	if _, err := resigned.Replay(); err != nil {
		t.Errorf("the mid-turn resignation does not replay: %v", err)
	}
	if err := rec.SetResult(NoResult); err != nil {
		t.Fatal(err)
	}
	if err := rec.Apply(d2); err != nil {
		t.Fatal(err)
	}
	if err := rec.SetTag("South", "Ada"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][2]string{{"Result", "S"}, {"", "x"}, {"9x", "x"}, {"Event", "a\nb"}, {"Event", "\xff"}} {
		if err := rec.SetTag(bad[0], bad[1]); err == nil {
			t.Errorf("SetTag(%q, %q) accepted", bad[0], bad[1])
		}
	}
	if err := rec.SetResult(NorthWins); err != nil { // South resigns
		t.Fatal(err)
	}
	if err := rec.Apply(HoleAction(MakeHole(RowA, 7))); err == nil {
		t.Error("Apply accepted an action after a result was set")
	}
	r := rec.Record()
	want := "[Ruleset \"tsoro size=8\"]\n[Result \"N\"]\n[South \"Ada\"]\n\n1. a1 d4,d2 N\n"
	if r.String() != want {
		t.Errorf("record\n%s\nwant\n%s", r, want)
	}
	if _, err := r.Replay(); err != nil {
		t.Errorf("the resigned game does not replay: %v", err)
	}
	r.Turns[0][0] = d2 // Record returns a copy
	if rec.Record().Turns[0][0] != a1 {
		t.Error("changing a returned record changed the recorder's")
	}
	// A finished game's result is the rules' own.
	done := randomGame(t, rs, 3)
	if err := done.SetResult(Draw); err == nil {
		t.Error("SetResult changed the result of a finished game")
	}
}

func TestRecordStringWraps(t *testing.T) {
	r := randomGame(t, MustParseRuleset("nsolo size=20"), 11).Record()
	text := r.String()
	_, moves, _ := strings.Cut(text, "\n\n")
	lines := strings.Split(strings.TrimSuffix(moves, "\n"), "\n")
	if len(lines) < 5 {
		t.Fatalf("only %d lines of turns", len(lines))
	}
	for _, l := range lines {
		if len(l) > recordWidth && strings.Contains(l, " ") {
			t.Errorf("line of %d columns with room to wrap: %q", len(l), l)
		}
	}
	if !strings.HasPrefix(lines[0], "1. ") || !strings.HasSuffix(lines[len(lines)-1], " "+r.Result.String()) {
		t.Errorf("turns do not start with 1. or end with the result:\n%s", moves)
	}
}

// variants are option variants played by the property tests besides the
// presets.
var variants = []string{
	"tsoro size=6 heads=none bonus=0",
	"tsoro size=12 heads=ends bonus=3",
	"tsoro size=8 heads=left2 bonus=1",
	"misoro-tsoro heads=choose bonus=1",
	"nsolo outer=yes extra=1",
	"nsolo size=12 extra=3",
	"choro opening=sequential cw=any leave=no",
	"choro opening=sequential",
	"choro cw=any leave=no",
}

func propertyRulesets(t *testing.T) []Ruleset {
	rss := Presets()
	for _, v := range variants {
		rss = append(rss, MustParseRuleset(v))
	}
	return rss
}

// TestRecordRandomGames checks, for seeded random games of every preset and
// a few variants, that the record round-trips through its text and replays
// to the same final position and hash.
func TestRecordRandomGames(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 20
	}
	for _, rs := range propertyRulesets(t) {
		t.Run(rs.String(), func(t *testing.T) {
			for seed := range uint64(games) {
				rec := randomGame(t, rs, seed)
				r := rec.Record()
				if r.Result != rec.State().Outcome().Result || r.Result == NoResult {
					t.Fatalf("seed %d: record result %s, game %s", seed, r.Result, rec.State().Outcome().Result)
				}
				text := r.String()
				back, err := ParseRecord(text)
				if err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, text)
				}
				if !back.Equal(r) {
					t.Fatalf("seed %d: round trip changed the record\n%s\n%s", seed, text, back)
				}
				if again := back.String(); again != text {
					t.Fatalf("seed %d: printing is not stable\n%s\n%s", seed, text, again)
				}
				end, err := back.Replay()
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				want := rec.State()
				if end.Position() != want.Position() || end.Hash() != want.Hash() || end.Outcome() != want.Outcome() || end.Turns() != want.Turns() {
					t.Fatalf("seed %d: replay ends at %s %x %v, game at %s %x %v", seed, end.Position(), end.Hash(), end.Outcome(), want.Position(), want.Hash(), want.Outcome())
				}
			}
		})
	}
}

// choroHead is the header of a record of Choro at its defaults (Driberg's
// reading, with the simultaneous opening).
const choroHead = "[Ruleset \"choro\"]\n[Result \"*\"]\n"

// TestChoroOpeningRecord checks the notation of the simultaneous opening
// (RULES.md §5): one turn of two choices joined by "|", move 1; the main
// phase numbers from 2, "2..." when North plays first.
func TestChoroOpeningRecord(t *testing.T) {
	for _, c := range []struct{ name, moves, printed, last string }{
		// a6|d3 ends in the same step: South plays first (see choro_test.go).
		{"opening only", "1. a6|d3", "1. a6|d3 *", "0,4,1,3,1,0,3,1/4,4,4,0,1,3,3,0/0,3,3,1,0,4,4,4/1,3,0,1,3,1,4,0 S"},
		{"South first after it", "1. a6|d3 2. a2", "1. a6|d3 2. a2 *", ""},
		// After a4|d3 North ended first (choro_test.go): North's c1 is 2...
		{"North first after it", "1. a4|d3 2... c1 3. a2", "1. a4|d3 2... c1 3. a2 *", ""},
		{"unnumbered", "a4|d3 c1", "1. a4|d3 2... c1 *", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseRecord(choroHead + "\n" + c.moves + "\n")
			if err != nil {
				t.Fatal(err)
			}
			opening := strings.TrimPrefix(strings.Fields(c.moves)[0], "1.")
			if opening == "" {
				opening = strings.Fields(c.moves)[1]
			}
			if got := joinActions(r.Turns[0]); got != strings.Replace(opening, "|", ",", 1) {
				t.Fatalf("the opening turn holds %s, want South's and North's choices of %s", got, opening)
			}
			want := choroHead + "\n" + c.printed + "\n"
			if got := r.String(); got != want {
				t.Errorf("printed\n%s\nwant\n%s", got, want)
			}
			back, err := ParseRecord(r.String())
			if err != nil || !back.Equal(r) {
				t.Fatalf("round trip: %v, %v", back, err)
			}
			s, err := back.Replay()
			if err != nil {
				t.Fatal(err)
			}
			if c.last != "" && s.Position() != c.last {
				t.Errorf("replay ends at %s, want %s", s.Position(), c.last)
			}
		})
	}

	// A record made by playing: the Recorder writes the same.
	s, _ := NewGame(MustParseRuleset("choro"))
	rec, err := NewRecorder(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a4", "d3", "c1"} {
		a, _ := ParseAction(name)
		if err := rec.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := rec.Record().String(), choroHead+"\n1. a4|d3 2... c1 *\n"; got != want {
		t.Errorf("recorded\n%s\nwant\n%s", got, want)
	}
}

// TestChoroOpeningRecordBad checks that malformed openings, and "|"
// anywhere but the simultaneous opening, are refused with errors that say
// what is allowed.
func TestChoroOpeningRecordBad(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"comma instead of bar", choroHead + "1. a6,d3", `one turn of two choices, South's then North's, joined by "|", such as a6|d3`},
		{"North's choice missing", choroHead + "1. a6|", "empty choice; the simultaneous opening is written South's choice|North's choice"},
		{"South's choice missing", choroHead + "1. |d3", "empty choice"},
		{"bar alone", choroHead + "|", "empty choice"},
		{"three choices", choroHead + "1. a6|d3|d4", `one turn of two choices`},
		{"bar then comma", choroHead + "1. a6|d3,d4", `one turn of two choices`},
		{"bar in the main phase", choroHead + "1. a6|d3 2. a2|b2", `"|" joins only the two choices of a simultaneous Choro opening`},
		{"bar in a sequential Choro", "[Ruleset \"choro opening=sequential\"]\n[Result \"*\"]\n1. a6|d3", `"|" joins only`},
		{"bar in Tsoro", "[Ruleset \"tsoro size=8\"]\n[Result \"*\"]\n1. a1|d4", `"|" joins only`},
		{"North numbered as South", choroHead + "1. a4|d3 2. c1", `move number "2." does not fit: turn 2 is North's, numbered 2...`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseRecord(c.text)
			if err == nil {
				t.Fatalf("accepted: %v", r)
			}
			var re *RecordError
			if !errors.As(err, &re) || re.Line != 3 {
				t.Fatalf("error %v (%T), want a *RecordError on line 3", err, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q lacks %q", err, c.want)
			}
			var reading *ReadingError
			if errors.As(err, &reading) {
				t.Errorf("a malformed record is no DLP record: %v", err)
			}
		})
	}
	// A well-formed opening that the rules refuse: a7 is South's hole.
	r, err := ParseRecord(choroHead + "1. a6|a7")
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Replay()
	var reading *ReadingError
	if err == nil || errors.As(err, &reading) || !strings.Contains(err.Error(), "North's opening lifts a hole of North's outer row") {
		t.Errorf("Replay of a6|a7: %v", err)
	}
}

// TestChoroDLPRecordReadingError checks that a record of the DLP's reading
// (the only Choro before the options of RULES.md §3.4) under the header
// [Ruleset "choro"] gets a *ReadingError that suggests DLPChoro(), whether
// it fails to read (numbered) or to replay (unnumbered), and that the
// suggested ruleset plays it.
func TestChoroDLPRecordReadingError(t *testing.T) {
	old := randomGame(t, DLPChoro(), 3)
	want := old.State()
	r := old.Record()
	dlpHead := `[Ruleset "` + DLPChoro().String() + `"]`
	if !strings.Contains(r.String(), dlpHead) || len(r.Turns) < 3 {
		t.Fatalf("the DLP record:\n%s", r)
	}
	numbered := strings.Replace(r.String(), dlpHead, `[Ruleset "choro"]`, 1)
	var turns []string
	for _, turn := range r.Turns {
		turns = append(turns, joinActions(turn))
	}
	unnumbered := "[Ruleset \"choro\"]\n[Result \"" + r.Result.String() + "\"]\n\n" + strings.Join(turns, " ") + "\n"
	for name, text := range map[string]string{"numbered": numbered, "unnumbered": unnumbered} {
		t.Run(name, func(t *testing.T) {
			r, err := ParseRecord(text)
			if err == nil {
				_, err = r.Replay()
			}
			var reading *ReadingError
			if !errors.As(err, &reading) {
				t.Fatalf("error %v (%T), want a *ReadingError", err, err)
			}
			if reading.Suggest != DLPChoro() {
				t.Errorf("Suggest %v, want DLPChoro()", reading.Suggest)
			}
			if !strings.Contains(err.Error(), `this record plays the DLP reading: set [Ruleset "choro opening=sequential cw=any leave=no"]`) {
				t.Errorf("error %q does not say which Ruleset to set", err)
			}
			var re *RecordError
			if !errors.As(err, &re) {
				t.Errorf("the ReadingError does not wrap the RecordError of the default reading: %v", err)
			}
			// With the suggested ruleset the record reads and replays to the
			// game's end.
			fixed := strings.Replace(text, `[Ruleset "choro"]`, `[Ruleset "`+reading.Suggest.String()+`"]`, 1)
			r, err = ParseRecord(fixed)
			if err != nil {
				t.Fatal(err)
			}
			end, err := r.Replay()
			if err != nil {
				t.Fatal(err)
			}
			if end.Position() != want.Position() || end.Outcome() != want.Outcome() {
				t.Errorf("the fixed record ends at %s %v, the game at %s %v", end.Position(), end.Outcome(), want.Position(), want.Outcome())
			}
		})
	}
}
