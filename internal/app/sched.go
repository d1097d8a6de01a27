package app

import (
	"context"
	"sync"
	"time"
)

// The AI's scheduling: who thinks when.
//
// An AI turn (every decision of the AI's turn in one game) is queued per game
// (a game has at most one turn queued or running) and per client (the
// address that created the game). Thinkers take queued turns round-robin
// over the clients, the oldest turn of each client first, and play them at
// their level; one client's turns occupy at most half of the thinkers
// (rounded down, at least one), so the other clients always find a thinker.
//
// A queued turn waits at most MaxWait (DefaultAIWait) for a thinker. A turn
// still queued then is played at once at a cheaper level (QuickLevel, or its
// own when lower) by one of quickWorkers quick workers, with quickTurnTime of
// search for the whole turn: its answer stays timely at some cost in
// strength, and the downgrade is counted (AIStats.Downgraded) and logged.
// As at most the queue bound of turns are queued (quick ones included), no
// turn waits longer than StartBound (store writes aside) before its search
// starts.
const (
	// DefaultAIWait is how long a queued AI turn waits for a thinker at
	// its level before it is played at a cheaper level.
	DefaultAIWait = time.Second
	// QuickLevel is the level of a turn that waited too long for a thinker
	// (a lower level keeps its own): depth 4, no noise, a millisecond or
	// so a decision.
	QuickLevel = 4
	// quickWorkers play the turns that waited too long, in that order.
	quickWorkers = 2
	// quickTurnTime is the time budget of a whole turn on a quick worker.
	quickTurnTime = 20 * time.Millisecond
)

// StartBound is the longest a queued AI turn waits before its search starts,
// with a wait of wait for a thinker and a queue bound of queue turns: the
// wait, plus the quick workers' backlog if every queued turn went to them at
// once (store writes aside). With the server's queue of 256 turns and the
// default wait: 1 s + 128 × 20 ms = 3.56 s.
func StartBound(wait time.Duration, queue int) time.Duration {
	backlog := (max(queue, 1) + quickWorkers - 1) / quickWorkers
	return wait + time.Duration(backlog)*quickTurnTime
}

// lane is how a turn is played: by a thinker at its level, or quickly.
type lane uint8

const (
	laneFull  lane = iota + 1 // a thinker, at the game's level
	laneQuick                 // a quick worker, at min(level, QuickLevel)
)

// AIWaitBounds are the upper bounds of the AIStats.Waits histogram.
var AIWaitBounds = [...]time.Duration{
	10 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond,
	500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second,
}

// AIStats counts the AI's work since the service started, for /metrics.
type AIStats struct {
	Turns      uint64 // AI turns played by a thinker at their level
	Downgraded uint64 // turns played at a cheaper level: no thinker was free within the wait
	Failures   uint64 // searches that returned an error (the decision was searched again at QuickLevel, or the game waits)
	Refused    uint64 // turns not queued: the queue was full (the game goes on at its next visit)
	Queued     int    // turns waiting now, for a thinker or a quick worker
	Thinking   int    // turns being played by thinkers now
	Thinkers   int    // the thinkers (turns thought at once at their level)
	// Background counts the searches of reviews and of the analysis
	// board given a thinker (review_sched.go); BackgroundThinking is
	// those holding one now.
	Background         uint64
	BackgroundThinking int
	// Waits counts the turns by their wait from queued to started, in the
	// buckets of AIWaitBounds (the last one: longer); WaitSum is their sum.
	Waits   [len(AIWaitBounds) + 1]uint64
	WaitSum time.Duration
}

// turnFunc plays the AI turn of game id in lane; it reports whether the
// AI is still to move afterwards (its next turn, or the game changed).
type turnFunc func(ctx context.Context, id string, l lane) (again bool)

