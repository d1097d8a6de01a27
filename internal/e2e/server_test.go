package e2e

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/server"
	"matombo/internal/store/sqlite"
)

// testServer is the server under test.
type testServer struct {
	t     *testing.T
	url   string
	store *sqlite.Store
	stop  func()    // stops the running server and waits for it
	clock app.Clock // the games' clocks (nil: the real time)
}

// startServer starts the real server in-process on 127.0.0.1:0 with a
// temporary SQLite database, or uses the one at $MATOMBO_E2E_URL when set
// (to drive a server running elsewhere; it cannot be restarted then).
func startServer(t *testing.T) *testServer {
	t.Helper()
	return startServerWith(t, nil)
}

// startServerWith is startServer with the games' clocks on clock (nil: the
// real time; a fake clock needs the server in-process).
func startServerWith(t *testing.T, clock app.Clock) *testServer {
	t.Helper()
	if u := os.Getenv("MATOMBO_E2E_URL"); u != "" {
		return &testServer{t: t, url: u}
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{t: t, store: st, clock: clock}
	ts.run("127.0.0.1:0")
	t.Cleanup(func() {
		ts.stop()
		if err := st.Close(); err != nil {
			t.Errorf("store: %v", err)
		}
	})
	return ts
}

func (ts *testServer) run(addr string) {
	t := ts.t
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Config{Addr: addr, Store: ts.store, Ready: func(u string) { ready <- u }, ShutdownTimeout: 5 * time.Second, Clock: ts.clock})
	}()
	ts.stop = func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("server: %v", err)
		}
	}
	select {
	case u := <-ready:
		ts.url = u
	case err := <-done:
		t.Fatalf("server did not start: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("server did not start in 20 s")
	}
}

// restart stops the server, closing every live connection, and starts it
// again on the same address with the same database, as a deployment does.
// It reports false when the server is not in-process.
func (ts *testServer) restart() bool {
	if ts.store == nil {
		return false
	}
	ts.stop()
	u, err := url.Parse(ts.url)
	if err != nil {
		ts.t.Fatal(err)
	}
	ts.run(u.Host)
	return true
}
