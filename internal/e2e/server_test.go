package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"matombo/internal/server"
	"matombo/internal/store/sqlite"
)

// startServer returns the base URL of the server under test: the real
// server, started in-process on 127.0.0.1:0 with a temporary SQLite
// database, or the one in $MATOMBO_E2E_URL when set (to drive a server
// running elsewhere).
func startServer(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("MATOMBO_E2E_URL"); u != "" {
		return u
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Config{Addr: "127.0.0.1:0", Store: st, Ready: func(u string) { ready <- u }, ShutdownTimeout: 5 * time.Second})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("server: %v", err)
		}
		if err := st.Close(); err != nil {
			t.Errorf("store: %v", err)
		}
	})
	select {
	case u := <-ready:
		return u
	case err := <-done:
		t.Fatalf("server did not start: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("server did not start in 20 s")
	}
	return ""
}
