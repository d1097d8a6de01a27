package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabGolden compares small lab runs with golden files. Only standard
// output is compared for runs that succeed: standard error carries the
// progress bar and the time taken.
func TestLabGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"lab-small", []string{"lab", "tsoro", "size=8", "nsolo", "--games", "200", "--seed", "3"}},
		{"lab-json", []string{"lab", "--json", "choro", "--games", "50", "--seed", "2", "--workers", "1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stderr, "100%") || !strings.Contains(stderr, "games in") {
				t.Errorf("no progress bar on stderr: %q", stderr)
			}
			checkGolden(t, tc.name, "$ matombo "+strings.Join(tc.args, " ")+"\n"+stdout)
		})
	}
}

// TestLabErrors checks the usage errors, whose whole output is golden.
func TestLabErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"lab-no-ruleset", []string{"lab", "--games", "10"}},
		{"lab-bad-player", []string{"lab", "tsoro", "--player", "mcts"}},
		{"lab-bad-level", []string{"lab", "tsoro", "--player", "level:0"}},
		{"lab-bad-games", []string{"lab", "tsoro", "--games", "0"}},
		{"lab-bad-ruleset", []string{"lab", "tsoro", "size=5"}},
		{"lab-option-first", []string{"lab", "size=8", "tsoro"}},
		{"lab-bad-opening", []string{"lab", "tsoro", "--opening", "99"}},
		{"help-lab", []string{"help", "lab"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tc.args...)
			want := exitUsage
			if tc.name == "help-lab" {
				want = exitOK
			}
			if code != want {
				t.Errorf("exit %d, want %d", code, want)
			}
			got := "$ matombo " + strings.Join(tc.args, " ") + "\n-- stdout --\n" + stdout + "-- stderr --\n" + stderr
			checkGolden(t, tc.name, got)
		})
	}
}

// TestLabFiles checks --csv, --plots and --json together: the CSV has a line
// per ruleset, the plots are decodable files, the JSON has the run's figures.
func TestLabFiles(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "out.csv")
	plots := filepath.Join(dir, "plots")
	code, stdout, stderr := run(t, "", "lab", "musoro-tsoro", "nsolo size=12", "--games", "120", "--json", "--csv", csvPath, "--plots", plots)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("JSON: %v, %d rows", err, len(rows))
	}
	for _, r := range rows {
		s, n, d := r["south_wins"].(float64), r["north_wins"].(float64), r["draws"].(float64)
		if r["games"] != 120.0 || s+n+d != 120 {
			t.Errorf("row %v", r)
		}
	}
	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ruleset,player,seed,") || !strings.HasPrefix(lines[2], "nsolo size=12,random,1,0,120,") {
		t.Errorf("CSV:\n%s", b)
	}
	for _, name := range []string{"game-length", "first-player"} {
		f, err := os.Open(filepath.Join(plots, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s.png: %v", name, err)
		}
		svg, err := os.ReadFile(filepath.Join(plots, name+".svg"))
		if err != nil || !strings.HasPrefix(string(svg), "<svg") {
			t.Errorf("%s.svg: %v", name, err)
		}
	}
}

// TestLabInterrupted checks that an interrupted run still prints what it
// finished, says it stopped early and fails.
func TestLabInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := Run(ctx, []string{"lab", "tsoro", "--games", "1000000"}, strings.NewReader(""), &out, &errOut)
	if code != exitFailure || !strings.Contains(out.String(), "stopped early") || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out.String(), errOut.String())
	}
}
