package durability

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/store/postgres"
	"matombo/internal/store/postgres/pgtest"
	"matombo/internal/store/sqlite"
	"matombo/mancala"
)

// Parameters of a run: rounds of play, each ended by kill -9.
const (
	rounds  = 6
	players = 6                      // concurrent games
	minPlay = 150 * time.Millisecond // after the first acknowledgements
	maxPlay = 700 * time.Millisecond
	// progressWait bounds the wait for a round's first acknowledgements.
	progressWait = 30 * time.Second
	rulesetS     = "tsoro size=6"
)

// buildBinary builds cmd/matombo into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "matombo")
	// go test puts its own toolchain's bin first in the PATH of tests.
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build the binary: %v", err)
	}
	cmd := exec.Command(goTool, "build", "-o", bin, "matombo/cmd/matombo")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// server is one run of `matombo serve` as a child process.
type server struct {
	cmd  *exec.Cmd
	url  string
	logs *bytes.Buffer
	errw *syncWriter // writes logs: its lock guards them
	done chan struct{}
}

// logText returns what the process wrote on standard error so far.
func (s *server) logText() string {
	s.errw.mu.Lock()
	defer s.errw.mu.Unlock()
	return s.logs.String()
}

// start runs `matombo serve --addr 127.0.0.1:0 --db db` (with args) and
// waits until it prints its address.
func start(t *testing.T, bin, db string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, logs: &bytes.Buffer{}, done: make(chan struct{})}
	s.errw = &syncWriter{w: s.logs}
	cmd.Stderr = s.errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.kill) // a failed test leaves no process behind
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "matombo: serving on "); ok {
				urls <- u
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	go func() {
		cmd.Wait()
		close(s.done)
	}()
	select {
	case s.url = <-urls:
		return s
	case <-s.done:
		t.Fatalf("matombo serve exited at start: %s", s.logs)
	case <-time.After(20 * time.Second):
		s.kill()
		t.Fatalf("matombo serve did not start in 20 s: %s", s.logs)
	}
	return nil
}

// kill sends SIGKILL and waits for the process to end; it may be called
// again.
func (s *server) kill() {
	s.cmd.Process.Kill() // an error only says the process is gone already
	<-s.done
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// played is a game the test plays: its seats and the actions the server
// acknowledged (acked[i] is the action stored at ply i).
type played struct {
	id     string
	tokens map[string]string
	acked  []string
	over   bool
}

// view is the part of a GameView the test reads.
type view struct {
	Status string   `json:"status"`
	ToMove string   `json:"to_move"`
	Ply    int      `json:"ply"`
	Legal  []string `json:"legal"`
}

var client = &http.Client{Timeout: 10 * time.Second}

// call sends a request and decodes a 2xx JSON answer into out; status is
// the HTTP status (0 when the request failed).
func call(method, url, token string, body any, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Seat "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, bytes.TrimSpace(data))
	}
	if out == nil {
		return resp.StatusCode, nil
	}
	if s, ok := out.(*string); ok {
		*s = string(data)
		return resp.StatusCode, nil
	}
	return resp.StatusCode, json.Unmarshal(data, out)
}

