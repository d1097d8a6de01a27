package app

import (
	"context"
	"sync"
	"time"

	"matombo/search"
)

// MinLevel and MaxLevel bound the AI levels.
const (
	MinLevel = search.MinLevel
	MaxLevel = search.MaxLevel
)

// TurnTime is the time budget of one AI turn at level (1..8), all its
// decisions together (a sowing, then heads, bonus picks, Nsolo removals,
// Choro directions): level² × 50 ms up to 2 s, so that level 8 answers a
// whole turn within 2.5 s, the store's writes and a busy machine included.
// Levels 1 to 7 stop at their node limits well before (search.Level): their
// time is a safety net.
func TurnTime(level int) time.Duration {
	return min(time.Duration(level*level)*50*time.Millisecond, maxTurnTime)
}

// maxTurnTime is the longest TurnTime.
const maxTurnTime = 2 * time.Second

// minDecision is the least time a decision is given, however little of its
// turn's budget is left (a turn of many decisions may overrun its budget by
// that much a decision).
const minDecision = 5 * time.Millisecond

// decisionTime is the budget of the next decision of a turn with left of the
// turn's budget: four fifths of it, at least minDecision. The first decision
// (the sowing, where the thinking is) so gets most of the turn, and the later
// ones share the rest.
func decisionTime(left time.Duration) time.Duration {
	return max(left*4/5, minDecision)
}

// Pool runs jobs on a bounded number of workers with a bounded queue (the
// service's checks of games the AI may have left waiting; the AI's turns
// run on the scheduler, sched.go).
type Pool struct {
	jobs   chan func(context.Context)
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	closed bool
}

// NewPool starts workers goroutines taking jobs from a queue of queue jobs.
func NewPool(workers, queue int) *Pool {
	workers = max(workers, 1)
	p := &Pool{jobs: make(chan func(context.Context), max(queue, 1))}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.wg.Add(workers)
	for range workers {
		go func() {
			defer p.wg.Done()
			for job := range p.jobs {
				job(p.ctx)
			}
		}()
	}
	return p
}

// Submit queues job; it reports false if the queue is full or the pool is
// closed. A job gets a context cancelled when the pool closes.
func (p *Pool) Submit(job func(context.Context)) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	select {
	case p.jobs <- job:
		return true
	default:
		return false
	}
}

// Close cancels the jobs' context, lets the workers finish the jobs they
// hold (queued jobs run with the cancelled context) and waits for them.
func (p *Pool) Close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		p.cancel()
		close(p.jobs)
	}
	p.mu.Unlock()
	p.wg.Wait()
}
