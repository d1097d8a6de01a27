package app_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"matombo/internal/app"
	"matombo/internal/fakeclock"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// clockEnv is a service on a fresh SQLite store and a fake clock.
type clockEnv struct {
	t     *testing.T
	ctx   context.Context
	clock *fakeclock.Clock
	svc   *app.Service
	store *sqlite.Store
}

func newClockEnv(t *testing.T) *clockEnv {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "clocks.db"))
	if err != nil {
		t.Fatal(err)
	}
	clock := fakeclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	svc := app.NewService(app.Config{Store: st, AI: search.NewGreedyLevels(1), Clock: clock})
	t.Cleanup(func() { svc.Close(); st.Close() })
	return &clockEnv{t: t, ctx: context.Background(), clock: clock, svc: svc, store: st}
}

// local creates a game on one device with time control tc and returns it
// with the tokens of South and North.
func (e *clockEnv) local(tc string) (id, south, north string) {
	e.t.Helper()
	c, err := e.svc.Create(e.ctx, app.CreateRequest{Ruleset: "tsoro size=8", Opponent: app.ModeLocal, TimeControl: tc})
	if err != nil {
		e.t.Fatal(err)
	}
	return c.ID, c.Tokens["S"], c.Tokens["N"]
}

// friends creates a game between friends (North joined) with tc.
func (e *clockEnv) friends(tc string) (id, south, north string) {
	e.t.Helper()
	c, err := e.svc.Create(e.ctx, app.CreateRequest{Ruleset: "tsoro size=8", Opponent: app.ModeFriend, TimeControl: tc})
	if err != nil {
		e.t.Fatal(err)
	}
	j, err := e.svc.Join(e.ctx, c.ID, c.Invite[strings.LastIndex(c.Invite, "/")+1:], "Bo")
	if err != nil {
		e.t.Fatal(err)
	}
	return c.ID, c.Token, j.Token
}

