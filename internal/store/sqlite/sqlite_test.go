package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/store/storetest"
	"matombo/internal/store/storeutil"
	"matombo/mancala"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) app.Store {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestReopen checks that migrations run once and data survives a reopen, in
// WAL mode.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "re.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g := &app.Game{ID: "keep", Ruleset: "nsolo", Mode: app.ModeLocal, Result: "*"}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	if _, err := s.Game(ctx, "keep"); err != nil {
		t.Errorf("game lost on reopen: %v", err)
	}
	ms, err := storeutil.Migrations(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil || n != len(ms) {
		t.Errorf("schema_migrations has %d rows (%v), want %d", n, err, len(ms))
	}
}

// TestMigrateFromTheFirstSchema checks that a database written by the first
// schema opens under the current one with its games intact.
func TestMigrateFromTheFirstSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	first, err := migrations.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{string(first),
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)`,
		`INSERT INTO schema_migrations VALUES (1, 0)`,
		`INSERT INTO games (id, ruleset, mode, players, plies, turns, result, reason, created, updated)
			VALUES ('old', 'nsolo', 'local', '[{"kind":"human","name":"Ama"},{"kind":"human","name":"Kofi"}]', 1, 1, '*', '', 1, 1)`,
		`INSERT INTO actions (game_id, ply, action, side, created) VALUES ('old', 0, 'a1', 'S', 1)`,
		// Friend games: one joined (South created it), one not (North did).
		`INSERT INTO games (id, ruleset, mode, players, invite_s, invite_n, created, updated) VALUES
			('joined', 'nsolo', 'friend', '[{"kind":"human","name":"A"},{"kind":"human","name":"B"}]', x'01', x'02', 1, 1),
			('waiting', 'nsolo', 'friend', '[{"kind":"human","name":"A"},{"kind":"human","name":"B"}]', x'01', x'02', 1, 1)`,
		`INSERT INTO seats (game_id, side, token_hash, created) VALUES ('joined', 'S', x'10', 1), ('joined', 'N', x'11', 2), ('joined', 'N', x'12', 3), ('waiting', 'N', x'13', 1)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("open a first-schema database: %v", err)
	}
	defer s.Close()
	g, err := s.Game(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if g.Players[0].Name != "Ama" || len(g.Actions) != 1 || g.Actions[0].Action != "a1" || g.Headers != nil {
		t.Errorf("the old game reads back as %+v", g)
	}
	// The opponent's invite of an old friend game seats one player.
	for id, want := range map[string][2][2]bool{"joined": {{false, true}, {false, true}}, "waiting": {{true, false}, {false, false}}, "old": {}} {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got := [2][2]bool{g.InviteOnce, g.InviteTaken}; got != want {
			t.Errorf("game %s: invites once %v, taken %v; want %v", id, g.InviteOnce, g.InviteTaken, want)
		}
	}
}

// TestCloseFinishesQueuedWrites checks that Close commits the writes
// already asked for, and that a write asked of a closed store says so.
func TestCloseFinishesQueuedWrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "close.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	const n = 50
	errs := make(chan error, n)
	for i := range n {
		go func() {
			errs <- s.CreateGame(ctx, &app.Game{ID: fmt.Sprintf("c%02d", i), Ruleset: "nsolo", Mode: app.ModeLocal, Result: "*"})
		}()
	}
	stored := 0
	for range n {
		if err := <-errs; err == nil {
			stored++
		} else if !errors.Is(err, errClosed) {
			t.Errorf("CreateGame: %v", err)
		}
		if stored == n/2 {
			s.Close() // while the other half may still be queued; again is harmless
		}
	}
	if err := s.CreateGame(ctx, &app.Game{ID: "late", Ruleset: "nsolo", Mode: app.ModeLocal, Result: "*"}); !errors.Is(err, errClosed) {
		t.Errorf("CreateGame after Close: %v, want %v", err, errClosed)
	}
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var count int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM games").Scan(&count); err != nil {
		t.Fatal(err)
	}
	if count != stored {
		t.Errorf("%d games stored after reopen, but %d creations were acknowledged", count, stored)
	}
}

// TestMigrateCutsHeaders checks migration 0003: a game imported before the
// header limits keeps its first 61 headers whose values fit, in order.
func TestMigrateCutsHeaders(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "headers.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g := &app.Game{ID: "many", Ruleset: "nsolo", Mode: app.ModeImported, Result: "*", Headers: storetest.ManyHeaders(100_000)}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM schema_migrations WHERE version = 3`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	storetest.CheckCutHeaders(t, s, "many")
}

