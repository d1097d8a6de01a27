package arena

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"matombo/mancala"
	"matombo/search"
)

// TestMain lets the test binary act as an engine (for engine:<command>
// players) when ARENA_TEST_ENGINE is set.
func TestMain(m *testing.M) {
	if os.Getenv("ARENA_TEST_ENGINE") == "1" {
		fakeEngine(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine speaks the part of the engine protocol the arena uses, playing
// random actions.
func fakeEngine(in io.Reader, out io.Writer) {
	var s *mancala.State
	sc := bufio.NewScanner(in)
	p := search.NewRandom(1)
	for sc.Scan() {
		cmd, arg, _ := strings.Cut(sc.Text(), " ")
		ans := "ok"
		var err error
		switch cmd {
		case "quit":
			return
		case "new":
			var rs mancala.Ruleset
			if rs, err = mancala.ParseRuleset(arg); err == nil {
				s, err = mancala.NewGame(rs)
			}
		case "play":
			var a mancala.Action
			if a, err = mancala.ParseAction(arg); err == nil {
				err = s.Apply(a)
			}
		case "go":
			var a mancala.Action
			a, err = p.Choose(context.Background(), s, search.Limits{})
			ans = "bestmove " + a.String()
		default:
			err = fmt.Errorf("unknown command")
		}
		if err != nil {
			ans = "error " + err.Error()
		}
		fmt.Fprintln(out, ans)
	}
}

func mustSpec(t *testing.T, text string) Spec {
	t.Helper()
	sp, err := ParseSpec(text)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestParseSpec(t *testing.T) {
	for _, good := range []string{"random", "uct", "mcts", "alphabeta", "level:1", "level:8", "engine:matombo engine"} {
		if _, err := ParseSpec(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
	for _, bad := range []string{"", "level:0", "level:9", "level:x", "engine:", "engine:  ", "randomx", "uct:3", "gnu"} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("%q should be refused", bad)
		}
	}
	sp := mustSpec(t, "engine:prog -a b")
	if len(sp.Command) != 3 || sp.Command[0] != "prog" {
		t.Errorf("command %q", sp.Command)
	}
}

func TestMatchSavesRecordsAndCounts(t *testing.T) {
	dir := t.TempDir()
	var progress bytes.Buffer
	cfg := Config{
		Ruleset: mancala.MustParseRuleset("tsoro size=8"), A: mustSpec(t, "level:1"), B: mustSpec(t, "random"),
		Games: 6, Seed: 3, OpeningTurns: 2, RecordDir: dir, Progress: &progress,
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 6 || res.AWins+res.BWins+res.Draws != 6 {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(progress.String(), "6/6") {
		t.Errorf("progress bar %q", progress.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "game-*.txt"))
	if len(files) != 6 {
		t.Fatalf("%d records saved, want 6", len(files))
	}
	var openings [2]string
	aWins := 0
	for i, f := range files {
		text, _ := os.ReadFile(f)
		rec, err := mancala.ParseRecord(string(text))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		end, err := rec.Replay()
		if err != nil || !end.IsOver() || end.Outcome().Result != rec.Result {
			t.Fatalf("%s does not replay to its result: %v", f, err)
		}
		south, _ := rec.Tag("South")
		if want := [2]string{"level:1", "random"}[i%2]; south != want {
			t.Errorf("game %d: South is %q, want %q (seats swap each game)", i+1, south, want)
		}
		if w, ok := rec.Result.Winner(); ok && (w == mancala.South) == (i%2 == 0) {
			aWins++
		}
		if i < 2 {
			openings[i] = rec.Turns[0][0].String() + rec.Turns[1][0].String()
		}
	}
	if openings[0] != openings[1] {
		t.Errorf("a pair should share its opening: %q %q", openings[0], openings[1])
	}
	np := 0
	for i, k := range res.Pairs {
		np += k
		if i%2 == 1 && k != 0 {
			t.Errorf("no draws were played, yet pairs %v", res.Pairs)
		}
	}
	if np != 3 || res.Pairs[4]*2+res.Pairs[2] != res.AWins {
		t.Errorf("pairs %v do not add up to 3 pairs and %d wins", res.Pairs, res.AWins)
	}
	if aWins != res.AWins {
		t.Errorf("records show %d wins for A, result %d", aWins, res.AWins)
	}
	again, err := Run(context.Background(), Config{Ruleset: cfg.Ruleset, A: cfg.A, B: cfg.B, Games: 6, Seed: 3, OpeningTurns: 2})
	if err != nil || again.AWins != res.AWins || again.Draws != res.Draws {
		t.Errorf("the same seed should replay the same match: %+v vs %+v (%v)", again, res, err)
	}
}

func TestSPRTStopsEarly(t *testing.T) {
	cfg := Config{
		Ruleset: mancala.MustParseRuleset("nsolo"), A: mustSpec(t, "level:4"), B: mustSpec(t, "random"),
		Games: 200, Seed: 1, OpeningTurns: 2, SPRT: &SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sprt stopped after %d games", res.Games)
	if res.Games >= 200 || res.SPRT != "H1 accepted" {
		t.Errorf("level 4 against random should stop early with H1: %+v", res)
	}
}

func TestEnginePlayer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ARENA_TEST_ENGINE", "1")
	cfg := Config{
		Ruleset: mancala.MustParseRuleset("misoro-tsoro"), A: mustSpec(t, "engine:"+exe), B: mustSpec(t, "random"),
		Games: 2, Seed: 5, OpeningTurns: 1, MoveTime: 20 * time.Millisecond,
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 2 {
		t.Errorf("result %+v", res)
	}
	bad := cfg
	bad.A = mustSpec(t, "engine:/nonexistent/engine")
	if _, err := Run(context.Background(), bad); err == nil {
		t.Error("a missing engine should be an error")
	}
}

func TestConfigValidate(t *testing.T) {
	good := Config{Ruleset: mancala.Default(mancala.Nsolo), A: mustSpec(t, "random"), B: mustSpec(t, "random"), Games: 2}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*Config){
		func(c *Config) { c.Games = 0 },
		func(c *Config) { c.MoveTime = -1 },
		func(c *Config) { c.B = Spec{} },
		func(c *Config) { c.SPRT = &SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05} },
	} {
		c := good
		bad(&c)
		if c.Validate() == nil {
			t.Errorf("%+v should be refused", c)
		}
	}
}
