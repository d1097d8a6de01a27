package cli

import (
	"strings"
	"testing"
)

// TestEngine drives the engine protocol through the command line.
func TestEngine(t *testing.T) {
	script := "legal\nnew tsoro size=8\nlegal\nplay a5\nlegal\nplay stop\nshow\nresult\nplay zz\ngo playouts 20\nquit\nlegal\n"
	code, stdout, stderr := run(t, script, "engine", "--seed", "3")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	want := []string{
		"error*",
		"ok",
		"legal a1 a2 a3 a4 a5 a6 a7 a8",
		"ok",
		"legal a7 stop",
		"ok",
		"position 2*,2*,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,0,3,3*,2* N",
		"result none",
		"error*",
		"bestmove d*",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d answer lines, want %d (nothing after quit):\n%s", len(lines), len(want), stdout)
	}
	for i, w := range want {
		if p, ok := strings.CutSuffix(w, "*"); ok && strings.HasPrefix(lines[i], p) || lines[i] == w {
			continue
		}
		t.Errorf("answer %d = %q, want %q", i+1, lines[i], w)
	}
	if code, _, stderr := run(t, "", "engine", "--movetime", "0"); code != exitUsage || !strings.Contains(stderr, "movetime") {
		t.Errorf("--movetime 0: exit %d, stderr %q", code, stderr)
	}
}

// TestEngineSimultaneousOpening checks go for North in the simultaneous
// Choro opening through the command line: the same answer, for a seed,
// whatever South played.
func TestEngineSimultaneousOpening(t *testing.T) {
	var first string
	for _, south := range []string{"a2", "a7"} {
		code, stdout, stderr := run(t, "new choro\nplay "+south+"\ngo depth 1\n", "engine", "--seed", "5")
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if code != 0 || stderr != "" || len(lines) != 3 || !strings.HasPrefix(lines[2], "bestmove d") {
			t.Fatalf("after %s: exit %d, stdout %q, stderr %q", south, code, stdout, stderr)
		}
		if first == "" {
			first = lines[2]
		} else if lines[2] != first {
			t.Errorf("go answered %q after South's %s, %q after a2", lines[2], south, first)
		}
	}
}
