package app

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeTurns is a turnFunc whose turns run until released, with a record of
// the turns started (game and lane) in order.
type fakeTurns struct {
	mu      sync.Mutex
	started []string
	release map[string]chan bool // game -> its turn's result, when released
	wake    chan struct{}
}

func newFakeTurns() *fakeTurns {
	return &fakeTurns{release: map[string]chan bool{}, wake: make(chan struct{}, 100)}
}

func (f *fakeTurns) ch(id string) chan bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.release[id] == nil {
		f.release[id] = make(chan bool, 1)
	}
	return f.release[id]
}

func (f *fakeTurns) run(ctx context.Context, id string, l lane) bool {
	name := id
	if l == laneQuick {
		name += "/quick"
	}
	f.mu.Lock()
	f.started = append(f.started, name)
	f.mu.Unlock()
	f.wake <- struct{}{}
	select {
	case again := <-f.ch(id):
		return again
	case <-ctx.Done():
		return false
	}
}

// waitStarted waits until n turns have started and returns them.
func (f *fakeTurns) waitStarted(t *testing.T, n int) []string {
	t.Helper()
	for deadline := time.After(5 * time.Second); ; {
		f.mu.Lock()
		got := slices.Clone(f.started)
		f.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-f.wake:
		case <-deadline:
			t.Fatalf("%d turns started, want %d: %v", len(got), n, got)
		}
	}
}

// fakeTimers is the scheduler's timer under the test's control.
type fakeTimers struct {
	mu     sync.Mutex
	fires  []func()
	active []bool
}

func (ft *fakeTimers) after(_ time.Duration, f func()) func() bool {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	i := len(ft.fires)
	ft.fires, ft.active = append(ft.fires, f), append(ft.active, true)
	return func() bool {
		ft.mu.Lock()
		defer ft.mu.Unlock()
		was := ft.active[i]
		ft.active[i] = false
		return was
	}
}

// fireAll fires every timer still active.
func (ft *fakeTimers) fireAll() {
	ft.mu.Lock()
	var due []func()
	for i, f := range ft.fires {
		if ft.active[i] {
			ft.active[i] = false
			due = append(due, f)
		}
	}
	ft.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func newTestScheduler(t *testing.T, thinkers, queue int) (*scheduler, *fakeTurns, *fakeTimers) {
	f, ft := newFakeTurns(), &fakeTimers{}
	sc := newScheduler(schedConfig{thinkers: thinkers, queue: queue, wait: time.Second, after: ft.after}, f.run)
	t.Cleanup(sc.close)
	return sc, f, ft
}

func (sc *scheduler) kickAs(t *testing.T, client string, ids ...string) {
	t.Helper()
	for _, id := range ids {
		sc.own(id, client)
		if !sc.kick(id) {
			t.Fatalf("turn of %s refused", id)
		}
	}
}

// TestSchedulerRoundRobin: with one thinker, the queued turns are served
// one client after the other, each client's oldest first.
func TestSchedulerRoundRobin(t *testing.T) {
	sc, f, _ := newTestScheduler(t, 1, 16)
	sc.kickAs(t, "A", "a1")
	f.waitStarted(t, 1)
	sc.kickAs(t, "A", "a2", "a3")
	sc.kickAs(t, "B", "b1", "b2")
	sc.kickAs(t, "C", "c1")
	want := []string{"a1", "a2", "b1", "c1", "a3", "b2"}
	for i, id := range want[:len(want)-1] {
		f.ch(id) <- false
		f.waitStarted(t, i+2)
	}
	f.ch("b2") <- false
	if got := f.waitStarted(t, len(want)); !slices.Equal(got, want) {
		t.Fatalf("turns started %v, want %v", got, want)
	}
	if st := sc.snapshot(); st.Turns < 5 || st.Downgraded != 0 || st.Waits[0]+st.Waits[1]+st.Waits[2]+st.Waits[3]+st.Waits[4]+st.Waits[5] != 6 {
		t.Errorf("stats %+v", st)
	}
}

// TestSchedulerShare: one client's turns take at most half the thinkers;
// another client's turn starts at once on the others.
func TestSchedulerShare(t *testing.T) {
	sc, f, _ := newTestScheduler(t, 4, 64)
	for i := range 10 {
		sc.kickAs(t, "A", fmt.Sprintf("a%d", i))
	}
	f.waitStarted(t, 2)
	sc.kickAs(t, "B", "b0", "b1", "b2")
	got := f.waitStarted(t, 4) // all four thinkers are busy: no fifth turn starts
	slices.Sort(got)           // the thinkers start in any order
	if !slices.Equal(got, []string{"a0", "a1", "b0", "b1"}) {
		t.Fatalf("turns started %v, want a0 a1 b0 b1 (A, first with ten turns, takes two thinkers of four)", got)
	}
	if st := sc.snapshot(); st.Thinking != 4 || st.Queued != 9 {
		t.Fatalf("thinking %d queued %d, want 4 and 9", st.Thinking, st.Queued)
	}
}

// TestSchedulerWaitBound: a turn that waited the wait for a thinker is
// played at once by a quick worker, and counted.
func TestSchedulerWaitBound(t *testing.T) {
	sc, f, ft := newTestScheduler(t, 1, 16)
	sc.kickAs(t, "A", "a1")
	f.waitStarted(t, 1)
	sc.kickAs(t, "B", "b1")
	sc.kickAs(t, "C", "c1")
	ft.fireAll() // a1's timer was stopped when it started: only b1's and c1's fire
	got := f.waitStarted(t, 3)
	slices.Sort(got[1:])
	if !slices.Equal(got, []string{"a1", "b1/quick", "c1/quick"}) {
		t.Fatalf("turns started %v", got)
	}
	if st := sc.snapshot(); st.Downgraded != 2 || st.Thinking != 1 || st.Queued != 2 {
		t.Fatalf("stats %+v, want 2 downgraded, 1 thinking, 2 on quick", st)
	}
	f.ch("b1") <- false
	f.ch("c1") <- false
	f.ch("a1") <- false
	for deadline := time.Now().Add(5 * time.Second); sc.snapshot().Queued != 0 || sc.snapshot().Thinking != 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("turns still queued or running: %+v", sc.snapshot())
		}
	}
}