// play plays random legal actions in g on the server at base until a
// request fails (the server was killed) or the game ends, recording each
// acknowledged action. A request that fails without an answer may or may
// not have been applied: it is not acknowledged, and the next round reads
// the game afresh.
func play(base string, g *played, rng *rand.Rand, acks *atomic.Int64) error {
	var v view
	if status, err := call("GET", base+"/api/games/"+g.id, "", nil, &v); err != nil {
		if status == 0 {
			return nil // no answer: the server is gone
		}
		return err
	}
	for v.Status == "playing" && len(v.Legal) > 0 {
		if v.Ply < len(g.acked) {
			return fmt.Errorf("game %s is at ply %d but %d actions were acknowledged", g.id, v.Ply, len(g.acked))
		}
		// Actions applied but not acknowledged before a kill are known
		// from the record check; here only acknowledgements count.
		g.acked = g.acked[:min(len(g.acked), v.Ply)]
		for len(g.acked) < v.Ply {
			g.acked = append(g.acked, "") // stored before a kill, never acknowledged
		}
		a := v.Legal[rng.IntN(len(v.Legal))]
		var res struct {
			Game view `json:"game"`
		}
		status, err := call("POST", base+"/api/games/"+g.id+"/actions", g.tokens[v.ToMove], map[string]any{"action": a, "ply": v.Ply}, &res)
		if err != nil {
			if status != 0 {
				return fmt.Errorf("action %s at ply %d refused: %w", a, v.Ply, err)
			}
			return nil // no answer: the server is gone
		}
		g.acked = append(g.acked, a)
		acks.Add(1)
		v = res.Game
	}
	g.over = true
	return nil
}

// checkRecords checks through the restarted server that every acknowledged
// action of every game is stored at its ply and that each game's record
// replays legally.
func checkRecords(t *testing.T, base string, games []*played) {
	t.Helper()
	for _, g := range games {
		var text string
		if _, err := call("GET", base+"/api/games/"+g.id+"/record", "", nil, &text); err != nil {
			t.Fatalf("game %s: %v", g.id, err)
		}
		rec, err := mancala.ParseRecord(text)
		if err != nil {
			t.Fatalf("game %s: record does not parse: %v\n%s", g.id, err, text)
		}
		if _, err := rec.Replay(); err != nil {
			t.Fatalf("game %s: record does not replay: %v\n%s", g.id, err, text)
		}
		var stored []string
		for _, turn := range rec.Turns {
			for _, a := range turn {
				stored = append(stored, a.String())
			}
		}
		checkAcked(t, g, stored)
	}
}

// checkAcked checks that every acknowledged action of g is in stored at
// its ply.
func checkAcked(t *testing.T, g *played, stored []string) {
	t.Helper()
	if len(stored) < len(g.acked) {
		t.Fatalf("game %s: %d actions stored, %d acknowledged: acknowledged actions were lost", g.id, len(stored), len(g.acked))
	}
	for i, a := range g.acked {
		if a != "" && stored[i] != a {
			t.Fatalf("game %s: ply %d stored %s, acknowledged %s", g.id, i, stored[i], a)
		}
	}
}

