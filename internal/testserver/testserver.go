// Package testserver runs the real web app server in-process for tests, on
// a free loopback port, and stops it when the test ends.
package testserver

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/server"
	"matombo/internal/store/sqlite"
)

// Start serves store (closed when t ends, after the server stops) and
// returns the server's base URL, http://127.0.0.1:PORT.
func Start(t testing.TB, store app.Store) string {
	t.Helper()
	return StartShared(t, store, nil)
}

// StartShared is Start for one of several instances sharing store's
// database, linked by b (such as a postgres.Notifier; nil: none).
func StartShared(t testing.TB, store app.Store, b app.Broadcast) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Config{Addr: "127.0.0.1:0", Store: store, Broadcast: b, Ready: func(u string) { ready <- u }})
	}()
	stopped := false
	t.Cleanup(func() {
		cancel()
		if !stopped {
			if err := <-done; err != nil {
				t.Errorf("testserver: %v", err)
			}
		}
		store.Close()
	})
	select {
	case u := <-ready:
		return u
	case err := <-done:
		stopped = true
		t.Fatalf("testserver: the server did not start: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("testserver: the server did not start in 10 s")
	}
	return ""
}

// SQLite opens a fresh SQLite store in a temporary directory of t, or the
// database at path when path is not empty (several stores may share one
// file, as several processes would).
func SQLite(t testing.TB, path string) app.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "test.db")
	}
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
