package app

import (
	"context"
	"errors"
	"time"
)

// The scheduler's background work: the searches of game reviews and of the
// analysis board, one position at a time.
//
// A background search takes a thinker only when no AI turn can: dispatch
// starts the queued AI turns first and hands the free thinkers left to the
// background searches waiting, oldest first, and background searches hold
// at most a client's share of the thinkers (half of them, at least one).
// A position's search is short (some milliseconds to a few hundred at the
// review's limits), and a review queues again behind the others after each
// position, so the reviews share their thinkers round-robin (the analysis
// board's searches, which someone is waiting for, go before them), and an AI turn
// arriving while background searches hold thinkers waits at most for one
// of them to end — far within its wait (MaxWait) before a quick worker
// takes it.
//
// A slot rests after each search restFactor times as long as the search
// took (at most maxRest) before the next background search may have it,
// while its thinker is free for the AI: so the background searches take at
// most a quarter of each slot's core, and the players' requests keep the
// rest.

// errSchedulerClosed is the answer to a background search asked of a
// closed scheduler.
var errSchedulerClosed = errors.New("the AI is shutting down")

// restFactor and maxRest set a slot's rest after a search (see above).
const (
	restFactor = 3
	maxRest    = 2 * time.Second
)

// background is the scheduler's queue of background searches; the
// scheduler's mu guards it.
type background struct {
	waiting []*bgWaiter // oldest first
	busy    int         // background searches holding thinkers
	free    []int       // the slots not held (made on first use)
	made    bool
}

// bgWaiter is one background search waiting for a thinker: it receives
// the slot it is given on got (buffered), or got is closed if the
// scheduler closes.
type bgWaiter struct {
	got    chan int
	urgent bool // someone waits for it (the analysis board): before the reviews
}

// bgSlots is how many background searches run at once.
func (sc *scheduler) bgSlots() int { return sc.share }

// acquire waits for a thinker for one background search, after the queued
// AI turns (and, unless urgent, after the urgent searches), and returns the slot it holds (0 to bgSlots-1: each slot is
// used by one search at a time) and the function that gives it back,
// which must be called once. It fails when ctx ends or the scheduler
// closes first.
func (sc *scheduler) acquire(ctx context.Context, urgent bool) (int, func(), error) {
	w := &bgWaiter{got: make(chan int, 1), urgent: urgent}
	sc.mu.Lock()
	if sc.closed {
		sc.mu.Unlock()
		return 0, nil, errSchedulerClosed
	}
	sc.bg.waiting = append(sc.bg.waiting, w)
	sc.dispatch()
	sc.mu.Unlock()
	select {
	case slot, ok := <-w.got:
		if !ok {
			return 0, nil, errSchedulerClosed
		}
		start := time.Now()
		return slot, func() { sc.releaseSlot(slot, time.Since(start)) }, nil
	case <-ctx.Done():
		sc.mu.Lock()
		for i, q := range sc.bg.waiting {
			if q == w {
				sc.bg.waiting = append(sc.bg.waiting[:i], sc.bg.waiting[i+1:]...)
				sc.mu.Unlock()
				return 0, nil, ctx.Err()
			}
		}
		sc.mu.Unlock()
		// Given a slot meanwhile (or closed): give it back.
		if slot, ok := <-w.got; ok {
			sc.releaseSlot(slot, 0)
		}
		return 0, nil, ctx.Err()
	}
}

// releaseSlot gives back a background search's thinker at once, and its
// slot once it has rested restFactor times as long as the search took
// (took; at most maxRest).
func (sc *scheduler) releaseSlot(slot int, took time.Duration) {
	sc.mu.Lock()
	sc.busy--
	sc.bg.busy--
	if !sc.closed {
		sc.dispatch() // the thinker, for an AI turn
	}
	sc.mu.Unlock()
	back := func() {
		sc.mu.Lock()
		defer sc.mu.Unlock()
		sc.bg.free = append(sc.bg.free, slot)
		if !sc.closed {
			sc.dispatch()
		}
	}
	if rest := min(restFactor*took, maxRest); rest > 0 {
		time.AfterFunc(rest, back)
		return
	}
	back()
}

// dispatchBackground hands the thinkers no AI turn took to the background
// searches waiting, within their share. Call it with mu held, after the
// AI turns are dispatched.
func (sc *scheduler) dispatchBackground() {
	if !sc.bg.made {
		sc.bg.made = true
		for i := range sc.bgSlots() {
			sc.bg.free = append(sc.bg.free, i)
		}
	}
	for len(sc.bg.waiting) > 0 && sc.busy < sc.thinkers && len(sc.bg.free) > 0 {
		i := 0
		for j, q := range sc.bg.waiting {
			if q.urgent {
				i = j
				break
			}
		}
		w := sc.bg.waiting[i]
		sc.bg.waiting = append(sc.bg.waiting[:i], sc.bg.waiting[i+1:]...)
		slot := sc.bg.free[len(sc.bg.free)-1]
		sc.bg.free = sc.bg.free[:len(sc.bg.free)-1]
		sc.busy++
		sc.bg.busy++
		sc.stats.Background++
		w.got <- slot // never blocks: got holds one
	}
}

// closeBackground wakes the background searches waiting, with no slot.
// Call it with mu held.
func (sc *scheduler) closeBackground() {
	for _, w := range sc.bg.waiting {
		close(w.got)
	}
	sc.bg.waiting = nil
}