// scheduler queues and runs the AI turns of games (see the comment above).
type scheduler struct {
	run      turnFunc
	thinkers int
	share    int // most thinkers one client's turns occupy
	wait     time.Duration
	limit    int // most turns queued (quick ones included)
	now      func() time.Time
	after    func(d time.Duration, f func()) func() bool // starts a timer; the result stops it

	mu      sync.Mutex
	games   map[string]*aiTurn      // games with a turn queued or running
	clients map[string]*clientQueue // clients with turns queued or running
	ring    []*clientQueue          // clients with turns queued, in round-robin order
	next    int                     // where the round-robin goes on in ring
	owners  owners
	quick   chan *aiTurn
	queued  int // turns queued for a thinker or on quick
	busy    int // thinkers playing
	stats   AIStats
	closed  bool
	ctx     context.Context
	cancel  context.CancelFunc
	running sync.WaitGroup
	bg      background // the reviews' and the analysis board's searches (review_sched.go)
}

// aiTurn is the turn of one game, queued or running.
type aiTurn struct {
	id      string
	client  *clientQueue
	queued  time.Time
	stop    func() bool // stops the wait timer
	running bool
	kicked  bool // running, and the game changed meanwhile: look again
}

// clientQueue is the turns of one client.
type clientQueue struct {
	name    string
	turns   []*aiTurn // queued, oldest first
	running int       // turns of this client on thinkers
}

// schedConfig configures a scheduler.
type schedConfig struct {
	thinkers int
	queue    int
	wait     time.Duration
	now      func() time.Time                            // nil: time.Now
	after    func(d time.Duration, f func()) func() bool // nil: time.AfterFunc
}

func newScheduler(cfg schedConfig, run turnFunc) *scheduler {
	sc := &scheduler{run: run, thinkers: max(cfg.thinkers, 1), wait: cfg.wait, limit: max(cfg.queue, 1),
		now: cfg.now, after: cfg.after, games: map[string]*aiTurn{}, clients: map[string]*clientQueue{},
		owners: owners{m: map[string]string{}, max: gameCacheSize}}
	sc.share = max(sc.thinkers/2, 1)
	if sc.wait <= 0 {
		sc.wait = DefaultAIWait
	}
	if sc.now == nil {
		sc.now = time.Now
	}
	if sc.after == nil {
		sc.after = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	sc.stats.Thinkers = sc.thinkers
	// Thinkers and quick workers only move turns between the queue and
	// themselves, and a kick queues only below limit: so at most limit +
	// thinkers turns are ever queued, and quick never fills.
	sc.quick = make(chan *aiTurn, sc.limit+sc.thinkers)
	sc.ctx, sc.cancel = context.WithCancel(context.Background())
	sc.running.Add(quickWorkers)
	for range quickWorkers {
		go func() {
			defer sc.running.Done()
			for t := range sc.quick {
				sc.play(t, laneQuick)
			}
		}()
	}
	return sc
}

// own records that client created game id; "" is no client (the game then
// counts as a client of its own).
func (sc *scheduler) own(id, client string) {
	if client == "" {
		return
	}
	sc.mu.Lock()
	sc.owners.set(id, client)
	sc.mu.Unlock()
}

// kick queues the AI turn of game id, or makes its running turn look again.
// It reports false if the turn could not be queued (queue full or closed).
func (sc *scheduler) kick(id string) bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.closed {
		return false
	}
	if t, ok := sc.games[id]; ok {
		if t.running {
			t.kicked = true
		}
		return true
	}
	if sc.queued >= sc.limit {
		sc.stats.Refused++
		return false
	}
	sc.enqueue(id)
	sc.dispatch()
	return true
}

// enqueue queues a new turn of game id at the back of its client's queue.
func (sc *scheduler) enqueue(id string) {
	name := sc.owners.get(id)
	if name == "" {
		name = "game " + id
	}
	c := sc.clients[name]
	if c == nil {
		c = &clientQueue{name: name}
		sc.clients[name] = c
	}
	if len(c.turns) == 0 {
		sc.ring = append(sc.ring, c)
	}
	t := &aiTurn{id: id, client: c, queued: sc.now()}
	c.turns = append(c.turns, t)
	sc.games[id] = t
	sc.queued++
	t.stop = sc.after(sc.wait, func() { sc.expire(t) })
}