// TestSchedulerAgainAndKick: a turn whose game changed while it ran (kick),
// or whose AI is still to move, is queued again behind the other games.
func TestSchedulerAgainAndKick(t *testing.T) {
	sc, f, _ := newTestScheduler(t, 1, 16)
	sc.kickAs(t, "A", "a1")
	f.waitStarted(t, 1)
	sc.kickAs(t, "A", "a1") // changed while running
	sc.kickAs(t, "B", "b1")
	f.ch("a1") <- true // and still to move
	f.waitStarted(t, 2)
	f.ch("b1") <- false
	if got := f.waitStarted(t, 3); !slices.Equal(got, []string{"a1", "b1", "a1"}) {
		t.Fatalf("turns started %v, want a1 b1 a1", got)
	}
}

// TestSchedulerQueueBound: turns beyond the queue bound are refused and
// counted; a closed scheduler refuses all.
func TestSchedulerQueueBound(t *testing.T) {
	sc, f, _ := newTestScheduler(t, 1, 2)
	sc.kickAs(t, "A", "a1")
	f.waitStarted(t, 1)
	sc.kickAs(t, "A", "a2", "a3")
	if sc.kick("a4") {
		t.Fatal("a turn beyond the queue bound was queued")
	}
	if st := sc.snapshot(); st.Refused != 1 || st.Queued != 2 {
		t.Fatalf("stats %+v", st)
	}
	sc.close() // cancels a1
	if sc.kick("a5") {
		t.Fatal("a closed scheduler queued a turn")
	}
}

// TestStartBound: the stated bound of the wait.
func TestStartBound(t *testing.T) {
	if got := StartBound(DefaultAIWait, 256); got != 3560*time.Millisecond {
		t.Fatalf("StartBound(1s, 256) = %v, want 3.56s", got)
	}
}

// TestDecisionTime: a turn's decisions share its budget, the first gets
// most, and the total overruns the budget by at most minDecision a decision.
func TestDecisionTime(t *testing.T) {
	budget := TurnTime(MaxLevel)
	left, total := budget, time.Duration(0)
	for i := range 30 {
		d := decisionTime(left)
		if i == 0 && d < budget*3/4 {
			t.Fatalf("first decision %v of %v", d, budget)
		}
		total += d
		left -= d
	}
	if total > budget+30*minDecision {
		t.Fatalf("30 decisions took %v of a %v turn", total, budget)
	}
	if TurnTime(MaxLevel) != 2*time.Second || TurnTime(1) != 50*time.Millisecond {
		t.Fatalf("TurnTime(8) %v, TurnTime(1) %v", TurnTime(MaxLevel), TurnTime(1))
	}
}
