package mancala_test

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"matombo/mancala"
)

type perftCase struct {
	ruleset string
	counts  []uint64
}

func readPerftTable(t *testing.T) []perftCase {
	t.Helper()
	f, err := os.Open("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rs, counts, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("perft.txt: bad line %q", line)
		}
		c := perftCase{ruleset: rs}
		for _, f := range strings.Fields(counts) {
			n, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				t.Fatalf("perft.txt: bad count %q", f)
			}
			c.counts = append(c.counts, n)
		}
		cases = append(cases, c)
	}
	return cases
}

// TestPerft checks the engine's perft counts for every preset against
// testdata/perft.txt; a failure prints the per-action breakdown.
func TestPerft(t *testing.T) {
	for _, c := range readPerftTable(t) {
		t.Run(c.ruleset, func(t *testing.T) {
			s, err := mancala.NewGame(mancala.MustParseRuleset(c.ruleset))
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range c.counts {
				depth := i + 1
				if testing.Short() && want > 200000 {
					break
				}
				if got := mancala.Perft(s, depth); got != want {
					var b strings.Builder
					for _, d := range mancala.Divide(s, depth) {
						fmt.Fprintf(&b, "\n  %s %d", d.Action, d.Count)
					}
					t.Fatalf("perft(%d) = %d, want %d; divide:%s", depth, got, want, b.String())
				}
			}
		})
	}
}

// TestPerftTableMatchesPERFTmd checks that testdata/perft.txt holds exactly
// the counts of docs/PERFT.md, the independent implementation's table.
func TestPerftTableMatchesPERFTmd(t *testing.T) {
	data, err := os.ReadFile("../docs/PERFT.md")
	if err != nil {
		t.Fatalf("docs/PERFT.md is the reference table and must be in the repository: %v", err)
	}
	want := map[string][]uint64{}
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.Contains(cells[1], "`") {
			continue
		}
		rs := strings.Trim(strings.TrimSpace(cells[1]), "`")
		var counts []uint64
		for _, cell := range cells[2:] {
			cell = strings.ReplaceAll(strings.TrimSpace(cell), ",", "")
			if cell == "" {
				continue
			}
			n, err := strconv.ParseUint(cell, 10, 64)
			if err != nil {
				t.Fatalf("docs/PERFT.md: bad count %q", cell)
			}
			counts = append(counts, n)
		}
		want[rs] = counts
	}
	table := readPerftTable(t)
	if len(want) != len(table) {
		t.Fatalf("docs/PERFT.md has %d rulesets, testdata/perft.txt %d", len(want), len(table))
	}
	for _, c := range table {
		if fmt.Sprint(want[c.ruleset]) != fmt.Sprint(c.counts) {
			t.Errorf("%s: testdata %v, PERFT.md %v", c.ruleset, c.counts, want[c.ruleset])
		}
	}
}

// TestDivideSumsToPerft checks Divide against Perft.
func TestDivideSumsToPerft(t *testing.T) {
	for _, rs := range mancala.Presets() {
		s, _ := mancala.NewGame(rs)
		var sum uint64
		for _, d := range mancala.Divide(s, 3) {
			sum += d.Count
		}
		if want := mancala.Perft(s, 3); sum != want {
			t.Errorf("%s: divide sums to %d, perft(3) = %d", rs, sum, want)
		}
	}
}

// TestReferencePerftChoro checks the reference implementation's perft
// counts for the five Choro rows of docs/PERFT.md (via testdata/perft.txt,
// which TestPerftTableMatchesPERFTmd ties to it) to depth 5 (4 with -short):
// the reference is written from RULES.md §3.4 alone, so this checks the
// reading of the rules, not the engine.
func TestReferencePerftChoro(t *testing.T) {
	depth := 5
	if testing.Short() {
		depth = 4
	}
	found := 0
	for _, c := range readPerftTable(t) {
		rs := mancala.MustParseRuleset(c.ruleset)
		if rs.Game != mancala.Choro {
			continue
		}
		found++
		t.Run(c.ruleset, func(t *testing.T) {
			g := newRef(rs)
			for d := 1; d <= depth && d <= len(c.counts); d++ {
				if got := refPerft(g, d); got != c.counts[d-1] {
					t.Fatalf("reference perft(%d) = %d, want %d", d, got, c.counts[d-1])
				}
			}
		})
	}
	if found != 5 {
		t.Errorf("testdata/perft.txt has %d Choro rows, want the 5 of docs/PERFT.md", found)
	}
}
