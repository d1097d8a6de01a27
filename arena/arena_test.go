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

// smallBalance is a cheaper balance test for the unit tests.
var smallBalance = Balance{Nodes: 5_000, Margin: 1_500, Tries: 50}

func TestBalancedOpeningsAreDeterministicAndPassTheirTest(t *testing.T) {
	ctx := context.Background()
	rs := mancala.MustParseRuleset("choro")
	cfg := Config{Ruleset: rs, A: mustSpec(t, "random"), B: mustSpec(t, "random"), Games: 2, Seed: 11, OpeningTurns: 2, Balance: &smallBalance}
	tried := 0
	book, book2 := newBalancedBook(cfg), newBalancedBook(cfg)
	seen := map[string]bool{}
	for pair := 0; pair < 4; pair++ {
		first, err := book.next(ctx, pair)
		if err != nil {
			t.Fatal(err)
		}
		if seen[actionsKey(first)] {
			t.Errorf("pair %d plays %q again", pair, actionsKey(first))
		}
		seen[actionsKey(first)] = true
		again, err := book2.next(ctx, pair)
		if err != nil || actionsKey(first) != actionsKey(again) {
			t.Fatalf("pair %d: %q then %q (%v): the filter should be deterministic", pair, actionsKey(first), actionsKey(again), err)
		}
		score, err := smallBalance.Judge(ctx, rs, first)
		if err != nil || abs(score) > smallBalance.Margin {
			t.Errorf("pair %d: kept opening %q scores %d (%v), margin %d", pair, actionsKey(first), score, err, smallBalance.Margin)
		}
		if s2, _ := smallBalance.Judge(ctx, rs, first); s2 != score {
			t.Errorf("pair %d: the judge gave %d then %d", pair, score, s2)
		}
		plain, _ := randomOpening(rs, 2, 11, openingStream(pair, 0))
		if actionsKey(plain) != actionsKey(first) {
			tried++
		}
	}
	if tried == 0 {
		t.Error("on Choro the first random opening of some pair should have been refused")
	}
}

func TestBalancedPairsShareTheirOpening(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{
		Ruleset: mancala.MustParseRuleset("choro"), A: mustSpec(t, "level:1"), B: mustSpec(t, "random"),
		Games: 4, Seed: 11, OpeningTurns: 2, RecordDir: dir, Balance: &smallBalance,
	}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for g := 1; g <= 4; g++ {
		text, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("game-%04d.txt", g)))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := mancala.ParseRecord(string(text))
		if err != nil {
			t.Fatal(err)
		}
		var acts []mancala.Action
		for _, turn := range rec.Turns[:2] {
			acts = append(acts, turn...)
		}
		keys = append(keys, actionsKey(acts))
	}
	book := newBalancedBook(cfg)
	for pair := 0; pair < 2; pair++ {
		want, err := book.next(context.Background(), pair)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys[2*pair : 2*pair+2] {
			if k != actionsKey(want) {
				t.Errorf("pair %d played %q, the balanced opening is %q", pair, k, actionsKey(want))
			}
		}
	}
	// The openings do not depend on the players.
	other := cfg
	other.A, other.B, other.RecordDir = mustSpec(t, "random"), mustSpec(t, "level:2"), ""
	bookA, bookB := newBalancedBook(cfg), newBalancedBook(other)
	for pair := 0; pair < 2; pair++ {
		a, _ := bookA.next(context.Background(), pair)
		b, _ := bookB.next(context.Background(), pair)
		if actionsKey(a) != actionsKey(b) {
			t.Errorf("pair %d: the opening changed with the players", pair)
		}
	}
}

func TestImpossibleBalanceIsAnError(t *testing.T) {
	for _, c := range []struct {
		turns int
		want  string
	}{{0, "the start position is not within 0.00 stones"}, {2, "none of 5 random openings of 2 turns"}} {
		cfg := Config{
			Ruleset: mancala.MustParseRuleset("choro"), A: mustSpec(t, "random"), B: mustSpec(t, "random"),
			Games: 2, Seed: 1, OpeningTurns: c.turns, Balance: &Balance{Nodes: 2_000, Margin: 0, Tries: 5},
		}
		start := time.Now()
		_, err := Run(context.Background(), cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "pair 1") {
			t.Errorf("turns %d: error %v, want one saying %q", c.turns, err, c.want)
		}
		if time.Since(start) > 20*time.Second {
			t.Errorf("turns %d: giving up took %v", c.turns, time.Since(start))
		}
	}
	bad := Config{Ruleset: mancala.Default(mancala.Nsolo), A: mustSpec(t, "random"), B: mustSpec(t, "random"), Games: 2,
		Balance: &Balance{Nodes: 0, Margin: 100, Tries: 1}}
	if bad.Validate() == nil {
		t.Error("a balance test of 0 nodes should be refused")
	}
}