// TestCancelInsideBusyGroup: callers that go away while their writes run
// inside a group of writes roll back nothing of the others' writes. The
// writer is held while the group queues: 20 small games; a job whose one
// statement runs for a while, its caller going away during it (a context
// cancelled during a statement would interrupt it, and SQLite would then
// roll back the whole group); a game of 5,000 actions whose caller goes
// away while it is written; 20 small games. Then the group runs. (The
// slow job is one INSERT of 20,000 actions: an interrupted INSERT rolls
// back its whole transaction.)
func TestCancelInsideBusyGroup(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "cancel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	held, release := make(chan struct{}), make(chan struct{})
	go s.tx(ctx, holdWriter(held, release))
	<-held
	small := func(id string) *app.Game {
		return &app.Game{ID: id, Ruleset: "nsolo", Mode: app.ModeLocal, Result: "*"}
	}
	var wg sync.WaitGroup
	errs := make(map[string]error)
	var mu sync.Mutex
	create := func(ctx context.Context, g *app.Game) {
		wg.Go(func() {
			err := s.CreateGame(ctx, g)
			mu.Lock()
			errs[g.ID] = err
			mu.Unlock()
		})
	}
	queued := func(n int) {
		for len(s.jobs) < n {
			time.Sleep(time.Millisecond)
		}
	}
	for i := range 20 {
		create(ctx, small(fmt.Sprintf("before%02d", i)))
	}
	queued(20)

	slowCtx, slowCancel := context.WithCancel(ctx)
	slowRunning, slowDone := make(chan struct{}), make(chan struct{})
	var slowErr error
	var slowTook time.Duration
	wg.Go(func() {
		slowErr = s.tx(slowCtx, func(ctx context.Context, tx *sql.Tx) error {
			close(slowRunning)
			start := time.Now()
			defer func() { slowTook = time.Since(start); close(slowDone) }()
			if err := s.createGame(ctx, tx, small("slow")); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO actions (game_id, ply, action, side, created)
				WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 19999) SELECT 'slow', x, 'a1', 'S', 0 FROM c`)
			return err
		})
	})
	go func() {
		<-slowRunning
		time.Sleep(2 * time.Millisecond)
		slowCancel()
	}()
	queued(21)

	big := small("big")
	for p := range 5_000 {
		big.Actions = append(big.Actions, app.Move{Ply: p, Action: "a1", Side: mancala.Player(p % 2), At: time.Now()})
	}
	bigCtx, bigCancel := context.WithCancel(ctx)
	create(bigCtx, big)
	queued(22)
	for i := range 20 {
		create(ctx, small(fmt.Sprintf("after%02d", i)))
	}
	queued(42)
	go func() {
		<-slowDone // the big game's write comes next
		time.Sleep(10 * time.Millisecond)
		bigCancel()
	}()
	start := time.Now()
	close(release)
	wg.Wait()
	t.Logf("the group took %v; the slow statement %v, its caller gone after 2 ms: %v; the big game's write: %v", time.Since(start), slowTook, slowErr, errs["big"])
	if slowErr != nil {
		t.Errorf("the slow job, whose caller went away while it ran, failed: %v", slowErr)
	} else if g, err := s.Game(ctx, "slow"); err != nil || len(g.Actions) != 20_000 {
		t.Errorf("the slow job's game is not stored whole: %v", err)
	}
	for id, err := range errs {
		_, got := s.Game(ctx, id)
		switch {
		case id != "big" && err != nil:
			t.Errorf("game %s, whose caller stayed, was refused: %v", id, err)
		case err == nil && got != nil:
			t.Errorf("game %s was acknowledged but is not stored: %v", id, got)
		case err != nil && got == nil:
			t.Errorf("game %s was refused (%v) but is stored", id, err)
		}
	}
}

// TestWriteDeadline: a write that cannot start by its caller's deadline
// (the writer is held) is not run, and says so.
func TestWriteDeadline(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "deadline.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	held, release := make(chan struct{}), make(chan struct{})
	go s.tx(ctx, holdWriter(held, release))
	<-held
	dctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	done := make(chan error)
	go func() {
		done <- s.CreateGame(dctx, &app.Game{ID: "late", Ruleset: "nsolo", Mode: app.ModeLocal, Result: "*"})
	}()
	time.Sleep(100 * time.Millisecond)
	close(release)
	err = <-done
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "did not start by its deadline") {
		t.Errorf("a write past its deadline: %v", err)
	}
	if _, err := s.Game(ctx, "late"); app.ErrorCode(err) != app.ENotFound {
		t.Errorf("a write past its deadline was stored: %v", err)
	}
}

// holdWriter returns a write job that holds the writer: it closes held
// when it runs, then waits for release.
func holdWriter(held, release chan struct{}) func(context.Context, *sql.Tx) error {
	return func(context.Context, *sql.Tx) error {
		close(held)
		<-release
		return nil
	}
}
