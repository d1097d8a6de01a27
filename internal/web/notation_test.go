package web

import (
	"html"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"matombo/mancala"
)

// The notation page (/notation) explains the notation with worked
// examples: turns played from a position (figure.example, data-before,
// data-turn, data-after), positions (figure.position, data-position) and
// a game record (pre.record). These tests play every example with the
// engine, so the page cannot drift from the rules.

var (
	exampleFig  = regexp.MustCompile(`<figure class="example[^"]*" id="([^"]+)" data-ruleset="([^"]+)" data-before="([^"]+)" data-turn="([^"]+)" data-after="([^"]+)">`)
	positionFig = regexp.MustCompile(`<figure class="position[^"]*" id="([^"]+)" data-ruleset="([^"]+)" data-position="([^"]+)">`)
	recordPre   = regexp.MustCompile(`(?s)<pre class="record[^"]*">(.*?)</pre>`)
	codeTurn    = regexp.MustCompile(`<code class="turn">([^<]+)</code>`)
	codePos     = regexp.MustCompile(`<code class="pos">([^<]+)</code>`)
)

func notationPage(t *testing.T) string {
	t.Helper()
	b, err := fs.ReadFile(FS, "notation.html")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// playTurn plays the written turn text ("b2,xd4,xc7", "a6|d3") from s, at
// the start of a turn: every action must be legal, none but the last may
// end the turn, and the last must.
func playTurn(s *mancala.State, text string) error {
	var acts []string
	for _, part := range strings.Split(text, "|") {
		acts = append(acts, strings.Split(part, ",")...)
	}
	for i, w := range acts {
		a, err := mancala.ParseAction(w)
		if err != nil {
			return err
		}
		if err := s.Apply(a); err != nil {
			return err
		}
		ended := s.AtTurnStart() || s.IsOver()
		if last := i == len(acts)-1; ended != last {
			return &turnError{text: text, at: w, ended: ended}
		}
	}
	return nil
}

type turnError struct {
	text, at string
	ended    bool
}

func (e *turnError) Error() string {
	if e.ended {
		return "the turn ended at " + e.at + ", before the end of " + e.text
	}
	return "the turn is not over after " + e.text
}

// TestNotationExamples plays each worked turn from its position and checks
// the position it leaves, and that the page shows the turn it plays.
func TestNotationExamples(t *testing.T) {
	page := notationPage(t)
	figs := exampleFig.FindAllStringSubmatch(page, -1)
	shown := codeTurn.FindAllStringSubmatch(page, -1)
	if len(figs) == 0 || len(figs) != len(shown) {
		t.Fatalf("notation.html: %d example figures, %d turns shown", len(figs), len(shown))
	}
	turns := map[string]bool{}
	for i, f := range figs {
		id, ruleset, before, turn, after := f[1], html.UnescapeString(f[2]), html.UnescapeString(f[3]), html.UnescapeString(f[4]), html.UnescapeString(f[5])
		turns[turn] = true
		if got := html.UnescapeString(shown[i][1]); got != turn {
			t.Errorf("%s: the figure shows %q and plays %q", id, got, turn)
		}
		rs, err := mancala.ParseRuleset(ruleset)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		s, err := mancala.NewGame(rs)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if err := s.SetPosition(before); err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if err := playTurn(s, turn); err != nil {
			t.Errorf("%s: %s from %q under %s: %v", id, turn, before, ruleset, err)
			continue
		}
		if got := s.Position(); got != after {
			t.Errorf("%s: %s from %q leaves %q; the page says %q", id, turn, before, got, after)
		}
	}
	// The forms the issue and RULES.md §5 name are all shown.
	for _, want := range []string{"a3", "a7,stop", "b2,xd4,xc7", "a1cw", "a6|d3"} {
		if !turns[want] {
			t.Errorf("notation.html: no worked example of %q", want)
		}
	}
}

// TestNotationPositions sets each position shown under its ruleset.
func TestNotationPositions(t *testing.T) {
	page := notationPage(t)
	figs := positionFig.FindAllStringSubmatch(page, -1)
	shown := codePos.FindAllStringSubmatch(page, -1)
	if len(figs) < 2 || len(figs) != len(shown) {
		t.Fatalf("notation.html: %d position figures, %d positions shown", len(figs), len(shown))
	}
	for i, f := range figs {
		id, ruleset, pos := f[1], html.UnescapeString(f[2]), html.UnescapeString(f[3])
		if got := html.UnescapeString(shown[i][1]); got != pos {
			t.Errorf("%s: the figure shows %q and sets %q", id, got, pos)
		}
		s, err := mancala.NewGame(mancala.MustParseRuleset(ruleset))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetPosition(pos); err != nil {
			t.Errorf("%s: %v", id, err)
		} else if s.Position() != pos {
			t.Errorf("%s: %q is written %q by the engine", id, pos, s.Position())
		}
	}
}

// TestNotationRecord reads and replays the record the page shows, and
// checks that it is written as the engine writes it.
func TestNotationRecord(t *testing.T) {
	m := recordPre.FindStringSubmatch(notationPage(t))
	if m == nil {
		t.Fatal("notation.html: no record")
	}
	text := html.UnescapeString(m[1])
	rec, err := mancala.ParseRecord(text)
	if err != nil {
		t.Fatalf("the record %q does not parse: %v", text, err)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("the record %q does not replay: %v", text, err)
	}
	if got := strings.TrimSpace(rec.String()); got != strings.TrimSpace(text) {
		t.Errorf("the page's record\n%s\nis written by the engine as\n%s", text, got)
	}
}
