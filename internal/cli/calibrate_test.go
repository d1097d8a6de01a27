package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"matombo/search"
)

// TestCalibrateFiles runs a small calibration with --out and --plots: the
// file reads back as a calibration of the preset asked for, with its
// command, and the diagrams are written.
func TestCalibrateFiles(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cal.json")
	code, stdout, stderr := run(t, "", "calibrate", "nsolo", "--games", "10", "--level", "2", "--play", "2", "--every", "2", "--out", out, "--plots", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cal, err := search.ParseCalibration(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(cal.Presets) != 1 || cal.Presets[0].Ruleset != "nsolo" || cal.Presets[0].Games != 10 || cal.Level != 2 || cal.Play != 2 || cal.Every != 2 ||
		cal.Command != "matombo calibrate --games 10 --level 2 --play 2 --every 2 --seed 1 --opening 2" {
		t.Errorf("calibration %+v", cal)
	}
	if !strings.Contains(stdout, "nsolo              10") || !strings.Contains(stderr, "10 games in") {
		t.Errorf("summary %q, stderr %q", stdout, stderr)
	}
	for _, name := range []string{"reliability.svg", "reliability.png"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() < 1000 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCalibrateErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"calibrate-not-a-preset", []string{"calibrate", "tsoro size=6"}},
		{"calibrate-bad-games", []string{"calibrate", "--games", "3"}},
		{"calibrate-bad-every", []string{"calibrate", "--every", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tc.args...)
			if code != exitUsage || stdout != "" {
				t.Errorf("exit %d, stdout %q", code, stdout)
			}
			checkGolden(t, tc.name, "$ matombo "+strings.Join(tc.args, " ")+"\n-- stderr --\n"+stderr)
		})
	}
}
