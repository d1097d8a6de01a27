package lab

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"matombo/bench"
	"matombo/mancala"
)

func rulesets(t *testing.T, texts ...string) []mancala.Ruleset {
	t.Helper()
	out := make([]mancala.Ruleset, len(texts))
	for i, s := range texts {
		rs, err := mancala.ParseRuleset(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = rs
	}
	return out
}

func mustRun(t *testing.T, cfg Config) *Report {
	t.Helper()
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete {
		t.Fatal("the run did not complete")
	}
	return rep
}

// TestDeterministic runs the same experiment with one and two workers and
// with a different ruleset order: the reports must be equal.
func TestDeterministic(t *testing.T) {
	cfg := Config{Rulesets: rulesets(t, "tsoro size=8 heads=none bonus=0", "nsolo", "misoro-tsoro"), Games: 700, Seed: 7, Workers: 1}
	one := mustRun(t, cfg)
	cfg.Workers = 2
	two := mustRun(t, cfg)
	if !reflect.DeepEqual(one.Rulesets, two.Rulesets) || !reflect.DeepEqual(one.Accs, two.Accs) {
		t.Errorf("1 worker and 2 workers differ:\n%+v\n%+v", one.Rulesets[0], two.Rulesets[0])
	}
	cfg.Rulesets = []mancala.Ruleset{cfg.Rulesets[2], cfg.Rulesets[0]}
	cfg.Workers = 3
	swapped := mustRun(t, cfg)
	if !reflect.DeepEqual(swapped.Rulesets[1], one.Rulesets[0]) {
		t.Error("a ruleset's figures depend on the other rulesets of the run")
	}
	cfg.Seed = 8
	other := mustRun(t, cfg)
	if reflect.DeepEqual(other.Accs[1], one.Accs[0]) {
		t.Error("another seed gave the same games")
	}
}

// TestCountsAddUp checks the identities of every summary and compares the
// totals with an independent replay of the same games.
func TestCountsAddUp(t *testing.T) {
	cfg := Config{Rulesets: rulesets(t, "nsolo", "tsoro size=6 bonus=3", "choro", "tsoro size=8 heads=choose"), Games: 300, Seed: 11}
	rep := mustRun(t, cfg)
	for i, s := range rep.Rulesets {
		a := rep.Accs[i]
		if s.Games != int64(cfg.Games) || s.SouthWins+s.NorthWins+s.Draws != s.Games {
			t.Errorf("%s: %d games, results %d+%d+%d", s.Ruleset, s.Games, s.SouthWins, s.NorthWins, s.Draws)
		}
		if s.NoMoveEnds+s.RepetitionEnd+s.TurnCapEnds != s.Games {
			t.Errorf("%s: endings %d+%d+%d != %d games", s.Ruleset, s.NoMoveEnds, s.RepetitionEnd, s.TurnCapEnds, s.Games)
		}
		if d := a.ByEnd[mancala.NoMoves][mancala.Draw]; d != 0 {
			t.Errorf("%s: %d draws by no legal move", s.Ruleset, d)
		}
		if a.ByEnd[mancala.NotEnded] != [4]int64{} || a.ByEnd[mancala.NoMoves][mancala.NoResult] != 0 {
			t.Errorf("%s: games without an ending or a result: %v", s.Ruleset, a.ByEnd)
		}
		var bars int64
		for _, b := range s.TurnsHist {
			bars += b.Count
		}
		if bars != s.Games {
			t.Errorf("%s: the histogram counts %d games", s.Ruleset, bars)
		}
		if s.TurnsMin > int(s.TurnsMedian) || int(s.TurnsMedian) > s.TurnsMax || s.TurnsLow > s.TurnsMean || s.TurnsMean > s.TurnsHigh {
			t.Errorf("%s: turns min %d median %v max %d mean %v [%v, %v]", s.Ruleset, s.TurnsMin, s.TurnsMedian, s.TurnsMax, s.TurnsMean, s.TurnsLow, s.TurnsHigh)
		}
		if s.DecisionsTurn < 1 || s.LegalDecision < 1 || s.LapsTurn < 1 {
			t.Errorf("%s: decisions/turn %v, legal/decision %v, laps/turn %v: each is at least 1", s.Ruleset, s.DecisionsTurn, s.LegalDecision, s.LapsTurn)
		}
		replay(t, cfg.Rulesets[i], cfg.Seed, cfg.Games, a)
	}
}

// replay plays the games of a run again with a plain loop and checks the
// accumulator's totals.
func replay(t *testing.T, rs mancala.Ruleset, seed uint64, games int, a *Acc) {
	t.Helper()
	s, err := mancala.NewGame(rs)
	if err != nil {
		t.Fatal(err)
	}
	var results [4]int64
	var turns, decisions, legal, captures int64
	for g := range games {
		rng := bench.NewRand(gameSeed(seed, g))
		s.Reset()
		for !s.IsOver() {
			acts := s.Legal(nil)
			decisions++
			legal += int64(len(acts))
			if err := s.Apply(acts[rng.Intn(len(acts))]); err != nil {
				t.Fatal(err)
			}
		}
		results[s.Outcome().Result]++
		turns += int64(s.Turns())
		captures += int64(s.Stats().Captures)
	}
	south, north, draws := a.Results()
	if got := [4]int64{0, south, north, draws}; got != results {
		t.Errorf("%s: results %v, replay %v", rs, got, results)
	}
	if a.TurnsSum != turns || a.Decisions != decisions || a.Legal != legal || a.Captures != captures {
		t.Errorf("%s: turns %d decisions %d legal %d captures %d; replay %d %d %d %d",
			rs, a.TurnsSum, a.Decisions, a.Legal, a.Captures, turns, decisions, legal, captures)
	}
}

// TestLevelPlayers plays a few games between level-1 players: they end,
// they count, and two workers give the same report as one.
func TestLevelPlayers(t *testing.T) {
	cfg := Config{Rulesets: rulesets(t, "tsoro size=6 heads=none bonus=1"), Games: 4, Seed: 3, Player: Player{Level: 1}, Opening: 2, Workers: 1}
	one := mustRun(t, cfg)
	cfg.Workers = 2
	two := mustRun(t, cfg)
	if !reflect.DeepEqual(one.Rulesets, two.Rulesets) {
		t.Errorf("level players: 1 and 2 workers differ:\n%+v\n%+v", one.Rulesets[0], two.Rulesets[0])
	}
	s := one.Rulesets[0]
	if s.Games != 4 || s.SouthWins+s.NorthWins+s.Draws != 4 || s.Player != "level:1" || s.Opening != 2 || s.DistinctGames < 1 || s.DistinctGames > 4 {
		t.Errorf("summary %+v", s)
	}
}

// TestCancel stops a run before it starts: no error, an incomplete report
// whose counts still add up.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(ctx, Config{Rulesets: rulesets(t, "tsoro"), Games: 1_000_000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Complete {
		t.Error("a cancelled run reports itself complete")
	}
	s := rep.Rulesets[0]
	if s.Games >= 1_000_000 || s.SouthWins+s.NorthWins+s.Draws != s.Games {
		t.Errorf("cancelled run: %d games, %d+%d+%d", s.Games, s.SouthWins, s.NorthWins, s.Draws)
	}
	if _, err := json.Marshal(rep.Rulesets); err != nil {
		t.Errorf("a report of few or no games must still be JSON: %v", err)
	}
}

