package postgres

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"time"

	"matombo/internal/store/postgres/pgtest"
)

type note struct {
	id  string
	ply int
}

// listen starts n listening and returns its notifications; it waits until
// the connection listens.
func listen(t *testing.T, ctx context.Context, n *Notifier) <-chan note {
	t.Helper()
	out := make(chan note, 16)
	ready := make(chan struct{}, 1)
	done := make(chan error, 1)
	n.OnReady = func() { ready <- struct{}{} }
	go func() {
		done <- n.Listen(ctx, func(id string, ply int) { out <- note{id, ply} }, nil)
	}()
	t.Cleanup(func() {
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Listen returned %v, want context.Canceled", err)
		}
	})
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Listen: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Listen did not start in 10 s")
	}
	return out
}

// expectNote waits up to 5 s for the next notification on ch, which must
// be w.
func expectNote(t *testing.T, ch <-chan note, w note, who string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case got := <-ch:
			if got.id != w.id {
				// The channel is the database's: other tests running at
				// the same time (the server's, the load test's) notify
				// their own games on it too.
				continue
			}
			if got != w {
				t.Errorf("%s heard %+v, want %+v", who, got, w)
			}
			return
		case <-deadline:
			t.Fatalf("%s heard nothing in 5 s, want %+v", who, w)
		}
	}
}

// TestNotifyBetweenInstances uses two stores (two pools, as two server
// instances have): each hears the other's notifications, in order, and not
// its own.
func TestNotifyBetweenInstances(t *testing.T) {
	dsn := pgtest.Schema(t)
	a, b := open(t, dsn), open(t, dsn)
	defer a.Close()
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	na, nb := NewNotifier(a.Pool()), NewNotifier(b.Pool())
	if na.Origin() == nb.Origin() {
		t.Fatal("two notifiers share an origin")
	}
	fromB, fromA := listen(t, ctx, na), listen(t, ctx, nb)
	for ply := range 3 {
		if err := na.Notify(ctx, "game1", ply); err != nil {
			t.Fatal(err)
		}
	}
	if err := nb.Notify(ctx, "game2", 7); err != nil {
		t.Fatal(err)
	}
	for ply := range 3 {
		expectNote(t, fromA, note{"game1", ply}, "b")
	}
	expectNote(t, fromB, note{"game2", 7}, "a")
	// Neither hears itself: after a round trip through the other, nothing
	// more is queued.
	if err := nb.Notify(ctx, "game3", 1); err != nil {
		t.Fatal(err)
	}
	expectNote(t, fromB, note{"game3", 1}, "a")
	select {
	case n := <-fromA:
		t.Errorf("b heard %+v, its own notification or a surplus one", n)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestNotifyInTransaction checks the property the multi-instance design
// relies on: a pg_notify sent inside a transaction is delivered only if the
// transaction commits.
func TestNotifyInTransaction(t *testing.T) {
	dsn := pgtest.Schema(t)
	a, b := open(t, dsn), open(t, dsn)
	defer a.Close()
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	na := NewNotifier(a.Pool())
	heard := listen(t, ctx, NewNotifier(b.Pool()))
	for _, commit := range []bool{false, true} {
		tx, err := a.Pool().Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ply := 0
		if commit {
			ply = 1
		}
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, Channel, payload(na.Origin(), "g", ply)); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = tx.Commit(ctx)
		} else {
			err = tx.Rollback(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	expectNote(t, heard, note{"g", 1}, "the listener") // not {g 0}, rolled back
}

func TestParsePayload(t *testing.T) {
	o, id, ply, ok := parsePayload(payload("ab12", "gameid", 42))
	if !ok || o != "ab12" || id != "gameid" || ply != 42 {
		t.Errorf("round trip: %q %q %d %v", o, id, ply, ok)
	}
	for _, bad := range []string{"", "a b", "a b c d", "a b -1", "a b x"} {
		if _, _, _, ok := parsePayload(bad); ok {
			t.Errorf("parsePayload(%q) accepted", bad)
		}
	}
}

// TestListenReconnects kills the listening connection on the server side:
// Listen reconnects, calls Resync, and hears notifications again.
func TestListenReconnects(t *testing.T) {
	dsn := pgtest.Schema(t)
	// b's connections carry the schema's name as application_name, so that
	// only this test's listener is killed, not those of tests running at
	// the same time on the same database.
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	appName := u.Query().Get("search_path")
	q := u.Query()
	q.Set("application_name", appName)
	u.RawQuery = q.Encode()
	a, b := open(t, dsn), open(t, u.String())
	defer a.Close()
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	nb := NewNotifier(b.Pool())
	ready := make(chan struct{}, 4)
	resynced := make(chan struct{}, 4)
	heard := make(chan note, 4)
	done := make(chan error, 1)
	nb.OnReady = func() { ready <- struct{}{} }
	go func() {
		done <- nb.Listen(ctx, func(id string, ply int) { heard <- note{id, ply} }, func() { resynced <- struct{}{} })
	}()
	defer func() {
		cancel()
		<-done
	}()
	wait := func(ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s in 10 s", what)
		}
	}
	wait(ready, "listening")
	// The listener's connection is the one of b's pool that runs LISTEN.
	var killed int
	if err := a.Pool().QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE query = $1 AND application_name = $2`, "LISTEN "+Channel, appName).Scan(&killed); err != nil || killed != 1 {
		t.Fatalf("killed %d listening connections (%v), want 1", killed, err)
	}
	wait(resynced, "resync after the connection was killed")
	wait(ready, "listening again")
	if err := NewNotifier(a.Pool()).Notify(ctx, "g", 5); err != nil {
		t.Fatal(err)
	}
	expectNote(t, heard, note{"g", 5}, "the reconnected listener")
}
