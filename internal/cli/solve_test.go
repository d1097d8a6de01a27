package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dlpChoro is Choro in the DLP's reading, the game whose first-player win
// the solver proves in seconds.
const dlpChoro = "choro opening=sequential cw=any leave=no"

// solveJSON runs matombo solve with --json and decodes its report.
func solveJSON(t *testing.T, args ...string) solveReport {
	t.Helper()
	code, out, errOut := run(t, "", append([]string{"solve", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("solve %v: exit %d, %s", args, code, errOut)
	}
	var rep solveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("solve %v: %v in %q", args, err, out)
	}
	return rep
}

func TestSolveProvesAWin(t *testing.T) {
	// After 1. a6 d2 of Choro in the DLP's reading, South has a win that
	// the solver proves at a horizon of 9 decisions.
	rep := solveJSON(t, dlpChoro, "--moves", "a6 d2")
	if rep.Value != "win" || rep.Winner != "South" || rep.ToMove != "South" || rep.Depth != 9 {
		t.Fatalf("report %+v, want a win for South at horizon 9", rep)
	}
	proved := false
	for _, a := range rep.Actions {
		if a.Action == rep.Best {
			proved = a.Lower == 1 && a.Upper == 1 && a.Value == "win"
		}
	}
	if !proved {
		t.Errorf("the best action %s is not listed as a proven win: %+v", rep.Best, rep.Actions)
	}
	// The same with commas, and from the position those moves reach.
	if again := solveJSON(t, dlpChoro, "--moves", "a6,d2"); again.Best != rep.Best || again.Position != rep.Position {
		t.Errorf("--moves with commas: %+v, want %+v", again, rep)
	}
	if from := solveJSON(t, dlpChoro, "--position", rep.Position); from.Value != "win" || from.Best != rep.Best {
		t.Errorf("--position %s: %+v", rep.Position, from)
	}
}

func TestSolveText(t *testing.T) {
	code, out, errOut := run(t, "", "solve", "tsoro size=6 heads=none bonus=0", "--position",
		"0,0,0,0,0,0/0,0,3,0,0,0/0,0,0,0,0,0/2,0,0,0,5,0 S")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"to move: South", "value: South wins, by a5", "horizon: 1 decisions", "  a5     win", "  a1     not proven"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// North to move in the mirror position: every action loses.
	code, out, _ = run(t, "", "solve", "tsoro size=6 heads=none bonus=0", "--position",
		"0,0,0,0,0,0/0,0,3,0,0,0/0,0,0,0,0,0/2,0,0,0,5,0 S", "--moves", "a5")
	if code != exitOK || !strings.Contains(out, "the game is over: S (") {
		t.Errorf("a finished game: exit %d\n%s", code, out)
	}
}

func TestSolveLimitsStopIt(t *testing.T) {
	rep := solveJSON(t, "tsoro", "--nodes", "2000")
	if rep.Value != "unknown" || rep.Winner != "" || rep.Nodes < 2000 || len(rep.Actions) == 0 {
		t.Errorf("a 2,000-node search of tsoro's start should prove nothing: %+v", rep)
	}
	for _, a := range rep.Actions {
		if a.Lower > a.Upper || a.Lower < -1 || a.Upper > 1 {
			t.Errorf("bounds of %s out of order: %+v", a.Action, a)
		}
	}
}

func TestSolveFromRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.txt")
	rec := "[Ruleset \"" + dlpChoro + "\"]\n[Result \"*\"]\n\n1. a6 d2 *\n"
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := solveJSON(t, "--record", path)
	want := solveJSON(t, dlpChoro, "--moves", "a6 d2")
	if rep.Position != want.Position || rep.Value != want.Value || rep.Best != want.Best {
		t.Errorf("from the record: %+v, want %+v", rep, want)
	}
}

func TestSolveBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"solve"}, exitUsage, "needs a ruleset"},
		{[]string{"solve", "chess"}, exitUsage, "chess"},
		{[]string{"solve", "choro", "tsoro"}, exitUsage, "takes one ruleset"},
		{[]string{"solve", dlpChoro, "--moves", "a6 d1"}, exitUsage, "illegal action d1"},
		{[]string{"solve", "choro", "--moves", "zz"}, exitUsage, "--moves"},
		{[]string{"solve", "choro", "--position", "1,2 S"}, exitUsage, "position"},
		{[]string{"solve", "choro", "--position", "x", "--record", "y"}, exitUsage, "not both"},
		{[]string{"solve", "choro", "--record", "y"}, exitUsage, "drop \"choro\""},
		{[]string{"solve", "--record", filepath.Join(t.TempDir(), "missing.txt")}, exitFailure, "missing.txt"},
		{[]string{"solve", "choro", "--time", "-1"}, exitUsage, "bad --time"},
		{[]string{"solve", "choro", "--nodes", "-5"}, exitUsage, "bad --nodes"},
		{[]string{"solve", "choro", "--depth", "999"}, exitUsage, "bad --depth"},
		{[]string{"solve", "choro", "--table", "40"}, exitUsage, "bad --table"},
	} {
		code, out, errOut := run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
}

// TestSolveSimultaneousOpening solves Driberg's Choro, whose start is the
// simultaneous opening, within a small node limit: the report has the
// matrix game's shape, mixes that sum to 1 and value bounds in order.
func TestSolveSimultaneousOpening(t *testing.T) {
	rep := solveJSON(t, "choro", "--nodes", "300000", "--table", "16")
	sim := rep.Simultaneous
	if sim == nil {
		t.Fatalf("no simultaneous object: %+v", rep)
	}
	if len(sim.Joint) != 64 || len(rep.Actions) != 8 || rep.Nodes < 300000 {
		t.Fatalf("%d joint openings, %d actions, %d nodes; want 64, 8 and the limit", len(sim.Joint), len(rep.Actions), rep.Nodes)
	}
	proven, pairs := 0, map[string]bool{}
	for _, j := range sim.Joint {
		if !strings.HasPrefix(j.South, "a") || !strings.HasPrefix(j.North, "d") || pairs[j.South+j.North] {
			t.Errorf("joint opening %+v", j)
		}
		pairs[j.South+j.North] = true
		switch j.Value {
		case "win", "loss", "draw":
			proven++
		case "unknown":
		default:
			t.Errorf("joint opening %+v: value %q", j, j.Value)
		}
	}
	if proven != sim.Proven || proven == 0 || proven == 64 {
		t.Errorf("%d entries proven, the report says %d; a 300,000-node run proves some, not all", proven, sim.Proven)
	}
	for name, mix := range map[string]map[string]float64{"south": sim.SouthMix, "north": sim.NorthMix} {
		sum := 0.0
		for _, p := range mix {
			if p < 0 || p > 1 {
				t.Errorf("%s mix %v", name, mix)
			}
			sum += p
		}
		if len(mix) != 8 || sum < 1-1e-6 || sum > 1+1e-6 {
			t.Errorf("%s mix %v: %d holes summing to %v, want 8 summing to 1", name, mix, len(mix), sum)
		}
	}
	if !(0 <= sim.ValueLow && sim.ValueLow <= sim.ValueHigh && sim.ValueHigh <= 1) {
		t.Errorf("value bounds %v..%v", sim.ValueLow, sim.ValueHigh)
	}
	if rep.Value != "unknown" && sim.ValueLow != sim.ValueHigh {
		t.Errorf("value %q with bounds %v..%v", rep.Value, sim.ValueLow, sim.ValueHigh)
	}
	code, out, errOut := run(t, "", "solve", "choro", "--nodes", "20000", "--table", "16", "--progress")
	if code != exitOK || !strings.Contains(out, "value for South of each joint opening") ||
		!strings.Contains(out, "  a1   ") || !strings.Contains(out, "proven: ") || !strings.Contains(errOut, "horizon 1: ") {
		t.Errorf("text: exit %d\n%s\nstderr %q", code, out, errOut)
	}
}
