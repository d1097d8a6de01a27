package storetest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/mancala"
)

// clockStore returns s as an app.ClockStore, failing t if it is not one.
func clockStore(t *testing.T, s app.Store) app.ClockStore {
	t.Helper()
	cs, ok := s.(app.ClockStore)
	if !ok {
		t.Fatalf("%T is not an app.ClockStore", s)
	}
	return cs
}

// testClocks: a game's time control, clock, deadline, offer and rated
// flag round-trip; each action's clock is stored with it; an append sets
// the deadline and clears the offer.
func testClocks(t *testing.T, s app.Store) {
	ctx := context.Background()
	cs := clockStore(t, s)
	g := newGame("c", base)
	g.TimeControl, g.ClockFrom, g.Deadline, g.Rated = "3+2", base, base.Add(time.Hour), true
	mustCreate(t, s, g)
	got := mustGet(t, s, "c")
	if got.TimeControl != "3+2" || !got.ClockFrom.Equal(base) || !got.Deadline.Equal(base.Add(time.Hour)) || !got.Rated || got.Offer != "" {
		t.Fatalf("clock fields %q %v %v rated %v offer %q", got.TimeControl, got.ClockFrom, got.Deadline, got.Rated, got.Offer)
	}
	if err := cs.SetOffer(ctx, "c", 0, "draw:S"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "offer at a stale ply", cs.SetOffer(ctx, "c", 1, "draw:N"), app.EConflict)
	if got := mustGet(t, s, "c"); got.Offer != "draw:S" {
		t.Fatalf("offer %q, want draw:S", got.Offer)
	}
	m := move(0, "a1", mancala.South)
	m.Clock, m.Clocked, m.Deadline = 2*time.Minute+1500*time.Millisecond, true, m.At.Add(3*time.Minute)
	if err := s.AppendAction(ctx, "c", m, 1, "*", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendAction(ctx, "c", move(1, "b1", mancala.North), 2, "*", ""); err != nil { // no clock
		t.Fatal(err)
	}
	got = mustGet(t, s, "c")
	if got.Offer != "" || !got.ClockFrom.Equal(move(1, "b1", mancala.North).At) || !got.Deadline.IsZero() {
		t.Fatalf("after the appends: offer %q clock from %v deadline %v", got.Offer, got.ClockFrom, got.Deadline)
	}
	if a := got.Actions[0]; !a.Clocked || a.Clock != m.Clock {
		t.Fatalf("action 0 clock %v (%v), want %v", a.Clock, a.Clocked, m.Clock)
	}
	if a := got.Actions[1]; a.Clocked {
		t.Fatalf("action 1 has a clock %v", a.Clock)
	}
	// A game stored without clock fields reads with ClockFrom at its creation.
	mustCreate(t, s, newGame("plain", base))
	if got := mustGet(t, s, "plain"); got.TimeControl != "" || !got.ClockFrom.Equal(base) || !got.Deadline.IsZero() || got.Rated {
		t.Fatalf("plain game clock fields %q %v %v %v", got.TimeControl, got.ClockFrom, got.Deadline, got.Rated)
	}
}

// testTakeBack: TakeBack removes the actions from a ply on, conditionally.
func testTakeBack(t *testing.T, s app.Store) {
	ctx := context.Background()
	cs := clockStore(t, s)
	mustCreate(t, s, newGame("t", base))
	for i, a := range []string{"a1", "b1", "a2"} {
		if err := s.AppendAction(ctx, "t", move(i, a, mancala.Player(i%2)), i+1, "*", ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := cs.SetOffer(ctx, "t", 3, "takeback:S"); err != nil {
		t.Fatal(err)
	}
	from := base.Add(time.Hour)
	wantCode(t, "take back at a stale ply", cs.TakeBack(ctx, "t", 2, 1, 1, from, time.Time{}), app.EConflict)
	if err := cs.TakeBack(ctx, "t", 3, 1, 1, from, from.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got := mustGet(t, s, "t")
	if len(got.Actions) != 1 || got.Turns != 1 || got.Offer != "" || !got.ClockFrom.Equal(from) || !got.Deadline.Equal(from.Add(time.Minute)) || got.Takebacks != 1 {
		t.Fatalf("after the takeback: %d actions, %d turns, offer %q, from %v, deadline %v, %d takebacks", len(got.Actions), got.Turns, got.Offer, got.ClockFrom, got.Deadline, got.Takebacks)
	}
	// The game goes on from ply 1.
	if err := s.AppendAction(ctx, "t", move(1, "b2", mancala.North), 2, "*", ""); err != nil {
		t.Fatal(err)
	}
	if got := mustGet(t, s, "t"); len(got.Actions) != 2 || got.Actions[1].Action != "b2" {
		t.Fatalf("after the takeback and an action: %+v", got.Actions)
	}
}

// testDueGames: the games past their deadline and the idle games without
// a clock are due, the longest due first; games over, imported records
// and games with a clock that is not due are not.
func testDueGames(t *testing.T, s app.Store) {
	ctx := context.Background()
	cs := clockStore(t, s)
	now := base.Add(30 * 24 * time.Hour)
	idle := now.Add(-14 * 24 * time.Hour)
	add := func(id, tc string, updated, deadline time.Time, mode, result string) {
		g := newGame(id, updated)
		g.TimeControl, g.Deadline, g.Mode, g.Result = tc, deadline, mode, result
		mustCreate(t, s, g)
	}
	add("flagged", "1+0", now.Add(-time.Hour), now.Add(-time.Second), app.ModeFriend, "*")
	add("on-time", "1+0", now.Add(-time.Hour), now.Add(time.Second), app.ModeFriend, "*")
	add("corr-late", "corr:1", base, now.Add(-time.Minute), app.ModeFriend, "*")
	add("idle", "", idle.Add(-time.Hour), time.Time{}, app.ModeFriend, "*")
	add("recent", "", idle.Add(time.Hour), time.Time{}, app.ModeFriend, "*")
	add("imported", "", base, time.Time{}, app.ModeImported, "*")
	add("over", "", base, time.Time{}, app.ModeFriend, "S")
	add("over-timed", "1+0", base, base, app.ModeFriend, "N")
	ids, err := cs.DueGames(ctx, now, idle, 10)
	if err != nil {
		t.Fatal(err)
	}
	// By how long they are due: idle since idle - 1 h (the deadline of
	// an idle game is its last change), corr-late, flagged.
	if want := []string{"idle", "corr-late", "flagged"}; !slices.Equal(ids, want) {
		t.Fatalf("due games %v, want %v", ids, want)
	}
	if ids, err := cs.DueGames(ctx, now, idle, 1); err != nil || len(ids) != 1 {
		t.Fatalf("due games with limit 1: %v, %v", ids, err)
	}
}

// testFinishOnce: of concurrent Finish calls on one game at one ply (the
// sweepers of several instances ending a flagged game), exactly one
// succeeds.
func testFinishOnce(t *testing.T, s app.Store) {
	mustCreate(t, s, newGame("f", base))
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = s.Finish(context.Background(), "f", 0, "N", app.ReasonTime) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case app.ErrorCode(err) != app.EConflict:
			t.Fatalf("finish: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of %d concurrent finishes succeeded, want 1", ok, n)
	}
}
