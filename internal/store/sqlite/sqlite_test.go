package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"matombo/internal/app"
	"matombo/internal/store/storetest"
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
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil || n != 1 {
		t.Errorf("schema_migrations has %d rows (%v), want 1", n, err)
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
