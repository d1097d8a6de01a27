package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"matombo/puzzles"
)

// TestPuzzlesVerifyJSON proves every 25th shipped Nsolo puzzle again and
// reads the report.
func TestPuzzlesVerifyJSON(t *testing.T) {
	code, out, errOut := run(t, "", "puzzles", "verify", "nsolo", "--every", "25", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var reps []puzzles.Report
	if err := json.Unmarshal([]byte(out), &reps); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	st, err := puzzles.Load("nsolo")
	if err != nil {
		t.Fatal(err)
	}
	want := (len(st.Puzzles) + 24) / 25
	if len(reps) != 1 || reps[0].Preset != "nsolo" || reps[0].Puzzles != len(st.Puzzles) || reps[0].Verified != want || len(reps[0].Failures) != 0 {
		t.Errorf("report %+v, want nsolo with %d puzzles, %d verified", reps, len(st.Puzzles), want)
	}
	for _, field := range []string{`"preset"`, `"puzzles"`, `"verified"`} {
		if !strings.Contains(out, field) {
			t.Errorf("the JSON lacks %s: %s", field, out)
		}
	}
}

// TestPuzzlesGenerate finds two Nsolo puzzles in a few self-play games,
// then one more with --append, merges one of another seed, and verifies
// them.
func TestPuzzlesGenerate(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "", "puzzles", "nsolo", "--want", "2", "--games", "60", "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	code, out, errOut = run(t, "", "puzzles", "nsolo", "--want", "1", "--games", "60", "--seed", "2", "--append", "--dir", dir)
	if code != 0 {
		t.Fatalf("--append: exit %d: %s%s", code, out, errOut)
	}
	other := t.TempDir()
	code, out, errOut = run(t, "", "puzzles", "nsolo", "--want", "1", "--games", "60", "--seed", "3", "--dir", other)
	if code != 0 {
		t.Fatalf("seed 3: exit %d: %s%s", code, out, errOut)
	}
	for range 2 { // the second merge adds nothing: the positions are there
		code, out, errOut = run(t, "", "puzzles", "merge", filepath.Join(other, "nsolo.json"), "--dir", dir)
		if code != 0 {
			t.Fatalf("merge: exit %d: %s%s", code, out, errOut)
		}
	}
	st, err := readSet(filepath.Join(dir, "nsolo.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Puzzles) != 4 || st.Puzzles[3].ID != "nsolo-0004" {
		t.Fatalf("%d puzzles, want 4 numbered 1 to 4: %+v", len(st.Puzzles), st.Puzzles)
	}
	rep, err := puzzles.VerifySet(t.Context(), st, 1)
	if err != nil || rep.Verified != 4 {
		t.Errorf("verified %d of 4 (%v): %v", rep.Verified, err, rep.Failures)
	}
	if _, err := os.Stat(filepath.Join(dir, "nsolo.json.tmp")); !os.IsNotExist(err) {
		t.Errorf("a temporary file was left: %v", err)
	}
}

// TestPuzzlesUsage checks the command line's refusals.
func TestPuzzlesUsage(t *testing.T) {
	cases := [][]string{
		{"puzzles", "chess"},
		{"puzzles", "verify", "nsolo size=36"},
		{"puzzles", "verify", "--every", "0"},
		{"puzzles", "nsolo", "--want", "0"},
		{"puzzles", "nsolo", "--play", "9"},
		{"puzzles", "nsolo", "--budget", "-1"},
		{"puzzles", "merge"},
	}
	for _, args := range cases {
		code, out, errOut := run(t, "", args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "matombo puzzles: ") || !strings.Contains(errOut, "matombo help puzzles") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestPuzzlesRecords looks for puzzles in stored games: a finished Nsolo
// game, and a file that is no record.
func TestPuzzlesRecords(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "", "puzzles", "nsolo", "--records", "testdata/replay-nsolo-finished.txt", "--want", "5", "--dir", dir)
	if code != 0 || !strings.Contains(out, "nsolo: ") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	st, err := readSet(filepath.Join(dir, "nsolo.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range st.Puzzles {
		if !strings.HasPrefix(p.Source, "stored game replay-nsolo-finished.txt, turn ") {
			t.Errorf("%s comes from %q", p.ID, p.Source)
		}
	}
	if rep, err := puzzles.VerifySet(t.Context(), st, 1); err != nil || rep.Verified != len(st.Puzzles) {
		t.Errorf("verified %d of %d (%v): %v", rep.Verified, len(st.Puzzles), err, rep.Failures)
	}
	t.Logf("%d puzzles in the stored game", len(st.Puzzles))
	code, _, errOut = run(t, "", "puzzles", "nsolo", "--records", "testdata/help.golden", "--dir", dir)
	if code != 1 || !strings.Contains(errOut, "help.golden") {
		t.Errorf("a file that is no record: exit %d, %q", code, errOut)
	}
}
