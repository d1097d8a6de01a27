package postgres

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"matombo/internal/app"
	"matombo/internal/store/postgres/pgtest"
	"matombo/internal/store/storetest"
	"matombo/internal/store/storeutil"
)

func open(t *testing.T, dsn string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStore(t *testing.T) {
	pgtest.DSN(t) // skip (or fail under CI) once, not per subtest
	storetest.Run(t, func(t *testing.T) app.Store { return open(t, pgtest.Schema(t)) })
}

// TestMigrateConcurrently opens several stores on one empty schema at once,
// as several server instances starting together do: the advisory lock makes
// the migrations run once.
func TestMigrateConcurrently(t *testing.T) {
	dsn := pgtest.Schema(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := Open(context.Background(), dsn)
			if err == nil {
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("open %d: %v", i, err)
		}
	}
	s := open(t, dsn)
	defer s.Close()
	ms, err := storeutil.Migrations(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.pool.QueryRow(context.Background(), "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil || n != len(ms) {
		t.Errorf("schema_migrations has %d rows (%v), want %d", n, err, len(ms))
	}
}

// TestTwoStoresOneGame appends through two separate pools (two server
// instances) to one game, racing on every ply: each ply is won exactly once.
func TestTwoStoresOneGame(t *testing.T) {
	dsn := pgtest.Schema(t)
	a, b := open(t, dsn), open(t, dsn)
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	if err := a.CreateGame(ctx, &app.Game{ID: "g", Ruleset: "nsolo", Mode: app.ModeLocal, Result: "*"}); err != nil {
		t.Fatal(err)
	}
	const plies = 20
	for ply := range plies {
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			s := a
			if i%2 == 1 {
				s = b
			}
			wg.Go(func() {
				errs[i] = s.AppendAction(ctx, "g", app.Move{Ply: ply, Action: fmt.Sprintf("a%d", i+1)}, 0, "*", "")
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case app.ErrorCode(err) != app.EConflict:
				t.Fatalf("ply %d: %v, want success or a conflict", ply, err)
			}
		}
		if won != 1 {
			t.Fatalf("ply %d: %d appends succeeded, want 1", ply, won)
		}
	}
	g, err := b.Game(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Actions) != plies {
		t.Fatalf("stored %d actions, want %d", len(g.Actions), plies)
	}
	for i, m := range g.Actions {
		if m.Ply != i {
			t.Errorf("action %d has ply %d", i, m.Ply)
		}
	}
}

func TestBadDSN(t *testing.T) {
	_, err := Open(context.Background(), "postgres://user:secret@[bad")
	if err == nil {
		t.Fatal("a malformed DSN was accepted")
	}
	if got := err.Error(); strings.Contains(got, "secret") {
		t.Errorf("error %q shows the password", got)
	}
}

func TestWithSearchPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://u:p@127.0.0.1:5432/db?sslmode=disable", "postgres://u:p@127.0.0.1:5432/db?search_path=s1&sslmode=disable"},
		{"host=127.0.0.1 dbname=db", "host=127.0.0.1 dbname=db search_path=s1"},
	} {
		got, err := pgtest.WithSearchPath(tc.in, "s1")
		if err != nil || got != tc.want {
			t.Errorf("WithSearchPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// BenchmarkPlay measures what the server does per action: load the game,
// then append one action.
func BenchmarkPlay(b *testing.B) {
	s, err := Open(context.Background(), pgtest.Schema(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateGame(ctx, &app.Game{ID: "g", Ruleset: "nsolo", Mode: app.ModeLocal, Result: "*"}); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		g, err := s.Game(ctx, "g")
		if err != nil || len(g.Actions) != i {
			b.Fatalf("ply %d: %d actions, %v", i, len(g.Actions), err)
		}
		if err := s.AppendAction(ctx, "g", app.Move{Ply: i, Action: "a1"}, 0, "*", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCheckWriteReadOnly: on a database that answers reads but refuses
// writes (here: sessions in read-only transactions, as on a standby), the
// write check fails while reads still work: what /healthz reports.
func TestCheckWriteReadOnly(t *testing.T) {
	dsn := pgtest.Schema(t)
	open(t, dsn).Close() // the schema, migrated
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &Store{pool: pool}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.ListGames(ctx, app.ListFilter{Limit: 1}); err != nil {
		t.Fatalf("a read on the read-only database: %v", err)
	}
	if err := s.CheckWrite(ctx); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("CheckWrite on a read-only database: %v, want a read-only error", err)
	}
}

// TestMigrateCutsHeaders checks migration 0003: a game imported before the
// header limits keeps its first 61 headers whose values fit, in order.
func TestMigrateCutsHeaders(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Schema(t)
	s := open(t, dsn)
	g := &app.Game{ID: "many", Ruleset: "nsolo", Mode: app.ModeImported, Result: "*", Headers: storetest.ManyHeaders(100_000)}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM schema_migrations WHERE version = 3`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, dsn)
	defer s.Close()
	storetest.CheckCutHeaders(t, s, "many")
}
