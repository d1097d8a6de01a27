// Package fakeclock is a Clock (app.Clock) whose time moves only when a
// test advances it: the clocks' tests run without sleeping.
package fakeclock

import (
	"sort"
	"sync"
	"time"

	"matombo/internal/app"
)

// Clock is a fake clock, safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
}

var _ app.Clock = (*Clock)(nil)

// New returns a clock at start.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now implements app.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements app.Clock: f runs in its own goroutine when Advance
// passes now + d.
func (c *Clock) AfterFunc(d time.Duration, f func()) app.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// Advance moves the time on by d and starts the timers due by then, the
// earliest first; it returns how many it started.
func (c *Clock) Advance(d time.Duration) int {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due, left []*timer
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			due = append(due, t)
		} else {
			left = append(left, t)
		}
	}
	c.timers = left
	c.mu.Unlock()
	sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	for _, t := range due {
		go t.f()
	}
	return len(due)
}

// Pending returns how many timers wait.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

type timer struct {
	c  *Clock
	at time.Time
	f  func()
}

// Stop implements app.Timer.
func (t *timer) Stop() bool {
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, o := range c.timers {
		if o == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			return true
		}
	}
	return false
}