// TestNoAllocations checks that a random game allocates nothing once the
// worker's buffers have grown.
func TestNoAllocations(t *testing.T) {
	cfg := Config{Rulesets: rulesets(t, "tsoro size=8 heads=none bonus=0", "nsolo"), Games: 1, Seed: 5}
	w := newWorker(&cfg)
	ctx := context.Background()
	acc := NewAcc()
	for i, rs := range cfg.Rulesets {
		s, err := mancala.NewGame(rs)
		if err != nil {
			t.Fatal(err)
		}
		for g := range 200 { // grow the buffers
			if _, _, err := w.play(ctx, s, g); err != nil {
				t.Fatal(err)
			}
		}
		g := 0
		allocs := testing.AllocsPerRun(100, func() {
			game, _, _ := w.play(ctx, s, g%200)
			acc.Add(game)
			g++
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per game", cfg.Rulesets[i], allocs)
		}
	}
}

func TestParsePlayer(t *testing.T) {
	for text, want := range map[string]Player{"random": {}, "level:1": {Level: 1}, "level:8": {Level: 8}} {
		p, err := ParsePlayer(text)
		if err != nil || p != want || p.String() != text {
			t.Errorf("ParsePlayer(%q) = %v, %v", text, p, err)
		}
	}
	for _, text := range []string{"", "Random", "level:0", "level:9", "level:", "level:x", "mcts"} {
		if _, err := ParsePlayer(text); err == nil || !strings.HasPrefix(err.Error(), "lab: ") {
			t.Errorf("ParsePlayer(%q): error %v", text, err)
		}
	}
}

func TestValidate(t *testing.T) {
	good := Config{Rulesets: rulesets(t, "nsolo"), Games: 10}
	bad := map[string]func(c *Config){
		"no ruleset":    func(c *Config) { c.Rulesets = nil },
		"no games":      func(c *Config) { c.Games = 0 },
		"too many":      func(c *Config) { c.Games = MaxGames + 1 },
		"workers":       func(c *Config) { c.Workers = -1 },
		"opening":       func(c *Config) { c.Opening = MaxOpening + 1 },
		"level":         func(c *Config) { c.Player.Level = 12 },
		"ruleset value": func(c *Config) { c.Rulesets = []mancala.Ruleset{{Game: mancala.Tsoro, Size: 3}} },
	}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, change := range bad {
		c := good
		change(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: no error", name)
		}
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%s: Run gave no error", name)
		}
	}
}

