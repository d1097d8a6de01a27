package protocol

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"matombo/mancala"
	"matombo/search"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const tsoro8Start = "2*,2*,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2*,2* S"

// session feeds lines to a fresh engine and checks each answer: a want
// ending in "…" is a prefix, else the whole answer.
func session(t *testing.T, e *Engine, steps [][2]string) {
	t.Helper()
	for _, st := range steps {
		ans, quit := e.Handle(st[0])
		want, prefix := strings.CutSuffix(st[1], "…")
		if quit {
			ans = "(quit)"
		}
		if prefix && !strings.HasPrefix(ans, want) || !prefix && ans != want {
			t.Errorf("%q answered %q, want %q", st[0], ans, st[1])
		}
	}
}

func TestBeforeNew(t *testing.T) {
	e := New(Config{})
	for _, cmd := range []string{"legal", "show", "result", "go", "go movetime 10", "play a1", "position " + tsoro8Start} {
		ans, quit := e.Handle(cmd)
		if quit || ans != "error no game yet; start one with new <ruleset>, such as new tsoro size=8" {
			t.Errorf("%q before new answered %q, %v", cmd, ans, quit)
		}
	}
	if e.State() != nil {
		t.Error("a game exists before new")
	}
	if ans, quit := e.Handle("quit"); !quit || ans != "" {
		t.Errorf("quit before new: %q, %v", ans, quit)
	}
}

func TestSession(t *testing.T) {
	e := New(Config{Seed: 1})
	start := mustGame(t, "tsoro size=8")
	session(t, e, [][2]string{
		{"", "error empty line; " + commandList},
		{" \t ", "error empty line; " + commandList},
		{"foo bar", "error unknown command foo; " + commandList},
		{"NEW tsoro", "error unknown command NEW; …"},
		{"new", "error new needs a ruleset, such as new tsoro size=8; games are tsoro, misoro-tsoro, musoro-tsoro, nsolo and choro"},
		{"new oware", `error unknown game "oware"; games are tsoro, misoro-tsoro, musoro-tsoro, nsolo, choro`},
		{"new tsoro size=5", "error tsoro: size=\"5\" is not allowed; size takes a whole number from 6 to 21"},
		{"new tsoro  size=8\r", "ok"},
		{"show", "position " + tsoro8Start},
		{"result", "result none"},
		{"legal", "legal a1 a2 a3 a4 a5 a6 a7 a8"},
		{"legal now", `error surplus arguments now after legal; legal takes no arguments`},
		{"show board", "error surplus arguments board after show; show takes no arguments"},
		{"result please", "error surplus arguments please after result; result takes no arguments"},
		{"play", "error play takes one action, such as play a3, play a3cw, play stop or play xd5"},
		{"play a1 a2", "error play takes one action…"},
		{"play A1", `error "A1" is not an action; …`},
		{"play c1", "error illegal action c1: you may only sow your own holes; legal actions are a1 a2 a3 a4 a5 a6 a7 a8"},
		{"play a9", "error illegal action a9: the board has columns 1 to 8; …"},
		{"play stop", "error illegal action stop: a turn starts by lifting one of your holes; …"},
		{"show", "position " + tsoro8Start},
		{"play a1", "ok"},
		{"new tsoro size=99", "error tsoro: size=\"99\" is not allowed; size takes a whole number from 6 to 21"},
		{"play d4", "ok"},
		{"legal", "legal d2 stop"},
		{"go movetime 0", "error movetime 0 is out of range; movetime takes a whole number from 1 to 3600000"},
		{"go movetime 3600001", "error movetime 3600001 is out of range; …"},
		{"go playouts 0", "error playouts 0 is out of range; playouts takes a whole number from 1 to 1000000000"},
		{"go playouts 1000000001", "error playouts 1000000001 is out of range; …"},
		{"go depth 101", "error depth 101 is out of range; depth takes a whole number from 1 to 100"},
		{"go depth 007", "error depth 007 is not a whole number; …"},
		{"go depth +7", "error depth +7 is not a whole number; …"},
		{"go movetime 1e3", "error movetime 1e3 is not a whole number; movetime takes a whole number from 1 to 3600000"},
		{"go depth 99999999999999999999", "error depth 99999999999999999999 is not a whole number; …"},
		{"go movetime", "error movetime needs a whole number from 1 to 3600000"},
		{"go movetime 10 movetime 20", "error limit movetime given twice"},
		{"go nodes 5", "error unknown limit nodes; limits are movetime <ms>, playouts <n> and depth <n>"},
		{"quit now", "error surplus arguments now after quit; quit takes no arguments"},
	})
	for _, cmd := range []string{"go", "go movetime 50", "go playouts 10", "go depth 3", "go depth 2 movetime 100 playouts 7"} {
		ans, _ := e.Handle(cmd)
		if ans != "bestmove d2" && ans != "bestmove stop" {
			t.Errorf("%q answered %q, want bestmove d2 or bestmove stop", cmd, ans)
		}
	}
	// go does not play, and refused commands left the game as it was.
	want := start.Clone()
	for _, a := range []string{"a1", "d4"} {
		act, _ := mancala.ParseAction(a)
		if err := want.Apply(act); err != nil {
			t.Fatal(err)
		}
	}
	session(t, e, [][2]string{
		{"show", "position " + want.Position()},
		{"position", "error position needs a position, such as " + want.Position()},
		{"position 2,2 S", "error bad position \"2,2 S\": found 1 rows; …"},
		{"show", "position " + want.Position()},
		{"play stop", "ok"},
		{"position  " + strings.Replace(tsoro8Start, " S", "\tN", 1), "ok"},
		{"show", "position " + strings.Replace(tsoro8Start, " S", " N", 1)},
		// A finished game: South has no stones.
		{"position 2*,2*,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0*,0* S", "ok"},
		{"result", "result N"},
		{"legal", "legal"},
		{"play a1", "error the game is over (N); no action can be played"},
		{"go", "error the game is over (N); there is no move to search"},
		{"go movetime 10", "error the game is over (N); …"},
		{"new choro", "ok"},
		{"show", "position 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S opening"},
		{"quit", "(quit)"},
	})
}

