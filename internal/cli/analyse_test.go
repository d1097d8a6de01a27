package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// analyseGolden are reviews of fixed records, node-limited (the default
// level 6 is too) so that they are the same on every machine, and the usage errors; the whole output is
// compared with testdata/<name>.golden (-update rewrites them). The
// reviews change when search/calibration.json does.
var analyseGolden = []struct {
	name string
	code int
	args []string
}{
	{"analyse-choro", exitOK, []string{"analyse", "testdata/analyse-choro.txt"}},
	{"analyse-tsoro-json", exitOK, []string{"analyse", "--json", "testdata/replay-tsoro-finished.txt", "--nodes", "16000"}},
	{"analyse-nsolo-level", exitOK, []string{"analyse", "testdata/replay-nsolo-finished.txt", "--level", "3"}},
	{"analyse-no-argument", exitUsage, []string{"analyse"}},
	{"analyse-two-limits", exitUsage, []string{"analyse", "testdata/analyse-choro.txt", "--level", "3", "--nodes", "5000"}},
	{"analyse-bad-level", exitUsage, []string{"analyse", "testdata/analyse-choro.txt", "--level", "9"}},
	{"analyse-bad-record", exitFailure, []string{"analyse", "testdata/replay-bad-illegal.txt"}},
	{"analyse-missing-file", exitFailure, []string{"analyse", "testdata/no-such-record.txt"}},
}

func TestAnalyseGolden(t *testing.T) {
	for _, tc := range analyseGolden {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			if code != exitOK && (stdout != "" || stderr == "") {
				t.Errorf("a failure must write only to stderr; stdout %q, stderr %q", stdout, stderr)
			}
			got := "$ matombo " + strings.Join(tc.args, " ") + "\nexit " + strconv.Itoa(code) + "\n-- stdout --\n" + stdout + "-- stderr --\n" + stderr
			checkGolden(t, tc.name, got)
		})
	}
}

// TestAnalyseJSON checks the review's JSON against the record: a turn per
// written turn, chances within 0 to 100, every judged turn's drop at its
// judgement's threshold, proven values at 0, 50 or 100.
func TestAnalyseJSON(t *testing.T) {
	code, stdout, stderr := run(t, "", "analyse", "--json", "testdata/analyse-choro.txt", "--nodes", "8000")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep analyseReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Ruleset != "choro" || len(rep.Turns) != 11 || rep.Turns[0].Actions != "a6|d3" || rep.Turns[0].Side != "both" || rep.Turns[0].Judgement != "" {
		t.Fatalf("report %+v", rep)
	}
	if o := rep.Turns[0].Opening; o == nil || o.Value != rep.Turns[0].Before.South || o.South.Action != "a6" || o.North.Action != "d3" ||
		o.South.Drop < 0 || o.North.Drop < 0 || !strings.Contains(rep.Turns[0].Best, "|") {
		t.Errorf("the opening's review: %+v, best %q", o, rep.Turns[0].Best)
	}
	for _, tr := range rep.Turns {
		for k, c := range []analyseChance{tr.Before, tr.After} {
			matrix := tr.Opening != nil && k == 0 // the opening game's value has no search score
			if c.South < 0 || c.South > 100 || (c.Proven && c.South != 0 && c.South != 50 && c.South != 100) || (c.Proven != (c.Score == nil) && !matrix) {
				t.Errorf("turn %d: chance %+v", tr.Turn, c)
			}
		}
		min := map[string]float64{"": -1000, "inaccuracy": 10, "mistake": 20, "blunder": 30}[tr.Judgement]
		if tr.Drop < min-0.1 && !(tr.Judgement == "blunder" && tr.Before.Proven) {
			t.Errorf("turn %d: %s with a drop of %.1f", tr.Turn, tr.Judgement, tr.Drop)
		}
		if tr.Turn > 1 && (tr.Best == "" || !strings.HasPrefix(tr.PV, tr.Number+" "+tr.Best)) {
			t.Errorf("turn %d: best %q, line %q", tr.Turn, tr.Best, tr.PV)
		}
	}
}
