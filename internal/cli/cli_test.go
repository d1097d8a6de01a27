package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata with the current output")

// run runs the command line args with stdin and returns the exit code and
// what was written to stdout and stderr.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// goldenCases are command lines whose whole output (exit code, stdout,
// stderr) is compared with testdata/<name>.golden. The exit code is also
// checked here, so that -update cannot change it unnoticed.
var goldenCases = []struct {
	name  string
	code  int
	stdin string // a file in testdata to give as standard input
	args  []string
}{
	{"help", 0, "", []string{"help"}},
	{"help-perft", 0, "", []string{"help", "perft"}},
	{"help-replay", 0, "", []string{"help", "replay"}},
	{"help-bench", 0, "", []string{"help", "bench"}},
	{"help-rulesets", 0, "", []string{"help", "rulesets"}},
	{"help-unknown", 2, "", []string{"help", "pefrt"}},
	{"unknown-command", 2, "", []string{"pefrt", "tsoro", "3"}},
	{"unknown-command-far", 2, "", []string{"tournament"}},
	{"perft-tsoro-8-4", 0, "", []string{"perft", "tsoro", "size=8", "4"}},
	{"perft-tsoro-8-4-divide", 0, "", []string{"perft", "tsoro size=8", "4", "--divide"}},
	{"perft-position", 0, "", []string{"perft", "--position", "2*,2*,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,2*,2* N", "tsoro", "size=6", "3"}},
	{"perft-bad-ruleset", 2, "", []string{"perft", "tsoro", "siz=8", "4"}},
	{"perft-bad-game", 2, "", []string{"perft", "tsorro", "4"}},
	{"perft-bad-option-value", 2, "", []string{"perft", "tsoro size=5", "4"}},
	{"perft-bad-depth", 2, "", []string{"perft", "tsoro", "size=8", "four"}},
	{"perft-depth-zero", 2, "", []string{"perft", "nsolo", "0"}},
	{"perft-missing-depth", 2, "", []string{"perft", "tsoro", "size=8"}},
	{"perft-two-rulesets", 2, "", []string{"perft", "tsoro", "nsolo", "2"}},
	{"perft-bad-position", 2, "", []string{"perft", "nsolo", "2", "--position", "1,2,3 S"}},
	{"perft-bad-flag", 2, "", []string{"perft", "nsolo", "2", "--dvide"}},
	{"replay-tsoro-finished", 0, "", []string{"replay", "testdata/replay-tsoro-finished.txt"}},
	{"replay-nsolo-finished", 0, "", []string{"replay", "testdata/replay-nsolo-finished.txt"}},
	{"replay-choro-in-play", 0, "", []string{"replay", "testdata/replay-choro-in-play.txt"}},
	{"replay-mid-turn-stdin", 0, "replay-mid-turn.txt", []string{"replay", "-"}},
	{"replay-bad-illegal", 1, "", []string{"replay", "testdata/replay-bad-illegal.txt"}},
	{"replay-bad-surplus", 1, "", []string{"replay", "testdata/replay-bad-surplus.txt"}},
	{"replay-bad-unfinished", 1, "", []string{"replay", "testdata/replay-bad-unfinished.txt"}},
	{"replay-bad-result", 1, "", []string{"replay", "testdata/replay-bad-result.txt"}},
	{"replay-bad-header", 1, "", []string{"replay", "testdata/replay-bad-header.txt"}},
	{"replay-bad-action-stdin", 1, "replay-bad-action.txt", []string{"replay", "-"}},
	{"replay-missing-file", 1, "", []string{"replay", "testdata/no-such-record.txt"}},
	{"replay-no-argument", 2, "", []string{"replay"}},
	{"bench-bad-seconds", 2, "", []string{"bench", "--seconds", "-1"}},
	{"bench-bad-ruleset", 2, "", []string{"bench", "choro", "size=9"}},
	{"bench-empty-ruleset", 2, "", []string{"bench", " "}},
	{"perft-empty-ruleset", 2, "", []string{"perft", "", "3"}},
	{"version-surplus", 2, "", []string{"version", "now"}},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			stdin := ""
			if tc.stdin != "" {
				b, err := os.ReadFile(filepath.Join("testdata", tc.stdin))
				if err != nil {
					t.Fatal(err)
				}
				stdin = string(b)
			}
			code, stdout, stderr := run(t, stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if code != exitOK && (stdout != "" || stderr == "") {
				t.Errorf("a failure must write only to stderr; stdout %q, stderr %q", stdout, stderr)
			}
			got := fmt.Sprintf("$ matombo %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s", strings.Join(tc.args, " "), code, stdout, stderr)
			checkGolden(t, tc.name, strings.ReplaceAll(got, commandList(), commandListMark))
		})
	}
}