// TestJSONFields checks the field names of the JSON form.
func TestJSONFields(t *testing.T) {
	rep := mustRun(t, Config{Rulesets: rulesets(t, "choro"), Games: 50, Seed: 2})
	out, err := json.Marshal(rep.Rulesets)
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	if err := json.Unmarshal(out, &list); err != nil || len(list) != 1 {
		t.Fatalf("%v, %d objects", err, len(list))
	}
	for _, key := range []string{"ruleset", "games", "south_wins", "north_wins", "draws", "turns_mean", "turns_sd", "turns_median",
		"turns_histogram", "south_win_rate", "south_win_low", "south_win_high", "decisions_per_turn", "legal_per_decision",
		"laps_per_turn", "captures_mean", "repetition_endings", "turn_cap_endings", "lap_cut_turns", "player", "seed"} {
		if _, ok := list[0][key]; !ok {
			t.Errorf("no field %q in %s", key, out)
		}
	}
	if list[0]["ruleset"] != "choro" || list[0]["games"] != 50.0 {
		t.Errorf("ruleset %v games %v", list[0]["ruleset"], list[0]["games"])
	}
	// Every CSV column is a JSON field of the same name (choro_x: the field
	// x of the choro object).
	choro, _ := list[0]["choro"].(map[string]any)
	for _, col := range CSVHeader() {
		fields, key := list[0], col
		if k, ok := strings.CutPrefix(col, "choro_"); ok {
			fields, key = choro, k
		}
		if _, ok := fields[key]; !ok {
			t.Errorf("CSV column %q is not a JSON field", col)
		}
	}
}

// TestChoroFigures checks the figures of Choro's options: Driberg's reading
// opens simultaneously in every game, with same-step finishes and first
// movers of both sides, and its cw=first and leave=yes rules come into play;
// the DLP's reading has none of them; other games have no Choro figures.
func TestChoroFigures(t *testing.T) {
	const games = 400
	rep := mustRun(t, Config{Rulesets: rulesets(t, "choro", "choro opening=sequential cw=any leave=no", "nsolo"), Games: games, Seed: 3})
	d, dlp := rep.Rulesets[0].Choro, rep.Rulesets[1].Choro
	if d == nil || dlp == nil || rep.Rulesets[2].Choro != nil {
		t.Fatalf("choro figures %v %v %v", d, dlp, rep.Rulesets[2].Choro)
	}
	if d.Opened != games || d.NorthFirst == 0 || d.NorthFirst == games || d.SameStep == 0 || d.SameStep == games {
		t.Errorf("Driberg's opening: %+v", d)
	}
	if d.FirstMoverWins == 0 || d.FirstMoverWinRate < d.FirstMoverWinLow || d.FirstMoverWinRate > d.FirstMoverWinHigh {
		t.Errorf("first mover: %+v", d)
	}
	if d.CWLimitedGames == 0 || d.SwitchGames == 0 || d.OtherHoleGames == 0 || d.OtherHoleGames > d.SwitchGames {
		t.Errorf("cw=first and leave=yes never came into play (or other holes without a switch): %+v", d)
	}
	if dlp.Opened != 0 || dlp.CWLimitedGames != 0 || dlp.SwitchGames != 0 || dlp.OtherHoleGames != 0 {
		t.Errorf("the DLP reading has no simultaneous opening, cw=first or leave: %+v", dlp)
	}
}

// TestCSV checks the header and one line per ruleset.
func TestCSV(t *testing.T) {
	rep := mustRun(t, Config{Rulesets: rulesets(t, "choro", "nsolo size=10"), Games: 40, Seed: 2})
	var b bytes.Buffer
	if err := rep.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	lines, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := "ruleset,player,seed,opening_turns,games,south_wins,north_wins,draws,south_win_rate"
	if got := strings.Join(lines[0], ","); !strings.HasPrefix(got, head) {
		t.Errorf("header %q, want it to start %q", got, head)
	}
	if len(lines) != 3 || lines[1][0] != "choro" || lines[2][0] != "nsolo size=10" || lines[2][4] != "40" {
		t.Errorf("lines %q", lines)
	}
	for _, l := range lines {
		if len(l) != len(lines[0]) {
			t.Errorf("line of %d fields, header of %d", len(l), len(lines[0]))
		}
	}
}

// TestText checks the text report: the same run prints the same text,
// and it names every ruleset and figure.
func TestText(t *testing.T) {
	cfg := Config{Rulesets: rulesets(t, "musoro-tsoro", "nsolo"), Games: 60, Seed: 4}
	var a, b bytes.Buffer
	if err := mustRun(t, cfg).WriteText(&a); err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 1
	if err := mustRun(t, cfg).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("text differs between runs:\n%s\n%s", a.String(), b.String())
	}
	for _, want := range []string{"60 games per ruleset, players random, seed 4", "musoro-tsoro: 60 games", "nsolo: 60 games",
		"South wins", "ended by repetition", "ended by the turn cap", "lap-limit cuts", "game length (turns):"} {
		if !strings.Contains(a.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, a.String())
		}
	}
}

func TestThousands(t *testing.T) {
	for v, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := thousands(v); got != want {
			t.Errorf("thousands(%d) = %q, want %q", v, got, want)
		}
	}
}