// checkStore opens the database directly and checks that every stored game
// replays legally action by action, with each action's side the side to
// move, and holds the acknowledged actions.
func checkStore(t *testing.T, s app.Store, games []*played) {
	t.Helper()
	ctx := context.Background()
	list, err := s.ListGames(ctx, app.ListFilter{Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) < len(games) {
		t.Fatalf("the store lists %d games, the test created %d", len(list), len(games))
	}
	byID := map[string]*played{}
	for _, g := range games {
		byID[g.id] = g
	}
	for _, summary := range list {
		g, err := s.Game(ctx, summary.ID)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := mancala.ParseRuleset(g.Ruleset)
		if err != nil {
			t.Fatalf("game %s: stored ruleset: %v", g.ID, err)
		}
		st, err := mancala.NewGame(rs)
		if err != nil {
			t.Fatal(err)
		}
		var stored []string
		for i, m := range g.Actions {
			a, err := mancala.ParseAction(m.Action)
			if err != nil || m.Ply != i || m.Side != st.ToMove() {
				t.Fatalf("game %s: stored action %+v at index %d (to move %v): %v", g.ID, m, i, st.ToMove(), err)
			}
			if err := st.Apply(a); err != nil {
				t.Fatalf("game %s: stored action %s at ply %d is illegal: %v", g.ID, m.Action, i, err)
			}
			stored = append(stored, m.Action)
		}
		if st.IsOver() != g.Over() || (g.Over() && st.Outcome().Result.String() != g.Result) {
			t.Fatalf("game %s: stored result %s (%s) but the replay ends over=%v %v", g.ID, g.Result, g.Reason, st.IsOver(), st.Outcome())
		}
		if st.Turns() != g.Turns {
			t.Fatalf("game %s: stored %d turns, the replay has %d", g.ID, g.Turns, st.Turns())
		}
		if p := byID[g.ID]; p != nil {
			checkAcked(t, p, stored)
		}
	}
}

// run plays games on the real binary, killing it with SIGKILL at random
// moments and restarting it, and checks after every restart that no
// acknowledged action was lost and that every game replays legally; then
// checks the database directly with openStore.
func run(t *testing.T, bin, db string, openStore func() (app.Store, error)) {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	var games []*played
	acked := 0
	for round := range rounds {
		srv := start(t, bin, db)
		checkRecords(t, srv.url, games)
		// Replace finished games, keep the others going across the kill.
		for len(activeGames(games)) < players {
			var c app.Created
			if _, err := call("POST", srv.url+"/api/games", "", map[string]string{"ruleset": rulesetS, "opponent": "local"}, &c); err != nil {
				srv.kill()
				t.Fatalf("round %d: create: %v\n%s", round, err, srv.logs)
			}
			games = append(games, &played{id: c.ID, tokens: c.Tokens})
		}
		var wg sync.WaitGroup
		var acks atomic.Int64
		errs := make(chan error, players)
		for i, g := range activeGames(games) {
			prng := rand.New(rand.NewPCG(rng.Uint64(), uint64(i)))
			wg.Go(func() {
				if err := play(srv.url, g, prng, &acks); err != nil {
					errs <- err
				}
			})
		}
		// Play goes on until the server has acknowledged some actions (on a
		// busy machine that takes longer), then for a random while more.
		for deadline := time.Now().Add(progressWait); acks.Load() < players; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				srv.kill()
				wg.Wait()
				t.Fatalf("round %d: only %d actions acknowledged in %v\n%s", round, acks.Load(), progressWait, srv.logs)
			}
		}
		time.Sleep(minPlay + time.Duration(rng.Int64N(int64(maxPlay-minPlay))))
		srv.kill() // SIGKILL at a random moment of play
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v\n%s", round, err, srv.logs)
		}
	}
	for _, g := range games {
		for _, a := range g.acked {
			if a != "" {
				acked++
			}
		}
	}
	if acked < rounds*players {
		t.Fatalf("only %d actions acknowledged in %d rounds: the test did not exercise the server", acked, rounds)
	}
	srv := start(t, bin, db)
	checkRecords(t, srv.url, games)
	srv.kill()
	s, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkStore(t, s, games)
	t.Logf("%d games, %d acknowledged actions, %d kills: none lost, all replay", len(games), acked, rounds+1)
}

func activeGames(games []*played) []*played {
	var out []*played
	for _, g := range games {
		if !g.over {
			out = append(out, g)
		}
	}
	return out
}

// TestRealBinary builds matombo once and runs on it the crash test on
// SQLite and on PostgreSQL, and the two-instance test on PostgreSQL
// (PostgreSQL when MATOMBO_TEST_POSTGRES is set; under CI=true it must be).
func TestRealBinary(t *testing.T) {
	bin := buildBinary(t)
	t.Run("kill/sqlite", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "durable.db")
		run(t, bin, db, func() (app.Store, error) { return sqlite.Open(context.Background(), db) })
	})
	t.Run("kill/postgres", func(t *testing.T) {
		dsn := pgtest.Schema(t)
		run(t, bin, dsn, func() (app.Store, error) { return postgres.Open(context.Background(), dsn) })
	})
	t.Run("instances/postgres", func(t *testing.T) {
		testInstances(t, bin, pgtest.Schema(t))
	})
	t.Run("lobby/postgres", func(t *testing.T) {
		testLobbyInstances(t, bin, pgtest.Schema(t))
	})
	t.Run("clocks/postgres", func(t *testing.T) { // clocks_test.go
		testClocks(t, bin, pgtest.Schema(t))
	})
}