// commandListMark stands for the list of commands in the golden files, so
// that adding a command to the table changes no golden file. That every
// command is listed is checked by TestHelpForEveryCommand.
const commandListMark = "{{the command list}}\n"

// commandList returns the list of commands as help prints it.
func commandList() string {
	var b strings.Builder
	writeCommandList(&b)
	return b.String()
}

// checkGolden compares got with testdata/<name>.golden, or writes it there
// with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update if the change is right):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestPerftCounts checks perft's output against docs/PERFT.md, so the
// golden files cannot hide a wrong count.
func TestPerftCounts(t *testing.T) {
	cases := []struct {
		ruleset []string
		want    []uint64
	}{
		{[]string{"tsoro", "size=8"}, []uint64{8, 40, 196, 962}},
		{[]string{"tsoro size=8 heads=none bonus=3"}, []uint64{8, 64, 376, 2209}},
		{[]string{"misoro-tsoro"}, []uint64{8, 64, 448, 3136}},
		{[]string{"musoro-tsoro"}, []uint64{8, 52, 272, 1480, 7274}},
		{[]string{"nsolo"}, []uint64{15, 217, 2517}},
		{[]string{"nsolo", "outer=yes", "extra=1"}, []uint64{15, 209, 2169}},
		{[]string{"choro"}, []uint64{8, 64, 504, 4327}},
		{[]string{"choro", "opening=sequential", "cw=any", "leave=no"}, []uint64{8, 37, 345, 2774}},
	}
	for _, tc := range cases {
		args := append(append([]string{"perft"}, tc.ruleset...), strconv.Itoa(len(tc.want)))
		code, stdout, stderr := run(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		var want strings.Builder
		for d, n := range tc.want {
			fmt.Fprintf(&want, "%d %d\n", d+1, n)
		}
		if stdout != want.String() {
			t.Errorf("%q:\n%s want\n%s", args, stdout, want.String())
		}
	}
}

// TestPerftDivideSums checks that a divide lists every action once, sorted,
// and that its lines add up to the total and to perft at that depth.
func TestPerftDivideSums(t *testing.T) {
	for _, rs := range []string{"tsoro size=8", "nsolo", "choro", "misoro-tsoro"} {
		_, plain, _ := run(t, "", "perft", rs, "3")
		_, div, _ := run(t, "", "perft", "--divide", rs, "3")
		lines := strings.Split(strings.TrimSuffix(div, "\n"), "\n")
		var sum uint64
		prev := ""
		for _, l := range lines[:len(lines)-1] {
			action, count, _ := strings.Cut(l, " ")
			n, err := strconv.ParseUint(count, 10, 64)
			if err != nil || action <= prev {
				t.Fatalf("%s: bad or unsorted divide line %q after %q", rs, l, prev)
			}
			prev = action
			sum += n
		}
		total := lines[len(lines)-1]
		if total != fmt.Sprintf("total %d", sum) || !strings.HasSuffix(plain, fmt.Sprintf("\n3 %d\n", sum)) {
			t.Errorf("%s: divide sums to %d, says %q; perft says %q", rs, sum, total, plain)
		}
	}
}

// TestRulesetSpellings checks that a ruleset may be one argument or
// several words, and that flags may come anywhere.
func TestRulesetSpellings(t *testing.T) {
	spellings := [][]string{
		{"perft", "tsoro size=8 bonus=3", "3"},
		{"perft", "tsoro", "size=8", "bonus=3", "3"},
		{"perft", "tsoro size=8", "bonus=3", "3"},
		{"perft", "tsoro", "bonus=3 size=8", "3"},
		{"perft", "--divide=false", "tsoro", "size=8", "bonus=3", "3"},
		{"perft", "tsoro", "size=8", "--divide=false", "bonus=3", "3"},
		{"perft", "--", "tsoro", "size=8", "bonus=3", "3"},
	}
	_, want, _ := run(t, "", spellings[0]...)
	for _, args := range spellings {
		code, got, stderr := run(t, "", args...)
		if code != 0 || got != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", args, code, got, stderr, want)
		}
	}
}

