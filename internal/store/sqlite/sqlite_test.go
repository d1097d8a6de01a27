package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"matombo/internal/app"
	"matombo/internal/store/storetest"
	"matombo/internal/store/storeutil"
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