func mustGame(t *testing.T, rs string) *mancala.State {
	t.Helper()
	s, err := mancala.NewGame(mancala.MustParseRuleset(rs))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLegalSorted checks legal against the core for positions of random
// games: the same actions, sorted by byte order (a10 before a2, stop after
// holes, x… last).
func TestLegalSorted(t *testing.T) {
	for _, rs := range []string{"tsoro size=12", "nsolo size=12", "choro", "misoro-tsoro"} {
		e := New(Config{Seed: 3, DefaultMoveTime: time.Second})
		if ans, _ := e.Handle("new " + rs); ans != "ok" {
			t.Fatalf("new %s: %s", rs, ans)
		}
		for ply := 0; ply < 300; ply++ {
			ans, _ := e.Handle("legal")
			got := strings.Fields(ans)[1:]
			core := e.State().Legal(nil)
			if !slices.IsSorted(got) || len(got) != len(core) {
				t.Fatalf("%s: %q is not the %d legal actions sorted", rs, ans, len(core))
			}
			for _, a := range core {
				if !slices.Contains(got, a.String()) {
					t.Fatalf("%s: %q lacks %s", rs, ans, a)
				}
			}
			if len(got) == 0 {
				if ans != "legal" || !e.State().IsOver() {
					t.Fatalf("%s: %q with the game not over", rs, ans)
				}
				break
			}
			best, _ := e.Handle("go")
			move, ok := strings.CutPrefix(best, "bestmove ")
			if !ok || !slices.Contains(got, move) {
				t.Fatalf("%s: go answered %q; legal: %q", rs, best, ans)
			}
			if ans, _ := e.Handle("play " + move); ans != "ok" {
				t.Fatalf("%s: play %s: %s", rs, move, ans)
			}
		}
	}
}

func TestGreedyPrefersMostStones(t *testing.T) {
	g := search.NewGreedy(5, 0)
	for _, rs := range []string{"tsoro size=8", "nsolo", "choro"} {
		s := mustGame(t, rs)
		for ply := 0; ply < 200 && !s.IsOver(); ply++ {
			a, err := g.Choose(context.Background(), s.Clone(), search.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			me := s.ToMove()
			value := func(a mancala.Action) int {
				c := s.Clone()
				if err := c.Apply(a); err != nil {
					t.Fatalf("%s: %v", rs, err)
				}
				if w, ok := c.Outcome().Result.Winner(); ok {
					if w == me {
						return 1 << 20
					}
					return -1 << 20
				}
				if c.IsOver() {
					return 0
				}
				return c.Stones(me) - c.Stones(me.Other())
			}
			chosen := value(a)
			for _, b := range s.Legal(nil) {
				if s.InSimultaneousOpening() { // chosen without South's choice: TestGoInSimultaneousOpening
					break
				}
				if v := value(b); v > chosen {
					t.Fatalf("%s at %s: greedy chose %s (%d) over %s (%d)", rs, s.Position(), a, chosen, b, v)
				}
			}
			if err := s.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Ties are broken by the seed: the same seed gives the same choices, and
	// the start of tsoro (all first moves equal in stones) sees several.
	seen := map[mancala.Action]bool{}
	s := mustGame(t, "tsoro size=8")
	for seed := range uint64(20) {
		a1, _ := search.NewGreedy(seed, 0).Choose(context.Background(), s, search.Limits{})
		a2, _ := search.NewGreedy(seed, 0).Choose(context.Background(), s, search.Limits{})
		if a1 != a2 {
			t.Errorf("seed %d chose %s then %s", seed, a1, a2)
		}
		seen[a1] = true
	}
	if len(seen) < 3 {
		t.Errorf("20 seeds chose only %v at the start", seen)
	}
}

// chooserFunc adapts a function to search.Player.
type chooserFunc func(ctx context.Context, s *mancala.State, lim search.Limits) (mancala.Action, error)

func (f chooserFunc) Choose(ctx context.Context, s *mancala.State, lim search.Limits) (mancala.Action, error) {
	return f(ctx, s, lim)
}

func TestGoChooser(t *testing.T) {
	var gotLim search.Limits
	var gotDeadline time.Duration
	spy := chooserFunc(func(ctx context.Context, s *mancala.State, lim search.Limits) (mancala.Action, error) {
		gotLim = lim
		d, _ := ctx.Deadline()
		gotDeadline = time.Until(d)
		s.Reset() // the chooser plays on a copy
		return s.Legal(nil)[0], nil
	})
	e := New(Config{Player: spy, DefaultMoveTime: 300 * time.Millisecond})
	e.Handle("new nsolo")
	e.Handle("play b4")
	before := e.State().Position()
	tests := []struct {
		cmd     string
		lim     search.Limits
		maxWait time.Duration
	}{
		{"go", search.Limits{MoveTime: 300 * time.Millisecond}, 300 * time.Millisecond},
		{"go movetime 1500", search.Limits{MoveTime: 1500 * time.Millisecond}, 1500 * time.Millisecond},
		{"go depth 4", search.Limits{Depth: 4}, MaxMoveTime * time.Millisecond},
		{"go playouts 99 depth 2", search.Limits{Playouts: 99, Depth: 2}, MaxMoveTime * time.Millisecond},
	}
	for _, tc := range tests {
		ans, _ := e.Handle(tc.cmd)
		if !strings.HasPrefix(ans, "bestmove ") && !strings.HasPrefix(ans, "error the move chooser proposed") {
			t.Errorf("%s: %q", tc.cmd, ans)
		}
		if gotLim != tc.lim || gotDeadline > tc.maxWait || gotDeadline < tc.maxWait/2 {
			t.Errorf("%s: chooser got %+v with %v left, want %+v with %v", tc.cmd, gotLim, gotDeadline, tc.lim, tc.maxWait)
		}
	}
	if e.State().Position() != before {
		t.Errorf("go changed the game: %s, was %s", e.State().Position(), before)
	}

	fail := func(c search.Player, want string) {
		t.Helper()
		e := New(Config{Player: c, Grace: 50 * time.Millisecond})
		e.Handle("new tsoro size=8")
		startAt := time.Now()
		ans, _ := e.Handle("go movetime 100")
		if ans != want {
			t.Errorf("go answered %q, want %q", ans, want)
		}
		if d := time.Since(startAt); d > 2*time.Second {
			t.Errorf("go took %v", d)
		}
		if e.State().Position() != tsoro8Start {
			t.Errorf("failed go changed the game to %s", e.State().Position())
		}
	}
	fail(chooserFunc(func(context.Context, *mancala.State, search.Limits) (mancala.Action, error) {
		return mancala.Stop, nil
	}), "error the move chooser proposed stop, which is not legal here")
	fail(chooserFunc(func(context.Context, *mancala.State, search.Limits) (mancala.Action, error) {
		return 0, errors.New("out of ideas")
	}), "error no move: out of ideas")
	fail(chooserFunc(func(context.Context, *mancala.State, search.Limits) (mancala.Action, error) {
		panic("boom")
	}), "error no move: the move chooser failed: boom")
	block := make(chan struct{})
	defer close(block)
	fail(chooserFunc(func(context.Context, *mancala.State, search.Limits) (mancala.Action, error) {
		<-block // ignores its deadline
		return 0, nil
	}), "error the move chooser did not answer within 100 ms")
}

func TestRun(t *testing.T) {
	in := "new tsoro size=8\r\nlegal\r\n\r\nplay a1\nresult\nquit\nlegal\n"
	var out bytes.Buffer
	if err := New(Config{}).Run(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := "ok\nlegal a1 a2 a3 a4 a5 a6 a7 a8\nerror empty line; " + commandList + "\nok\nresult none\n"
	if out.String() != want {
		t.Errorf("Run wrote\n%s\nwant\n%s", out.String(), want)
	}

	// End of input without quit, the last line without a newline.
	out.Reset()
	if err := New(Config{}).Run(context.Background(), strings.NewReader("new nsolo\nresult"), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "ok\nresult none\n" {
		t.Errorf("Run at EOF wrote %q", out.String())
	}

	// A line too long is answered once and skipped; the next is in sync.
	out.Reset()
	long := "play " + strings.Repeat("a1", 50_000)
	in = "new nsolo\n" + long + "\r\nresult\n" + strings.Repeat("x", 200) + "\nshow"
	e := New(Config{MaxLine: 100})
	if err := e.Run(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 5 || lines[1] != "error line too long; lines are at most 100 bytes" || lines[2] != "result none" ||
		lines[3] != lines[1] || !strings.HasPrefix(lines[4], "position ") {
		t.Errorf("long lines: Run wrote %q", lines)
	}
	if ans, _ := e.Handle(strings.Repeat("y", 101)); !strings.HasPrefix(ans, "error line of 101 bytes is too long") {
		t.Errorf("Handle of a long line answered %q", ans)
	}

	// A line of exactly the limit is read.
	out.Reset()
	exact := "new tsoro" + strings.Repeat(" ", 91)
	if err := New(Config{MaxLine: 100}).Run(context.Background(), strings.NewReader(exact+"\r\n"), &out); err != nil || out.String() != "ok\n" {
		t.Errorf("line of the limit: %q, %v", out.String(), err)
	}

	// A cancelled context ends Run.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := New(Config{}).Run(ctx, strings.NewReader("new nsolo\n"), &out); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context returned %v", err)
	}

	// A reader error is reported.
	readErr := errors.New("disk on fire")
	if err := New(Config{}).Run(context.Background(), errReader{readErr}, &out); !errors.Is(err, readErr) {
		t.Errorf("Run with a failing reader returned %v", err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestGolden runs each testdata/*.in script through Run and compares the
// transcript (each command, then its answer) with the .golden file. Refresh
// with go test ./protocol -run TestGolden -update.
func TestGolden(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("testdata", "*.in"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts in testdata: %v", err)
	}
	for _, script := range scripts {
		name := strings.TrimSuffix(filepath.Base(script), ".in")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := New(Config{Seed: 1}).Run(context.Background(), bytes.NewReader(in), &out); err != nil {
				t.Fatal(err)
			}
			got := transcript(t, string(in), out.String())
			golden := strings.TrimSuffix(script, ".in") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("transcript of %s differs from %s (run with -update to accept):\n%s", script, golden, got)
			}
		})
	}
}

// transcript interleaves the commands of in with the answers of out: "> cmd"
// then the answer, "(quit)" at quit, and checks that there is exactly one
// answer per command before quit.
func transcript(t *testing.T, in, out string) string {
	t.Helper()
	answers := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var b strings.Builder
	k := 0
	for _, cmd := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
		fmt.Fprintf(&b, "> %s\n", cmd)
		if f := strings.Fields(cmd); len(f) == 1 && f[0] == "quit" {
			b.WriteString("(quit)\n")
			break
		}
		if k >= len(answers) {
			t.Fatalf("no answer to %q", cmd)
		}
		b.WriteString(answers[k] + "\n")
		k++
	}
	if k != len(answers) {
		t.Fatalf("%d answers to %d commands", len(answers), k)
	}
	return b.String()
}

// TestGoOverrunStoppedFirst: a go whose chooser overruns its deadline
// answers error, and the next go starts its search only once the overrun
// one has returned: two searches never run at once.
func TestGoOverrunStoppedFirst(t *testing.T) {
	var running, most, calls atomic.Int32
	release := make(chan struct{})
	var first atomic.Bool
	first.Store(true)
	c := chooserFunc(func(ctx context.Context, s *mancala.State, lim search.Limits) (mancala.Action, error) {
		calls.Add(1)
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		if first.CompareAndSwap(true, false) {
			<-release // ignores its deadline and its cancellation
		}
		return s.Legal(nil)[0], nil
	})
	e := New(Config{Player: c, Grace: 300 * time.Millisecond})
	e.Handle("new tsoro size=8")
	if ans, _ := e.Handle("go movetime 100"); ans != "error the move chooser did not answer within 100 ms" {
		t.Fatalf("the overrun go: %q", ans)
	}
	// The overrun search still runs: the next go starts nothing.
	if ans, _ := e.Handle("go movetime 100"); !strings.Contains(ans, "previous search overran") || calls.Load() != 1 {
		t.Fatalf("go while the overrun search runs: %q, %d chooser calls", ans, calls.Load())
	}
	// It ends during the next go's wait: that go goes on.
	time.AfterFunc(100*time.Millisecond, func() { close(release) })
	if ans, _ := e.Handle("go movetime 100"); !strings.HasPrefix(ans, "bestmove ") {
		t.Fatalf("go after the overrun search ended: %q", ans)
	}
	if ans, _ := e.Handle("go movetime 100"); !strings.HasPrefix(ans, "bestmove ") {
		t.Fatalf("a later go: %q", ans)
	}
	if most.Load() != 1 || calls.Load() != 3 {
		t.Errorf("%d searches at once at most, %d calls; want 1 and 3", most.Load(), calls.Load())
	}
}

// TestGoInSimultaneousOpening checks go in the simultaneous Choro opening
// (RULES.md §6): for North it chooses as if South's choice were unknown, so
// the same seed answers the same whatever South played, and the answer is
// reproducible.
func TestGoInSimultaneousOpening(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		var first string
		for _, south := range []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"} {
			e := New(Config{Seed: seed})
			session(t, e, [][2]string{{"new choro", "ok"}, {"play " + south, "ok"}})
			ans, _ := e.Handle("go")
			move, ok := strings.CutPrefix(ans, "bestmove d")
			if !ok || len(move) != 1 {
				t.Fatalf("seed %d, go after %s: %q, want one of North's outer holes", seed, south, ans)
			}
			if first == "" {
				first = ans
			} else if ans != first {
				t.Errorf("seed %d: go answered %q after South's %s, %q after a1", seed, ans, south, first)
			}
			if show, _ := e.Handle("show"); strings.Contains(show, south) || !strings.HasSuffix(show, " N opening") {
				t.Errorf("show between the choices: %q", show)
			}
		}
		// South's own go, at the start, is a legal outer hole and
		// reproducible.
		a, _ := New(Config{Seed: seed}).Handle("new choro")
		e1, e2 := New(Config{Seed: seed}), New(Config{Seed: seed})
		e1.Handle("new choro")
		e2.Handle("new choro")
		g1, _ := e1.Handle("go")
		g2, _ := e2.Handle("go")
		if a != "ok" || g1 != g2 || !strings.HasPrefix(g1, "bestmove a") {
			t.Errorf("seed %d, South's go: %q then %q", seed, g1, g2)
		}
	}
}