func (e *clockEnv) view(id string) *app.GameView {
	e.t.Helper()
	v, err := e.svc.View(e.ctx, id, "")
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// turn plays the side to move's whole turn, each decision its first legal
// action, the first decision after wait; it returns how many decisions it
// took.
func (e *clockEnv) turn(id string, tokens map[string]string, wait time.Duration) int {
	e.t.Helper()
	v := e.view(id)
	side := v.ToMove
	n := 0
	for v.Status == "playing" && v.ToMove == side {
		if n == 0 {
			e.clock.Advance(wait)
		}
		res, err := e.svc.Act(e.ctx, id, tokens[side], v.Legal[0], v.Ply)
		if err != nil {
			e.t.Fatalf("act %s at ply %d: %v", v.Legal[0], v.Ply, err)
		}
		v, n = res.Game, n+1
	}
	return n
}

func left(v *app.GameView, side string) time.Duration {
	return time.Duration(v.Clock.Left[side]) * time.Millisecond
}

// TestClockAccuracy plays a 3+2 game on the fake clock and checks each
// side's time to the millisecond: the first turns untimed, then each turn's
// time taken from the mover's clock and 2 s added once a turn, however
// many decisions it has; the view's clock counts down from the stored one.
func TestClockAccuracy(t *testing.T) {
	e := newClockEnv(t)
	id, s, n := e.local("3+2")
	tokens := map[string]string{"S": s, "N": n}
	want := map[string]time.Duration{"S": 3 * time.Minute, "N": 3 * time.Minute}
	v := e.view(id)
	if v.Clock.Control != "3+2" || v.Clock.Category != app.CategoryBlitz || v.Clock.Running != "" || v.Clock.Started || v.Offers.CanAbort != true {
		t.Fatalf("new game clock %+v offers %+v", v.Clock, v.Offers)
	}
	// The first turns: untimed, whatever they take within StartWindow.
	e.turn(id, tokens, 40*time.Minute)
	e.turn(id, tokens, 50*time.Minute)
	v = e.view(id)
	if left(v, "S") != want["S"] || left(v, "N") != want["N"] || v.Clock.Running != "S" || !v.Clock.Started || v.Offers.CanAbort {
		t.Fatalf("after the first turns: clock %+v offers %+v", v.Clock, v.Offers)
	}
	waits := []time.Duration{7250 * time.Millisecond, 1 * time.Millisecond, 31*time.Second + 999*time.Millisecond, 0, 12 * time.Second, 2 * time.Second}
	multi := 0
	for _, w := range waits {
		side := e.view(id).ToMove
		if d := e.turn(id, tokens, w); d > 1 {
			multi++
		}
		want[side] += 2*time.Second - w
		v = e.view(id)
		if v.Status != "playing" {
			break
		}
		for _, sd := range []string{"S", "N"} {
			if got := left(v, sd); got != want[sd] {
				t.Fatalf("after %s's turn of %v: %s has %v, want %v", side, w, sd, got, want[sd])
			}
		}
		due := *v.Clock.Due
		if got := due.Sub(e.clock.Now()); got != want[v.ToMove] {
			t.Fatalf("deadline in %v, want %v", got, want[v.ToMove])
		}
	}
	// The running side's view counts down from its stored clock.
	side := v.ToMove
	e.clock.Advance(1234 * time.Millisecond)
	if got := left(e.view(id), side); got != want[side]-1234*time.Millisecond {
		t.Fatalf("running clock %v, want %v", got, want[side]-1234*time.Millisecond)
	}
	t.Logf("%d of %d turns had several decisions", multi, len(waits))
}

// TestFlag: a side whose time runs out loses, ended by the sweeper with
// nobody connected, once; an action after the flag is refused.
func TestFlag(t *testing.T) {
	e := newClockEnv(t)
	id, s, n := e.local("1+0")
	tokens := map[string]string{"S": s, "N": n}
	e.turn(id, tokens, time.Second)
	e.turn(id, tokens, time.Second)
	e.turn(id, tokens, 20*time.Second) // South: 40 s left
	v := e.view(id)
	if v.ToMove != "N" || left(v, "N") != time.Minute {
		t.Fatalf("North to move with a minute: %s, %v", v.ToMove, left(v, "N"))
	}
	e.clock.Advance(time.Minute - time.Millisecond)
	if ended, err := e.svc.Sweep(e.ctx); err != nil || ended != 0 {
		t.Fatalf("sweep a millisecond before the flag: %d ended, %v", ended, err)
	}
	e.clock.Advance(time.Millisecond)
	if ended, err := e.svc.Sweep(e.ctx); err != nil || ended != 1 {
		t.Fatalf("sweep at the flag: %d ended, %v", ended, err)
	}
	if ended, err := e.svc.Sweep(e.ctx); err != nil || ended != 0 {
		t.Fatalf("sweep again: %d ended, %v", ended, err)
	}
	v = e.view(id)
	if v.Result != "S" || v.Reason != app.ReasonTime || v.Clock.Running != "" || left(v, "N") != 0 {
		t.Fatalf("after the flag: %s (%s), clock %+v", v.Result, v.Reason, v.Clock)
	}
	if _, err := e.svc.Act(e.ctx, id, n, "a1", v.Ply); app.ErrorCode(err) != app.EConflict {
		t.Fatalf("an action after the flag: %v", err)
	}
}

// TestFlagOnAction: an action that comes after its side's time ran out,
// before any sweep, ends the game by the flag instead of being played.
func TestFlagOnAction(t *testing.T) {
	e := newClockEnv(t)
	id, s, n := e.local("1+0")
	tokens := map[string]string{"S": s, "N": n}
	e.turn(id, tokens, time.Second)
	e.turn(id, tokens, time.Second)
	e.clock.Advance(time.Minute + time.Millisecond)
	v := e.view(id)
	_, err := e.svc.Act(e.ctx, id, s, v.Legal[0], v.Ply)
	if app.ErrorCode(err) != app.EConflict || !strings.Contains(app.ErrorMessage(err), "time ran out") {
		t.Fatalf("a late action: %v", err)
	}
	if v := e.view(id); v.Result != "N" || v.Reason != app.ReasonTime {
		t.Fatalf("after a late action: %s (%s)", v.Result, v.Reason)
	}
}

// TestSweeperRunsOnItsClock: StartSweeping ends a flagged game when the
// clock passes the flag, with no call from a client.
func TestSweeperRunsOnItsClock(t *testing.T) {
	e := newClockEnv(t)
	id, s, n := e.local("1+0")
	tokens := map[string]string{"S": s, "N": n}
	e.turn(id, tokens, 0)
	e.turn(id, tokens, 0)
	e.svc.StartSweeping()
	e.clock.Advance(time.Minute) // the sweep due then runs in its own goroutine
	e.svc.StopSweeping()         // and is waited for
	if v := e.view(id); v.Result != "N" || v.Reason != app.ReasonTime {
		t.Fatalf("swept: %s (%s)", v.Result, v.Reason)
	}
}

// TestCorrespondence: a turn has its days; passing them loses for the side
// to move, or aborts a game whose first turns were not both played.
func TestCorrespondence(t *testing.T) {
	e := newClockEnv(t)
	id, s, n := e.friends("corr:1")
	tokens := map[string]string{"S": s, "N": n}
	e.turn(id, tokens, 23*time.Hour)
	e.turn(id, tokens, 23*time.Hour)
	v := e.view(id)
	if v.Clock.Running != "S" || left(v, "S") != 24*time.Hour || left(v, "N") != 24*time.Hour {
		t.Fatalf("correspondence clock %+v", v.Clock)
	}
	e.clock.Advance(24*time.Hour - time.Second)
	if ended, _ := e.svc.Sweep(e.ctx); ended != 0 {
		t.Fatal("ended before its day")
	}
	e.clock.Advance(time.Second)
	if ended, err := e.svc.Sweep(e.ctx); ended != 1 || err != nil {
		t.Fatalf("sweep after the day: %d, %v", ended, err)
	}
	if v := e.view(id); v.Result != "N" || v.Reason != app.ReasonTime {
		t.Fatalf("late correspondence turn: %s (%s)", v.Result, v.Reason)
	}

	id, s, _ = e.friends("corr:3")
	e.turn(id, map[string]string{"S": s}, time.Hour)
	e.clock.Advance(3 * 24 * time.Hour)
	e.svc.Sweep(e.ctx)
	if v := e.view(id); v.Result != app.ResultAborted || v.Reason != app.ReasonNotStarted {
		t.Fatalf("a correspondence game whose second side never played: %s (%s)", v.Result, v.Reason)
	}
}

// TestAbandoned: a game without a clock nobody acted in for AbandonAfter
// is lost by the side to move if the other was waiting, aborted otherwise.
func TestAbandoned(t *testing.T) {
	e := newClockEnv(t)
	played, s, n := e.friends("")
	e.turn(played, map[string]string{"S": s, "N": n}, 0)
	e.turn(played, map[string]string{"S": s, "N": n}, 0)
	unplayed, _, _ := e.friends("")
	local, ls, ln := e.local("")
	e.turn(local, map[string]string{"S": ls, "N": ln}, 0)
	e.turn(local, map[string]string{"S": ls, "N": ln}, 0)
	if c := e.view(played).Clock; c.AbandonAfterS != int64(app.AbandonAfter/time.Second) || c.IdleSince == nil {
		t.Fatalf("the abandonment rule is not in the view: %+v", c)
	}
	e.clock.Advance(app.AbandonAfter - time.Second)
	if ended, _ := e.svc.Sweep(e.ctx); ended != 0 {
		t.Fatal("games ended before AbandonAfter")
	}
	e.clock.Advance(time.Second)
	// The store's Updated of the games is their last action's time, on the fake clock.
	if ended, err := e.svc.Sweep(e.ctx); ended != 3 || err != nil {
		t.Fatalf("sweep after AbandonAfter: %d ended, %v", ended, err)
	}
	for id, want := range map[string][2]string{played: {"N", app.ReasonAbandoned}, unplayed: {app.ResultAborted, app.ReasonAbandoned}, local: {app.ResultAborted, app.ReasonAbandoned}} {
		if v := e.view(id); v.Result != want[0] || v.Reason != want[1] {
			t.Errorf("game %s: %s (%s), want %s (%s)", id, v.Result, v.Reason, want[0], want[1])
		}
	}
}

// TestOffers: abort before both sides played, a draw offered and
// accepted, a takeback asked and accepted.
func TestOffers(t *testing.T) {
	e := newClockEnv(t)
	id, s, n := e.friends("10+5")
	tokens := map[string]string{"S": s, "N": n}
	e.turn(id, tokens, time.Second)
	v, err := e.svc.Abort(e.ctx, id, n)
	if err != nil || v.Result != app.ResultAborted || v.Reason != app.ReasonAborted {
		t.Fatalf("abort: %v, %+v", err, v)
	}

	id, s, n = e.friends("10+5")
	tokens = map[string]string{"S": s, "N": n}
	e.turn(id, tokens, time.Second)
	e.turn(id, tokens, time.Second)
	if _, err := e.svc.Abort(e.ctx, id, s); app.ErrorCode(err) != app.EConflict {
		t.Fatalf("abort after both played: %v", err)
	}
	if v, err := e.svc.OfferDraw(e.ctx, id, s); err != nil || v.Offers.Draw != "S" {
		t.Fatalf("offer a draw: %v %+v", err, v)
	}
	if v, err := e.svc.Decline(e.ctx, id, n); err != nil || v.Offers.Draw != "" {
		t.Fatalf("decline: %v %+v", err, v)
	}
	e.svc.OfferDraw(e.ctx, id, s)
	e.turn(id, tokens, time.Second) // an action clears the offer
	if v := e.view(id); v.Offers.Draw != "" {
		t.Fatalf("an action left the offer: %+v", v.Offers)
	}
	e.svc.OfferDraw(e.ctx, id, n)
	if v, err := e.svc.OfferDraw(e.ctx, id, s); err != nil || v.Result != "draw" || v.Reason != app.ReasonAgreed {
		t.Fatalf("accept the draw: %v %+v", err, v)
	}

	id, s, n = e.friends("3+2")
	tokens = map[string]string{"S": s, "N": n}
	e.turn(id, tokens, time.Second)
	e.turn(id, tokens, time.Second)
	e.turn(id, tokens, 10*time.Second) // South: 3:00 - 10 + 2
	before := e.view(id)
	e.turn(id, tokens, 5*time.Second) // North
	if v, err := e.svc.Takeback(e.ctx, id, n); err != nil || v.Offers.Takeback != "N" {
		t.Fatalf("ask for a takeback: %v %+v", err, v)
	}
	e.clock.Advance(3 * time.Second)
	v, err = e.svc.Takeback(e.ctx, id, s)
	if err != nil || v.Ply != before.Ply || v.ToMove != "N" || v.Offers.Takeback != "" || v.Takebacks != 1 {
		t.Fatalf("accept the takeback: %v, ply %d (want %d), to move %s", err, v.Ply, before.Ply, v.ToMove)
	}
	if left(v, "N") != 3*time.Minute || left(v, "S") != 3*time.Minute-8*time.Second {
		t.Fatalf("clocks after the takeback: %+v", v.Clock)
	}
}

// TestSweepSkipsBrokenGames: a due game the sweep cannot end (its stored
// actions do not replay) is logged once and left for sweepRetry, and the
// other due games end all the same.
func TestSweepSkipsBrokenGames(t *testing.T) {
	e := newClockEnv(t)
	var logs strings.Builder
	e.svc.Close()
	e.svc = app.NewService(app.Config{Store: e.store, AI: search.NewGreedyLevels(1), Clock: e.clock, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	t.Cleanup(e.svc.Close)
	now := e.clock.Now()
	broken := &app.Game{ID: "broken", Ruleset: "nsolo", Mode: app.ModeFriend, Result: "*", Created: now, Updated: now, TimeControl: "1+0",
		ClockFrom: now, Deadline: now.Add(time.Second), Actions: []app.Move{{Ply: 0, Action: "zz9", At: now}}}
	if err := e.store.CreateGame(e.ctx, broken); err != nil {
		t.Fatal(err)
	}
	id, _, _ := e.local("1+0")
	e.clock.Advance(app.StartWindow)
	if n, err := e.svc.Sweep(e.ctx); n != 1 || err != nil {
		t.Fatalf("first sweep: %d ended, %v", n, err)
	}
	if v := e.view(id); v.Result != app.ResultAborted || v.Reason != app.ReasonNotStarted {
		t.Fatalf("the good game: %s (%s)", v.Result, v.Reason)
	}
	e.clock.Advance(time.Minute)
	e.svc.Sweep(e.ctx)
	if n := strings.Count(logs.String(), "trying again later"); n != 1 {
		t.Fatalf("the broken game was tried %d times in two sweeps, want 1:\n%s", n, logs.String())
	}
}