// TestHelpForEveryCommand checks that every command in the table explains
// itself the same way through help, -h and --help, with examples.
func TestHelpForEveryCommand(t *testing.T) {
	_, overview, _ := run(t, "", "help")
	for _, c := range commands() {
		if c.summary == "" || !strings.HasPrefix(c.usage, "usage: matombo "+c.name) || !strings.Contains(c.usage, "example") {
			t.Errorf("%s: the usage must start with its synopsis and give examples:\n%s", c.name, c.usage)
		}
		if !strings.Contains(overview, "  "+c.name+" ") {
			t.Errorf("help does not list %s", c.name)
		}
		for _, args := range [][]string{{"help", c.name}, {c.name, "-h"}, {c.name, "--help"}} {
			code, stdout, stderr := run(t, "", args...)
			if code != 0 || stdout != c.usage || stderr != "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
			}
		}
	}
}

// TestBenchJSON checks the shape of bench --json, not the speed.
func TestBenchJSON(t *testing.T) {
	code, stdout, stderr := run(t, "", "bench", "--json", "--seconds", "0.2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatalf("not a JSON list: %v\n%s", err, stdout)
	}
	wantRulesets := []string{"tsoro size=8 heads=none bonus=0", "tsoro size=8 heads=none bonus=3",
		"misoro-tsoro", "musoro-tsoro", "choro opening=sequential cw=any leave=no", "nsolo", "tsoro", "choro"}
	if len(rows) != len(wantRulesets) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(wantRulesets), stdout)
	}
	for i, row := range rows {
		if row["ruleset"] != wantRulesets[i] {
			t.Errorf("row %d: ruleset %v, want %q", i, row["ruleset"], wantRulesets[i])
		}
		for _, field := range []string{"playouts_per_sec", "playouts_per_cpu_sec", "drops_per_sec", "playouts", "seconds", "gomaxprocs"} {
			if v, ok := row[field].(float64); !ok || v <= 0 {
				t.Errorf("row %d (%v): %s = %v, want a positive number", i, row["ruleset"], field, row[field])
			}
		}
		if v, ok := row["allocs_per_playout"].(float64); !ok || v < 0 {
			t.Errorf("row %d: allocs_per_playout = %v", i, row["allocs_per_playout"])
		}
		_, hasLudii := row["ludii_playouts_per_sec"]
		_, hasRatio := row["ratio_to_ludii"]
		if wantLudii := i < 5; hasLudii != wantLudii || hasRatio != wantLudii {
			t.Errorf("row %d (%v): Ludii fields present %v/%v, want %v", i, row["ruleset"], hasLudii, hasRatio, wantLudii)
		}
	}
}

// TestBenchText checks the table's shape for a ruleset given as words.
func TestBenchText(t *testing.T) {
	code, stdout, stderr := run(t, "", "bench", "--seconds", "0.05", "--seed", "9", "choro", "opening=sequential", "cw=any", "leave=no", "tsoro", "size=12")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if len(lines) < 6 || !strings.HasPrefix(lines[2], "ruleset") ||
		!strings.HasPrefix(lines[3], "choro opening=sequential cw=any leave=no ") || !strings.HasSuffix(lines[3], "x") ||
		!strings.HasPrefix(lines[4], "tsoro size=12 ") || !strings.Contains(lines[0], "seed 9") {
		t.Errorf("unexpected table:\n%s", stdout)
	}
}

func TestThousands(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 999.4: "999", 999.6: "1,000", 1234567: "1,234,567", 100000: "100,000"} {
		if got := thousands(v); got != want {
			t.Errorf("thousands(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"perft", "perft", 0}, {"pefrt", "perft", 2}, {"bech", "bench", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestNoArgumentsServes checks that a bare matombo serves the web app (see
// noArguments), and so does matombo with serve's flags and no command: each
// starts on a free port, says where, and stops when its context ends.
func TestNoArgumentsServes(t *testing.T) {
	for _, args := range [][]string{nil, {"--addr", "127.0.0.1:0", "--db", "flags.db"}} {
		t.Chdir(t.TempDir()) // the default database file goes here
		t.Setenv("MATOMBO_ADDR", "127.0.0.1:0")
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut syncBuffer
		done := make(chan int, 1)
		go func() { done <- Run(ctx, args, strings.NewReader(""), &out, &errOut) }()
		for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out.String(), "serving on http://127.0.0.1:"); {
			if time.Now().After(deadline) {
				cancel()
				t.Fatalf("matombo %q did not start serving; stdout %q, stderr %q", args, out.String(), errOut.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("matombo %q: exit %d; stderr %q", args, code, errOut.String())
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("matombo %q did not stop when its context ended", args)
		}
		if args != nil {
			if _, err := os.Stat("flags.db"); err != nil {
				t.Errorf("--db flags.db without a command: %v", err)
			}
		}
	}
}