// dispatch starts queued turns on the free thinkers, round-robin over the
// clients under their share.
func (sc *scheduler) dispatch() {
	for sc.busy < sc.thinkers && len(sc.ring) > 0 {
		i, found := sc.next%len(sc.ring), false
		for range len(sc.ring) {
			if sc.ring[i].running < sc.share {
				found = true
				break
			}
			i = (i + 1) % len(sc.ring)
		}
		if !found {
			break
		}
		c := sc.ring[i]
		t := c.turns[0]
		sc.unqueue(t)
		sc.next = i
		if len(c.turns) > 0 { // c keeps its place: the next client's turn comes first
			sc.next = i + 1
		}
		t.stop()
		c.running++
		sc.busy++
		sc.start(t)
		sc.running.Add(1)
		go func() {
			defer sc.running.Done()
			sc.play(t, laneFull)
		}()
	}
	sc.dispatchBackground() // the thinkers no AI turn takes
}

// unqueue takes t, the oldest turn of its client, out of the queues.
func (sc *scheduler) unqueue(t *aiTurn) {
	c := t.client
	for i, q := range c.turns {
		if q == t {
			c.turns = append(c.turns[:i], c.turns[i+1:]...)
			break
		}
	}
	if len(c.turns) == 0 {
		for i, r := range sc.ring {
			if r == c {
				sc.ring = append(sc.ring[:i], sc.ring[i+1:]...)
				if sc.next > i {
					sc.next--
				}
				break
			}
		}
	}
	sc.queued--
}

// start marks t running and counts its wait.
func (sc *scheduler) start(t *aiTurn) {
	t.running = true
	w := sc.now().Sub(t.queued)
	i := 0
	for i < len(AIWaitBounds) && w > AIWaitBounds[i] {
		i++
	}
	sc.stats.Waits[i]++
	sc.stats.WaitSum += w
}

// expire hands t to the quick workers if it is still waiting for a thinker.
func (sc *scheduler) expire(t *aiTurn) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.closed || t.running || sc.games[t.id] != t {
		return
	}
	sc.unqueue(t)
	sc.queued++ // it waits on quick now
	sc.start(t)
	sc.stats.Downgraded++
	sc.quick <- t // never blocks (see newScheduler)
}

// play runs t in l, then queues the game's next turn if it has one.
func (sc *scheduler) play(t *aiTurn, l lane) {
	again := false
	if sc.ctx.Err() == nil {
		again = sc.run(sc.ctx, t.id, l)
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if l == laneFull {
		t.client.running--
		sc.busy--
		sc.stats.Turns++
	} else {
		sc.queued--
	}
	if t.client.running == 0 && len(t.client.turns) == 0 {
		delete(sc.clients, t.client.name)
	}
	delete(sc.games, t.id)
	if (again || t.kicked) && !sc.closed {
		sc.enqueue(t.id) // at the back: round-robin with the other games
	}
	sc.dispatch()
}

// snapshot returns the statistics now.
func (sc *scheduler) snapshot() AIStats {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	st := sc.stats
	st.Queued, st.Thinking = sc.queued, sc.busy-sc.bg.busy // background searches aside
	st.BackgroundThinking = sc.bg.busy
	return st
}

// failed counts a failed search.
func (sc *scheduler) failed() {
	sc.mu.Lock()
	sc.stats.Failures++
	sc.mu.Unlock()
}

// close drops the queued turns, cancels the running ones and waits for them.
func (sc *scheduler) close() {
	sc.mu.Lock()
	if !sc.closed {
		sc.closed = true
		for _, t := range sc.games {
			if !t.running {
				t.stop()
			}
		}
		sc.ring = nil
		sc.closeBackground()
		sc.cancel()
		close(sc.quick)
	}
	sc.mu.Unlock()
	sc.running.Wait()
}

// owners remembers the client of each game it was told of, up to max
// games (then an arbitrary one is forgotten: that game counts as its own
// client).
type owners struct {
	m   map[string]string
	max int
}

func (o *owners) set(id, client string) {
	if _, ok := o.m[id]; !ok && len(o.m) >= o.max {
		for k := range o.m {
			delete(o.m, k)
			break
		}
	}
	o.m[id] = client
}

func (o *owners) get(id string) string { return o.m[id] }
