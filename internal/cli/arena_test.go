package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"matombo/mancala"
)

// runDirect runs one of this package's run functions with the given input.
func runDirect(f func(context.Context, *env, []string) int, stdin string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut}
	code := f(context.Background(), e, args)
	return code, out.String(), errOut.String()
}

func TestArenaJSON(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runDirect(runArena, "", "--a", "level:2", "--b", "random", "--ruleset", "tsoro size=8",
		"--games", "4", "--json", "--records", dir, "--seed", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not one JSON object: %q: %v", out, err)
	}
	for _, k := range []string{"games", "a_wins", "b_wins", "draws", "score", "score_low", "score_high", "elo", "elo_low", "elo_high"} {
		if _, ok := res[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, out)
		}
	}
	if res["games"] != 4.0 || res["a_wins"].(float64)+res["b_wins"].(float64)+res["draws"].(float64) != 4 {
		t.Errorf("counts: %s", out)
	}
	if !strings.Contains(errOut, "4/4") {
		t.Errorf("no progress bar on stderr: %q", errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) != 4 {
		t.Errorf("%d records, want 4", len(files))
	}
}

func TestArenaText(t *testing.T) {
	code, out, errOut := runDirect(runArena, "", "--a", "random", "--b", "random", "--ruleset", "choro",
		"--games", "2", "--records", t.TempDir(), "--sprt", "0,50")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"random vs random, choro, 2 games", "A wins", "score", "elo", "95% interval", "sprt:"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

func TestArenaBalanced(t *testing.T) {
	code, out, errOut := runDirect(runArena, "", "--a", "random", "--b", "random", "--ruleset", "choro",
		"--games", "2", "--records", t.TempDir(), "--balanced", "--seed", "11")
	if code != exitOK || !strings.Contains(out, "balanced openings (within 15.00 stones at 100000 nodes)") {
		t.Errorf("exit %d, summary:\n%s%s", code, out, errOut)
	}
	code, out, errOut = runDirect(runArena, "", "--a", "random", "--b", "random", "--ruleset", "choro",
		"--games", "2", "--records", t.TempDir(), "--balance-margin", "0", "--opening", "0")
	if code != exitFailure || !strings.Contains(errOut, "the start position is not within 0.00 stones of even") {
		t.Errorf("an impossible balance: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
}

func TestArenaUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--a", "random", "--ruleset", "tsoro", "--games", "2"},
		{"--a", "level:9", "--b", "random", "--ruleset", "tsoro", "--games", "2"},
		{"--a", "random", "--b", "random", "--ruleset", "tsoro bonus=9", "--games", "2"},
		{"--a", "random", "--b", "random", "--ruleset", "tsoro", "--games", "0"},
		{"--a", "random", "--b", "random", "--ruleset", "tsoro", "--games", "2", "--sprt", "50,0"},
		{"--a", "random", "--b", "random", "--ruleset", "tsoro", "--games", "2", "--movetime", "-5"},
		{"--a", "random", "--b", "random", "--ruleset", "tsoro", "--games", "2", "extra"},
		{"--a", "random", "--b", "random", "--ruleset", "tsoro", "--games", "2", "--balance-margin", "-1"},
		{"--a", "random", "--b", "random", "--ruleset", "tsoro", "--games", "2", "--balance-margin", "NaN"},
	} {
		code, _, errOut := runDirect(runArena, "", args...)
		if code != exitUsage || !strings.HasPrefix(errOut, "matombo arena: ") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestPlayInTerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.txt")
	code, out, errOut := runDirect(runPlay, "a9\nhint\nboard\nhelp\nquit\n",
		"tsoro", "size=8", "--level", "1", "--seed", "3", "--record", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"you play South against level 1", "d ", "a ", "your move [a1 a2 a3 a4 a5 a6 a7 a8]>",
		"hint: a", "type an action", "record saved to " + path} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "a9") || !strings.Contains(out, "columns 1 to 8") {
		t.Errorf("a bad action should be explained:\n%s", out)
	}
	text, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(text), `[Ruleset "tsoro size=8"]`) {
		t.Errorf("record %q: %v", text, err)
	}
}

func TestPlayComputerOpensForNorth(t *testing.T) {
	// The computer plays South and moves first; the input then ends, which
	// stops the game and saves it unfinished.
	path := filepath.Join(t.TempDir(), "game.txt")
	code, out, errOut := runDirect(runPlay, "", "choro", "--level", "1", "--side", "north", "--record", path, "--seed", "1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "South plays ") {
		t.Errorf("the computer should open as South:\n%s", out)
	}
	text, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(text), `[Result "*"]`) {
		t.Errorf("record %q: %v", text, err)
	}
}

func TestPlayFromPosition(t *testing.T) {
	// North is to move in the position: the computer opens, then the input
	// ends and the record keeps the position.
	const pos = "0,0,0,0,2,2/0,0,0,0,0,0/0,0,0,0,0,0/2,2,0,0,0,3 N"
	path := filepath.Join(t.TempDir(), "game.txt")
	code, out, errOut := runDirect(runPlay, "", "tsoro", "size=6", "heads=none", "--position", pos, "--level", "1", "--seed", "2", "--record", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "tsoro size=6 heads=none: you play South") || !strings.Contains(out, "North plays ") {
		t.Errorf("output:\n%s", out)
	}
	text, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(text), `[Position "`+pos+`"]`) {
		t.Errorf("record %q: %v", text, err)
	}
	rec, err := mancala.ParseRecord(string(text))
	if err != nil {
		t.Fatalf("the record does not parse: %v", err)
	}
	if _, err := rec.Replay(); err != nil {
		t.Errorf("the record does not replay: %v", err)
	}
}

func TestPlayUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"tsoro", "--level", "0"}, {"tsoro", "--side", "east"}, {"nogame"},
		{"tsoro", "size=6", "--position", "1,2 S"},
		{"tsoro", "size=6", "heads=none", "--position", "0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/2,2,0,0,0,3 N"}} {
		code, _, errOut := runDirect(runPlay, "", args...)
		if code != exitUsage || !strings.HasPrefix(errOut, "matombo play: ") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}
