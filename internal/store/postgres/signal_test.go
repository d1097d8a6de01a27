package postgres

import (
	"context"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/store/postgres/pgtest"
)

// TestSignalsBetweenInstances: a signal of one notifier reaches the other
// whole, not itself; the games' channel does not carry it.
func TestSignalsBetweenInstances(t *testing.T) {
	dsn := pgtest.Schema(t)
	a, b := open(t, dsn), open(t, dsn)
	defer a.Close()
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	na, nb := NewNotifier(a.Pool()), NewNotifier(b.Pool())
	games := listen(t, ctx, nb) // it sets nb.OnReady: before the signals' own
	ready := make(chan struct{}, 2)
	na.OnReady = func() { ready <- struct{}{} }
	nb.OnReady = na.OnReady
	atA, atB := make(chan app.Signal, 8), make(chan app.Signal, 8)
	go na.ListenSignals(ctx, func(s app.Signal) { atA <- s }, nil)
	go nb.ListenSignals(ctx, func(s app.Signal) { atB <- s }, nil)
	for range 2 {
		select {
		case <-ready:
		case <-time.After(10 * time.Second):
			t.Fatal("the signal listeners did not start in 10 s")
		}
	}
	sent := app.Signal{Kind: app.SignalSay, ID: "game1", Side: "N", Say: "good_game"}
	if err := na.Signal(ctx, sent); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-atB:
		sent.Origin = na.Origin()
		if got != sent {
			t.Errorf("b heard %+v, want %+v", got, sent)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("b heard no signal in 5 s")
	}
	select {
	case s := <-atA:
		t.Errorf("a heard its own signal %+v", s)
	case n := <-games:
		t.Errorf("the games' listener heard %+v", n)
	case <-time.After(200 * time.Millisecond):
	}
}
